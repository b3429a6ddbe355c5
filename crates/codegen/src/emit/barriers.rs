//! Splitting a kernel at its barriers: each barrier ends its block, and the
//! instructions after it start a new block, a *resume point*. A gang that
//! reaches a resume point suspends (its state is in memory) until every
//! gang of the work-group has reached it; then all gangs resume there.

use lockstep_ir::{BlockCall, Function, InstData};

/// A copy of `func` where every barrier is the last instruction before a
/// `jump` to a fresh block; returns it and the resume blocks, in the order
/// their barriers appear (resume point `k` is `blocks[k - 1]`).
pub fn split_at_barriers(func: &Function) -> (Function, Vec<lockstep_ir::Block>) {
    let mut f = func.clone();
    let mut resume = Vec::new();
    let mut i = 0;
    while i < f.layout.len() {
        let b = f.layout[i];
        let at = f.blocks[b]
            .insts
            .iter()
            .position(|&inst| matches!(f.insts[inst], InstData::Barrier { .. }));
        if let Some(at) = at {
            let rest = f.blocks[b].insts.split_off(at + 1);
            let next = f.create_block();
            f.layout.insert(i + 1, next);
            for &inst in &rest {
                f.inst_block[inst] = Some(next);
            }
            f.blocks[next].insts = rest;
            let jump = f.create_inst(
                InstData::Jump {
                    dest: BlockCall {
                        block: next,
                        args: Vec::new(),
                    },
                },
                None,
            );
            f.append_inst(b, jump);
            resume.push(next);
        }
        i += 1;
    }
    (f, resume)
}
