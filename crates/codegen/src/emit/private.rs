//! Private arrays interleaved across lanes. A private array whose pointers
//! only reach loads and stores of one size E (through `ptradd`s used in
//! their own block) is laid out element by element across the lanes: lane
//! `l`'s byte `o` is at `base + (o / E)·W·E + l·E`. A uniform index then
//! reads or writes one vector of W elements; other arrays keep one
//! contiguous copy per lane.

use std::collections::{HashMap, HashSet};

use cranelift_entity::SecondaryMap;
use lockstep_ir::{Function, Inst, InstData, StackSlot, Type, Value};

/// Which stack slots are interleaved, and the pointer values into them
/// (they are not materialized: loads and stores compute lane addresses).
#[derive(Default)]
pub(super) struct PrivatePlan {
    /// The element size of each interleaved slot.
    pub elem: SecondaryMap<StackSlot, Option<u32>>,
    /// Every pointer value derived from an interleaved slot.
    pub pointers: HashSet<Value>,
}

/// Bytes a load or store of `t` moves (`i1` is a byte).
pub(super) fn access_size(t: Type) -> u32 {
    t.bytes().max(1)
}

pub(super) fn plan(func: &Function) -> PrivatePlan {
    let mut uses: HashMap<Value, Vec<Inst>> = HashMap::new();
    for (_, inst) in func.insts_in_layout() {
        func.insts[inst].visit_args(|v| uses.entry(v).or_default().push(inst));
    }
    let mut plan = PrivatePlan::default();
    for (slot, _) in func.stack_slots.iter() {
        let roots: Vec<Value> = func
            .insts_in_layout()
            .filter(|&(_, i)| matches!(func.insts[i], InstData::StackAddr { slot: s } if s == slot))
            .filter_map(|(_, i)| func.results[i])
            .collect();
        let mut elem: Option<u32> = None;
        let mut ok = !roots.is_empty();
        let mut derived = Vec::new();
        let mut work = roots.clone();
        while let Some(p) = work.pop() {
            if !ok {
                break;
            }
            derived.push(p);
            let mut agree = |size: u32, align: u32| {
                if align < size || elem.is_some_and(|e| e != size) {
                    false
                } else {
                    elem = Some(size);
                    true
                }
            };
            for &u in uses.get(&p).map(|v| v.as_slice()).unwrap_or(&[]) {
                ok &= match &func.insts[u] {
                    InstData::PtrAdd { args: [a, off] } if *a == p && *off != p => {
                        // A derived pointer must stay in its block (its offset
                        // is an LLVM value of that block).
                        let r = func.results[u].expect("ptradd has a result");
                        let here = func.inst_block[u];
                        let local = uses
                            .get(&r)
                            .is_none_or(|us| us.iter().all(|&x| func.inst_block[x] == here));
                        if local {
                            work.push(r);
                        }
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
                plan.elem[slot] = Some(e);
                plan.pointers.extend(derived);
            }
        }
    }
    plan
}
