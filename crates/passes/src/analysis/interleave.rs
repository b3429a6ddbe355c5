//! Interleaved stores: the fields of small records written side by side,
//! found on gang-level IR for the code generator.
//!
//! `out[2 * i] = a; out[2 * i + 1] = b;` stores each lane's `a` and `b`
//! through addresses two elements apart per lane. Alone, each such store is
//! strided (a scatter, or a masked store of every other element); together
//! they cover every element of a range, which the code generator writes as
//! the interleaving of `a` and `b`: plain vector stores, where a host
//! without AVX-512 would otherwise store lane by lane.
//!
//! A group is `k` stores (2 to 4) of one block whose addresses are `k`
//! elements apart per lane (the caller says which are, from their shapes),
//! of one type of 4 or 8 bytes, under the same predicate, with no other
//! memory access between the first and the last: writing them all at the
//! last one's place changes nothing another access could see. When their
//! addresses are one address plus 0, 1, ..., k - 1 elements (the same
//! pointer plus the same sum of terms, differing in a constant), the group
//! is *proven*; otherwise (values carried across a barrier as separate
//! block parameters hide how addresses relate) the code generator tests
//! at run time that member j's address is member 0's plus j elements,
//! members in program order, and stores them one by one if not.

use std::collections::HashMap;

use lockstep_ir::{BinaryOp, Block, Function, Inst, InstData, Type, Value, ValueDef};

/// Stores written together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreGroup {
    /// The stores: member `j` writes `j` elements after member 0 (if
    /// `proven`; otherwise, in program order, it should).
    pub members: Vec<Inst>,
    /// The member that comes last in the block: where the group is written.
    pub last: Inst,
    /// The addresses are known to be `j` elements apart.
    pub proven: bool,
}

/// The interleaved store groups of one function.
#[derive(Debug, Default)]
pub struct Interleaved {
    groups: Vec<StoreGroup>,
    by_store: HashMap<Inst, usize>,
}

impl Interleaved {
    /// The groups of `func`; `factor(ptr, ty, block)` is `k` if a store of
    /// `ty` through `ptr` in `block` has addresses `k` (2 to 4) elements
    /// apart per lane.
    pub fn compute(
        func: &Function,
        factor: impl Fn(Value, Type, Block) -> Option<usize>,
    ) -> Interleaved {
        let mut out = Interleaved::default();
        for (block, data) in func.blocks.iter() {
            let insts = &data.insts;
            let mut i = 0;
            let factor = |p, t| factor(p, t, block);
            while i < insts.len() {
                match group_from(func, &insts[i..], &factor) {
                    Some(group) => {
                        let end = insts.iter().position(|&x| x == group.last).unwrap_or(i);
                        let index = out.groups.len();
                        for &m in &group.members {
                            out.by_store.insert(m, index);
                        }
                        out.groups.push(group);
                        i = end + 1;
                    }
                    None => i += 1,
                }
            }
        }
        out
    }

    /// The group `store` belongs to, if any.
    pub fn group_of(&self, store: Inst) -> Option<&StoreGroup> {
        self.by_store.get(&store).map(|&g| &self.groups[g])
    }
}

/// A store an interleaved group may hold: not volatile, predicated or not.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PlainStore {
    pub value: Value,
    pub ptr: Value,
    pub align: u32,
    /// The predicate (`None`: none).
    pub predicate: Option<Value>,
}

impl PlainStore {
    /// `data` as such a store, if it is one.
    pub fn of(data: &InstData) -> Option<PlainStore> {
        let (core, predicate) = match data {
            InstData::Predicated { mask, inst } => (&**inst, Some(*mask)),
            data => (data, None),
        };
        match *core {
            InstData::Store {
                args: [value, ptr],
                align,
                volatile: false,
            } => Some(PlainStore {
                value,
                ptr,
                align,
                predicate,
            }),
            _ => None,
        }
    }
}

/// True for an instruction that reads or writes memory (or might).
fn touches_memory(data: &InstData) -> bool {
    data.has_side_effects()
        || matches!(data, InstData::Load { .. })
        || matches!(data, InstData::Predicated { inst, .. } if matches!(**inst, InstData::Load { .. }))
}

