//! `unify_returns`: one `return` per function (Beignet's unified return
//! block).
//!
//! Every `return` becomes a jump to a fresh exit block, appended at the end
//! of the layout, that returns the value passed to its parameter (if the
//! function returns one). With one exit, a gang's lanes leave the kernel
//! together, and linearization has a single place where every lane ends.
//!
//! Needs no analysis; changes the CFG (so every analysis of the function
//! must be recomputed). Functions with at most one `return` are unchanged.

use lockstep_ir::{BlockCall, Function, InstData};

/// Rewrites `func` so that it has at most one `return`.
pub fn unify_returns(func: &mut Function) {
    let returns: Vec<_> = func
        .insts_in_layout()
        .filter(|&(_, inst)| matches!(func.insts[inst], InstData::Return { .. }))
        .map(|(_, inst)| inst)
        .collect();
    if returns.len() <= 1 {
        return;
    }
    let exit = func.append_new_block();
    let param = func
        .signature
        .ret
        .map(|ty| func.append_block_param(exit, ty));
    for inst in returns {
        let InstData::Return { arg } = func.insts[inst] else {
            unreachable!("collected returns only");
        };
        func.insts[inst] = InstData::Jump {
            dest: BlockCall {
                block: exit,
                args: arg.into_iter().collect(),
            },
        };
    }
    let ret = func.create_inst(InstData::Return { arg: param }, None);
    func.append_inst(exit, ret);
}
