//! `layout_private`: chooses how each private array of gang-level IR is laid
//! out across the lanes of a gang.
//!
//! An array whose every access moves one aligned element of the same size E
//! (see [`lockstep_ir::private`]) is *interleaved*: element `i` of all W
//! lanes sits side by side, so an access with a uniform index is one vector
//! load or store instead of a gather, and the lanes' copies of an element
//! share cache lines. Any other array keeps one contiguous copy per lane
//! (byte-addressed accesses of mixed sizes, `memcpy`, pointers that escape
//! their block): its accesses are gathers and scatters.
//!
//! Needs a function in the `linearized` phase; changes only the stack
//! slots' `interleave`, which code generation follows.

use lockstep_ir::private::private_accesses;
use lockstep_ir::Function;

/// Marks each stack slot of `func` interleaved wherever its accesses allow.
pub fn layout_private(func: &mut Function) {
    if func.gang.is_none() {
        return;
    }
    let accesses = private_accesses(func);
    for (slot, data) in func.stack_slots.iter_mut() {
        data.interleave = accesses.elem[slot];
    }
}
