//! Which private arrays can be *interleaved* across the lanes of a gang.
//!
//! In gang-level IR a stack slot may be marked `interleaved E`: lane `l`'s
//! byte `o` of it is then at `(o / E)·W·E + l·E + o % E` of the gang's copy,
//! so the same element of every lane is one vector of W elements (a uniform
//! index is one vector access). That needs every access to the slot to move
//! exactly one element: this module finds the slots where it does, for the
//! `layout_private` pass to choose and the verifier to check.

use std::collections::HashMap;

use cranelift_entity::SecondaryMap;

use crate::{Function, Inst, InstData, StackSlot, Type, Value};

/// How each stack slot of a function is accessed.
#[derive(Default)]
pub struct PrivateAccesses {
    /// The element size each slot could be interleaved by: `None` when some
    /// access does not fit (the slot must stay one contiguous copy per lane).
    pub elem: SecondaryMap<StackSlot, Option<u32>>,
    /// Each pointer derived from a slot that could be interleaved (its
    /// `stack_addr`s and the `ptradd`s on them), with that slot.
    pub pointers: HashMap<Value, StackSlot>,
}

/// Bytes a load or store of `t` moves (`i1` is a byte).
pub fn access_size(t: Type) -> u32 {
    t.bytes().max(1)
}

/// A slot can be interleaved by E bytes when its address reaches only
/// non-volatile loads and stores of E bytes aligned to E, through `ptradd`s
/// whose results are used in their own block (code generation keeps such
/// a pointer as a lane offset within the block).
pub fn private_accesses(func: &Function) -> PrivateAccesses {
    let mut uses: HashMap<Value, Vec<Inst>> = HashMap::new();
    for (_, inst) in func.insts_in_layout() {
        func.insts[inst].visit_args(|v| uses.entry(v).or_default().push(inst));
    }
    let mut out = PrivateAccesses::default();
    for (slot, _) in func.stack_slots.iter() {
        let mut work: Vec<Value> = func
            .insts_in_layout()
            .filter(|&(_, i)| matches!(func.insts[i], InstData::StackAddr { slot: s } if s == slot))
            .filter_map(|(_, i)| func.results[i])
            .collect();
        let mut elem: Option<u32> = None;
        let mut ok = !work.is_empty();
        let mut derived = Vec::new();
        while let Some(p) = work.pop() {
            if !ok {
                break;
            }
            derived.push(p);
            let mut agree = |size: u32, align: u32| {
                let fits = align >= size && elem.is_none_or(|e| e == size);
                elem = elem.or(Some(size));
                fits
            };
            for &u in uses.get(&p).map(|v| v.as_slice()).unwrap_or(&[]) {
                // A predicated access moves what the access would.
                let data = match &func.insts[u] {
                    InstData::Predicated { inst, .. } => &**inst,
                    data => data,
                };
                ok &= match data {
                    InstData::PtrAdd { args: [a, off] } if *a == p && *off != p => {
                        let r = func.results[u].expect("ptradd has a result");
                        let here = func.inst_block[u];
                        let local = uses
                            .get(&r)
                            .is_none_or(|us| us.iter().all(|&x| func.inst_block[x] == here));
                        work.push(r);
                        local
                    }
                    InstData::Load {
                        ptr,
                        align,
                        volatile: false,
                    } if *ptr == p => {
                        let t = func.value_type(func.results[u].expect("load has a result"));
                        agree(access_size(t), *align)
                    }
                    InstData::Store {
                        args: [v, q],
                        align,
                        volatile: false,
                    } if *q == p && *v != p => agree(access_size(func.value_type(*v)), *align),
                    _ => false,
                };
            }
        }
        if ok {
            if let Some(e) = elem {
                out.elem[slot] = Some(e);
                out.pointers.extend(derived.into_iter().map(|p| (p, slot)));
            }
        }
    }
    out
}
