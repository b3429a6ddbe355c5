//! `lower_switch`: a `switch` on a value that varies across a gang becomes a
//! chain of `brif`s (Beignet lowers every switch to if-chains; a switch on a
//! uniform value stays, since the code generator makes it one jump-table
//! branch for the whole gang).
//!
//! Cases that go to the same block with the same arguments share one
//! condition, the `bor` of their compares, so the chain has one link per
//! distinct target rather than one per case value: its length is bounded by
//! the targets, and each link sends its lanes along one edge. The compares
//! stay in the switch's block; link `i` tests target `i`'s condition and
//! otherwise goes on to link `i + 1`; the last link's "otherwise" is the
//! default.
//!
//! Needs the uniformity of the function for the gang it is compiled for;
//! changes the CFG. Chain blocks follow the switch's block in the layout.

use lockstep_ir::{BinaryOp, BlockCall, FuncBuilder, Function, InstData, IntCC, Value};

use crate::analysis::Uniformity;

/// Lowers every `switch` of `func` whose operand varies across a gang.
pub fn lower_switch(func: &mut Function, uniformity: &Uniformity) {
    let varying: Vec<_> = func
        .layout
        .iter()
        .filter(|&&b| uniformity.is_reachable(b))
        .filter_map(|&b| {
            let term = func.terminator(b)?;
            match &func.insts[term] {
                InstData::Switch { arg, .. } if !uniformity.operand_shape(*arg, b).is_uniform() => {
                    Some((b, term))
                }
                _ => None,
            }
        })
        .collect();
    for (block, term) in varying {
        let InstData::Switch {
            arg,
            default,
            cases,
        } = func.insts[term].clone()
        else {
            unreachable!("collected switches only");
        };
        let srcloc = func.srclocs[term];
        func.remove_inst(term);
        let position = func.layout.iter().position(|&b| b == block);
        let ty = func.value_type(arg);
        let mut b = FuncBuilder::new(func);
        b.switch_to_block(block);
        b.set_srcloc(srcloc);
        // One condition per distinct target, in order of first appearance.
        let mut targets: Vec<(BlockCall, Value)> = Vec::new();
        for (value, dest) in cases {
            let k = b.iconst(ty, value as i64);
            let hit = b.icmp(IntCC::Eq, arg, k);
            match targets.iter_mut().find(|(call, _)| *call == dest) {
                Some((_, cond)) => *cond = b.binary(BinaryOp::Bor, *cond, hit),
                None => targets.push((dest, hit)),
            }
        }
        let position = position.expect("reachable blocks are in the layout");
        let no_cases = targets.is_empty();
        let mut otherwise = default;
        let links: Vec<_> = (1..targets.len()).map(|_| b.func.create_block()).collect();
        for (i, &link) in links.iter().enumerate() {
            b.func.layout.insert(position + 1 + i, link);
        }
        // From the last link back to the first, so each knows its "otherwise".
        for (i, (dest, cond)) in targets.into_iter().enumerate().rev() {
            let link = if i == 0 { block } else { links[i - 1] };
            b.switch_to_block(link);
            b.brif(cond, dest, otherwise);
            otherwise = BlockCall {
                block: link,
                args: Vec::new(),
            };
        }
        if no_cases {
            b.switch_to_block(block);
            b.jump(otherwise.block, otherwise.args);
        }
    }
}