/// The group starting with the store `insts[0]`, if it starts one.
fn group_from(
    func: &Function,
    insts: &[Inst],
    factor: &impl Fn(Value, Type) -> Option<usize>,
) -> Option<StoreGroup> {
    let first = PlainStore::of(&func.insts[insts[0]])?;
    let ty = func.value_type(first.value);
    if !matches!(ty.bytes(), 4 | 8) || ty == Type::I1 {
        return None;
    }
    let k = factor(first.ptr, ty).filter(|k| (2..=4).contains(k))?;
    let mut found = vec![(insts[0], first.ptr)];
    for &inst in &insts[1..] {
        let data = &func.insts[inst];
        if data.is_terminator() || found.len() == k {
            break;
        }
        let member = PlainStore::of(data).filter(|s| {
            func.value_type(s.value) == ty
                && s.predicate == first.predicate
                && factor(s.ptr, ty) == Some(k)
        });
        match member {
            Some(s) => found.push((inst, s.ptr)),
            None if touches_memory(data) => break,
            None => {}
        }
    }
    if found.len() != k {
        return None;
    }
    let last = found[k - 1].0;
    let size = i64::from(ty.bytes());
    // Proven: addresses j elements from the lowest, each j once.
    let addresses: Option<Vec<Address>> =
        found.iter().map(|&(_, p)| Address::of(func, p)).collect();
    if let Some(addresses) = addresses {
        let a0 = &addresses[0];
        let mut by_offset: Vec<(i64, Inst)> = addresses
            .iter()
            .zip(&found)
            .filter(|(a, _)| a.root == a0.root && a.terms == a0.terms)
            .map(|(a, &(inst, _))| (a.offset, inst))
            .collect();
        by_offset.sort();
        let low = by_offset[0].0;
        let whole = by_offset.len() == k
            && by_offset
                .iter()
                .enumerate()
                .all(|(j, &(d, _))| d == low + j as i64 * size);
        if whole {
            return Some(StoreGroup {
                members: by_offset.iter().map(|&(_, i)| i).collect(),
                last,
                proven: true,
            });
        }
    }
    Some(StoreGroup {
        members: found.iter().map(|&(i, _)| i).collect(),
        last,
        proven: false,
    })
}

/// An address as a pointer plus a sum of integer terms plus a constant.
#[derive(Debug, PartialEq, Eq)]
struct Address {
    root: Value,
    /// (value, factor), sorted by value.
    terms: Vec<(Value, i64)>,
    offset: i64,
}

impl Address {
    fn of(func: &Function, ptr: Value) -> Option<Address> {
        let mut a = Address {
            root: ptr,
            terms: Vec::new(),
            offset: 0,
        };
        let mut p = ptr;
        // Through a few nested `ptradd`s to the pointer they start from.
        for _ in 0..4 {
            let ValueDef::Result(inst) = func.values[p].def else {
                break;
            };
            let InstData::PtrAdd { args: [base, off] } = func.insts[inst] else {
                break;
            };
            a.add(func, off, 1, 0)?;
            p = base;
        }
        a.root = p;
        a.terms.retain(|&(_, f)| f != 0);
        a.terms.sort();
        Some(a)
    }

