//! Filetests: `.lir` files holding Lockstep IR, a header naming the check, and the expected result as comments.
