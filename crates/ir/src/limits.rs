//! The compile-time budget: the largest functions Lockstep compiles.
//!
//! Compile time grows with the size of a kernel, and not every step of the
//! way is linear: LLVM's optimizer and code generator are quadratic in
//! places on very large functions, and so are some of Lockstep's own
//! analyses around loops. Rather than run for minutes or take gigabytes on
//! a kernel that would never be worth it, a program whose function is larger
//! than [`MAX_BLOCKS`] blocks or [`MAX_INSTS`] instructions after import
//! (helper functions inlined) is refused with [`TooLarge`], which names the
//! function and its size.
//!
//! The limits sit well above what a kernel needs: a 10,000-case `switch` is
//! about 10,000 blocks and 50,000 instructions and compiles in a few
//! seconds (30,000 cases on a per-work-item value: 20 s and 1 GB); no
//! kernel of the test corpus or the benchmarks has more than 48 blocks or
//! 855 instructions.

use thiserror::Error;

use crate::{Function, InstData, Module};

/// The most blocks a function may have.
pub const MAX_BLOCKS: usize = 50_000;

/// The most instructions a function may have, each case of a `switch`
/// counting as one more (it becomes a compare, or a jump-table entry).
pub const MAX_INSTS: usize = 200_000;

/// A function past the compile-time budget.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error(
    "{} '{name}' is too large to compile: {insts} instructions (switch cases included) in \
     {blocks} blocks after inlining (Lockstep compiles at most {MAX_INSTS} instructions and \
     {MAX_BLOCKS} blocks per kernel); split it into smaller kernels, or make code repeated for \
     many values a loop over a table",
    if *.kernel { "kernel" } else { "function" }
)]
pub struct TooLarge {
    /// The function's name, and whether it is a kernel.
    pub name: String,
    pub kernel: bool,
    pub blocks: usize,
    /// Its instructions and switch cases.
    pub insts: usize,
}

/// Checks `func` against the budget.
pub fn check_function(func: &Function) -> Result<(), TooLarge> {
    let blocks = func.layout.len();
    let insts: usize = func
        .layout
        .iter()
        .flat_map(|&b| &func.blocks[b].insts)
        .map(|&inst| match &func.insts[inst] {
            InstData::Switch { cases, .. } => 1 + cases.len(),
            _ => 1,
        })
        .sum();
    if blocks > MAX_BLOCKS || insts > MAX_INSTS {
        return Err(TooLarge {
            name: func.name.clone(),
            kernel: func.is_kernel(),
            blocks,
            insts,
        });
    }
    Ok(())
}

/// Checks every function of `module` against the budget.
pub fn check_module(module: &Module) -> Result<(), TooLarge> {
    module.functions.values().try_for_each(check_function)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BlockCall, FuncBuilder, Signature, Type};

    /// A function of two blocks: a `switch` of `cases` cases, and a return.
    fn switch_of(cases: u64) -> Function {
        let mut func = Function::new("f", Signature::default());
        let entry = func.append_new_block();
        let exit = func.append_new_block();
        let to_exit = BlockCall {
            block: exit,
            args: Vec::new(),
        };
        let mut b = FuncBuilder::new(&mut func);
        b.switch_to_block(entry);
        let arg = b.iconst(Type::I32, 0);
        b.ins(
            InstData::Switch {
                arg,
                default: to_exit.clone(),
                cases: (0..cases).map(|k| (k, to_exit.clone())).collect(),
            },
            None,
        );
        b.switch_to_block(exit);
        b.ret(None);
        func
    }

    #[test]
    fn switch_cases_count_as_instructions() {
        // iconst, switch and return: 3 instructions plus the cases.
        let limit = MAX_INSTS as u64 - 3;
        assert_eq!(check_function(&switch_of(limit)), Ok(()));
        let err = check_function(&switch_of(limit + 1)).unwrap_err();
        assert_eq!(
            err,
            TooLarge {
                name: "f".into(),
                kernel: false,
                blocks: 2,
                insts: MAX_INSTS + 1,
            }
        );
        assert!(err
            .to_string()
            .starts_with(&format!("function 'f' is too large to compile: {} instructions (switch cases included) in 2 blocks", MAX_INSTS + 1)));
    }

    #[test]
    fn blocks_are_limited() {
        let mut func = Function::new("f", Signature::default());
        let blocks: Vec<_> = (0..=MAX_BLOCKS).map(|_| func.append_new_block()).collect();
        let mut b = FuncBuilder::new(&mut func);
        for pair in blocks.windows(2) {
            b.switch_to_block(pair[0]);
            b.jump(pair[1], Vec::new());
        }
        b.switch_to_block(blocks[MAX_BLOCKS]);
        b.ret(None);
        let err = check_function(&func).unwrap_err();
        assert_eq!((err.blocks, err.insts), (MAX_BLOCKS + 1, MAX_BLOCKS + 1));
    }
}