    /// Adds `factor` times the integer `v` (decomposed to a few levels).
    fn add(&mut self, func: &Function, v: Value, factor: i64, depth: u32) -> Option<()> {
        let leaf = |a: &mut Address| {
            match a.terms.iter_mut().find(|(t, _)| *t == v) {
                Some((_, f)) => *f = f.checked_add(factor)?,
                None => a.terms.push((v, factor)),
            }
            Some(())
        };
        let ValueDef::Result(inst) = func.values[v].def else {
            return leaf(self);
        };
        let constant = |x: Value| match func.values[x].def {
            ValueDef::Result(i) => match func.insts[i] {
                InstData::Iconst { imm } => Some(imm as i64),
                _ => None,
            },
            _ => None,
        };
        if depth >= 6 {
            return leaf(self);
        }
        match func.insts[inst] {
            InstData::Iconst { imm } => {
                self.offset = self.offset.checked_add((imm as i64).checked_mul(factor)?)?;
                Some(())
            }
            InstData::Binary {
                op: BinaryOp::Iadd,
                args: [a, b],
            } => {
                self.add(func, a, factor, depth + 1)?;
                self.add(func, b, factor, depth + 1)
            }
            InstData::Binary {
                op: BinaryOp::Isub,
                args: [a, b],
            } => {
                self.add(func, a, factor, depth + 1)?;
                self.add(func, b, factor.checked_neg()?, depth + 1)
            }
            InstData::Binary {
                op: BinaryOp::Imul,
                args: [a, b],
            } => match (constant(a), constant(b)) {
                (_, Some(c)) => self.add(func, a, factor.checked_mul(c)?, depth + 1),
                (Some(c), _) => self.add(func, b, factor.checked_mul(c)?, depth + 1),
                _ => leaf(self),
            },
            InstData::Binary {
                op: BinaryOp::Ishl,
                args: [a, b],
            } => match constant(b) {
                Some(c @ 0..=32) => self.add(func, a, factor.checked_mul(1 << c)?, depth + 1),
                _ => leaf(self),
            },
            _ => leaf(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Interleaved;
    use lockstep_ir::{parse_function, Function, Inst};

    /// The stores of `func`, in layout order.
    fn stores(func: &Function) -> Vec<Inst> {
        func.insts_in_layout()
            .filter(|&(_, i)| func.insts[i].mnemonic() == "store")
            .map(|(_, i)| i)
            .collect()
    }

    /// `out[2 * i] = a; out[2 * i + 1] = b;` (the scan's pair store), and
    /// a third store elsewhere after a load that ends the window.
    const PAIR: &str = "
kernel @k(ptr.global, ptr.global) {
    arg 0 \"out\" \"uint*\" none none
    arg 1 \"in\" \"uint*\" none none
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = iconst 2
    v4: i64 = iconst 4
    v5: i64 = iconst 1
    v6: i64 = imul v2, v3
    v7: i64 = imul v6, v4
    v8: ptr.global = ptradd v0, v7
    v9: i32 = trunc v2
    store v9, v8, align 4
    v10: i64 = iadd v6, v5
    v11: i64 = imul v10, v4
    v12: ptr.global = ptradd v0, v11
    v13: i32 = iadd v9, v9
    store v13, v12, align 4
    v14: i32 = load v1, align 4
    v15: i64 = iconst 8
    v16: ptr.global = ptradd v12, v15
    store v14, v16, align 4
    return
}
";

    #[test]
    fn a_pair_of_stores_one_element_apart_is_a_group() {
        let func = parse_function(PAIR).unwrap();
        let g = Interleaved::compute(&func, |_, _, _| Some(2));
        let stores = stores(&func);
        let group = g.group_of(stores[0]).expect("the pair is a group");
        assert_eq!(group.members, vec![stores[0], stores[1]]);
        assert_eq!(group.last, stores[1]);
        assert!(group.proven);
        assert_eq!(g.group_of(stores[1]), Some(group));
        // After the load: a store alone.
        assert_eq!(g.group_of(stores[2]), None);
    }

    #[test]
    fn a_load_between_the_stores_keeps_them_apart() {
        let src = PAIR.replace(
            "    v13: i32 = iadd v9, v9\n",
            "    v13: i32 = load v1, align 4\n",
        );
        let func = parse_function(&src).unwrap();
        let g = Interleaved::compute(&func, |_, _, _| Some(2));
        assert!(func.insts_in_layout().all(|(_, i)| g.group_of(i).is_none()));
    }

    /// Two stores whose addresses come from unrelated values (as values
    /// carried across a barrier are): a group, tested at run time.
    #[test]
    fn unrelated_addresses_make_an_unproven_group_in_program_order() {
        let src = "
kernel @k(ptr.global, i64, i64) {
    arg 0 \"out\" \"uint*\" none none
    arg 1 \"a\" \"ulong\" none none
    arg 2 \"b\" \"ulong\" none none
block0(v0: ptr.global, v1: i64, v2: i64):
    v3: ptr.global = ptradd v0, v2
    v4: ptr.global = ptradd v0, v1
    v5: i32 = iconst 7
    store v5, v3, align 4
    store v5, v4, align 4
    return
}
";
        let func = parse_function(src).unwrap();
        let g = Interleaved::compute(&func, |_, _, _| Some(2));
        let stores = stores(&func);
        let group = g.group_of(stores[0]).expect("a group");
        assert!(!group.proven);
        assert_eq!(group.members, stores);
        // Addresses not strided: no group.
        let none = Interleaved::compute(&func, |_, _, _| None);
        assert_eq!(none.group_of(stores[0]), None);
    }
}
