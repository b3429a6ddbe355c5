//! Checked mode: async work-group copies and `wait_group_events`.
//!
//! OpenCL C requires every work-item of a work-group to make the same
//! async copies (`async_work_group_copy`, `async_work_group_strided_copy`)
//! in the same order with the same arguments, and to wait for a copy's
//! event (`wait_group_events`) before it touches the copy's destination or
//! writes its source: until then the copy may still be under way. The
//! builtin library copies at once, so a kernel that breaks these rules
//! usually works here and fails on another device; this module finds the
//! breaks, from the IR's `async_copied` mark (after a work-item's share of
//! the copy) and `async_wait` (before the barrier that completes copies).
//!
//! Per work-group it keeps the copies in the order work-items make them:
//! the first work-item to make its k-th copy records it, the others'
//! k-th copies must match. A copy given no event gets a new one (the k-th
//! copy's event is `FRESH | k`), so a wait can tell a real event from a
//! made-up or uninitialized one. Each work-item's copies stay pending
//! until it waits for their events; a pending copy's memory is off limits
//! to it.

use crate::memory::{offset_of, region_of};

/// The events of copies made without one: `FRESH | k` for the group's
/// k-th copy (an event passed in keeps its value).
const FRESH: u64 = 0xE7E7_0000_0000_0000;

/// An async copy as one work-item made it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Copy {
    pub dst: u64,
    pub src: u64,
    pub count: u64,
    pub src_stride: u64,
    pub dst_stride: u64,
    /// The element size in bytes.
    pub elem: u32,
}

impl Copy {
    /// The bytes one side of the copy spans, as (start, length): `count`
    /// elements `stride` elements apart from `start`.
    fn span(&self, start: u64, stride: u64) -> (u64, u64) {
        let elem = self.elem as u64;
        let len = match self.count {
            0 => 0,
            n => (n - 1)
                .saturating_mul(stride)
                .saturating_mul(elem)
                .saturating_add(elem),
        };
        (start, len)
    }

    fn dst_span(&self) -> (u64, u64) {
        self.span(self.dst, self.dst_stride)
    }

    fn src_span(&self) -> (u64, u64) {
        self.span(self.src, self.src_stride)
    }
}

/// A copy of the group: what its first work-item made, where, and its event.
struct GroupCopy {
    copy: Copy,
    event: u64,
    /// The instruction (launch-wide id) of the first work-item's mark.
    site: u32,
    /// The local linear id of the first work-item that made it.
    first: u32,
}

/// One work-item's part.
#[derive(Default, Clone)]
struct ItemCopies {
    /// How many copies it made, and how many events it waited for.
    made: usize,
    waits: usize,
    /// The copies (indices) it made and did not wait for yet.
    pending: Vec<usize>,
}

/// Something a work-item did wrong with async copies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Misuse {
    /// Its k-th copy differs from the first work-item's k-th copy.
    DivergentCopy {
        first: u32,
        theirs: Copy,
        ours: Copy,
    },
    /// A copy given an event that no copy of the group returned.
    CopyWithUnknownEvent { event: u64 },
    /// `wait_group_events` given an event no copy of the group returned.
    UnknownEvent { event: u64 },
    /// The j-th event it waits for is not the first work-item's j-th.
    DivergentWait { first: u32 },
    /// It touched a copy's memory before waiting for the copy.
    BeforeWait {
        /// Whether the destination (else the source, written).
        destination: bool,
        write: bool,
        /// The copy's instruction (launch-wide id).
        copy_site: u32,
    },
    /// It returned with copies it never waited for.
    NeverWaited { copy_site: u32 },
    /// Work-items `missing` did not make the copy made at `copy_site` by others.
    NotMadeByAll { copy_site: u32, missing: Vec<u32> },
}

/// The async copies of the work-group being run.
#[derive(Default)]
pub struct AsyncCopies {
    copies: Vec<GroupCopy>,
    /// The group's j-th event waited for, by its first work-item.
    waits: Vec<(u32, u64)>,
    items: Vec<ItemCopies>,
}

impl AsyncCopies {
    /// Forgets the previous group's copies.
    pub fn begin_group(&mut self) {
        self.copies.clear();
        self.waits.clear();
        self.items.clear();
    }

    fn item(&mut self, item: u32) -> &mut ItemCopies {
        let i = item as usize;
        if self.items.len() <= i {
            self.items.resize(i + 1, ItemCopies::default());
        }
        &mut self.items[i]
    }

    /// Work-item `item` made `copy` (its share is done) at instruction
    /// `site`, passing `event`: the copy's event, and what was wrong.
    pub fn copied(&mut self, item: u32, copy: Copy, event: u64, site: u32) -> (u64, Vec<Misuse>) {
        let mut misuse = Vec::new();
        let k = self.item(item).made;
        self.item(item).made += 1;
        if event != 0 && !self.copies.iter().any(|c| c.event == event) {
            misuse.push(Misuse::CopyWithUnknownEvent { event });
        }
        let event = match self.copies.get(k) {
            Some(first) => {
                if first.copy != copy {
                    misuse.push(Misuse::DivergentCopy {
                        first: first.first,
                        theirs: first.copy,
                        ours: copy,
                    });
                }
                first.event
            }
            None => {
                let event = if event != 0 { event } else { FRESH | k as u64 };
                self.copies.push(GroupCopy {
                    copy,
                    event,
                    site,
                    first: item,
                });
                event
            }
        };
        self.item(item).pending.push(k);
        (event, misuse)
    }

    /// Work-item `item` waits for `event`.
    pub fn wait(&mut self, item: u32, event: u64) -> Vec<Misuse> {
        let mut misuse = Vec::new();
        if !self.copies.iter().any(|c| c.event == event) {
            misuse.push(Misuse::UnknownEvent { event });
        }
        let j = self.item(item).waits;
        self.item(item).waits += 1;
        match self.waits.get(j) {
            Some(&(first, e)) if e != event => misuse.push(Misuse::DivergentWait { first }),
            Some(_) => {}
            None => self.waits.push((item, event)),
        }
        let copies = &self.copies;
        if let Some(it) = self.items.get_mut(item as usize) {
            it.pending.retain(|&k| copies[k].event != event);
        }
        misuse
    }

    /// Work-item `item` accesses `len` bytes at `p`: a misuse if that
    /// touches the destination of a copy it has not waited for, or (a
    /// write) its source.
    pub fn access(&self, item: u32, p: u64, len: u64, write: bool) -> Option<Misuse> {
        let pending = &self.items.get(item as usize)?.pending;
        let overlaps = |(start, span): (u64, u64)| {
            region_of(start) == region_of(p)
                && offset_of(p) < offset_of(start).saturating_add(span)
                && offset_of(start) < offset_of(p).saturating_add(len)
        };
        pending.iter().find_map(|&k| {
            let c = &self.copies[k];
            let destination = overlaps(c.copy.dst_span());
            (destination || (write && overlaps(c.copy.src_span()))).then_some(Misuse::BeforeWait {
                destination,
                write,
                copy_site: c.site,
            })
        })
    }

    /// The group is done: copies not every work-item made (`n` work-items
    /// in the group), and copies some work-items never waited for.
    pub fn end_group(&mut self, n: u32) -> Vec<Misuse> {
        let mut misuse = Vec::new();
        for (k, c) in self.copies.iter().enumerate() {
            let missing: Vec<u32> = (0..n)
                .filter(|&i| self.items.get(i as usize).is_none_or(|it| it.made <= k))
                .collect();
            if !missing.is_empty() {
                misuse.push(Misuse::NotMadeByAll {
                    copy_site: c.site,
                    missing,
                });
            }
        }
        for it in &self.items {
            if let Some(&k) = it.pending.first() {
                misuse.push(Misuse::NeverWaited {
                    copy_site: self.copies[k].site,
                });
            }
        }
        misuse
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::addr;

    fn copy(dst: u64, src: u64, count: u64) -> Copy {
        Copy {
            dst,
            src,
            count,
            src_stride: 1,
            dst_stride: 1,
            elem: 4,
        }
    }

    #[test]
    fn the_same_copy_by_every_work_item_then_a_wait_is_fine() {
        let mut a = AsyncCopies::default();
        let c = copy(addr(1, 0), addr(2, 0), 16);
        let (e0, m0) = a.copied(0, c, 0, 7);
        let (e1, m1) = a.copied(1, c, 0, 7);
        assert_eq!((e0, m0, m1), (e1, vec![], vec![]));
        assert_ne!(e0, 0);
        assert_eq!(
            a.access(0, addr(1, 8), 4, false),
            Some(Misuse::BeforeWait {
                destination: true,
                write: false,
                copy_site: 7
            })
        );
        assert!(a.wait(0, e0).is_empty());
        assert!(a.wait(1, e1).is_empty());
        assert_eq!(a.access(0, addr(1, 8), 4, false), None);
        assert!(a.end_group(2).is_empty());
    }

    #[test]
    fn divergent_copies_unknown_events_and_missing_waits_are_misuse() {
        let mut a = AsyncCopies::default();
        let (e, _) = a.copied(0, copy(addr(1, 0), addr(2, 0), 16), 0, 7);
        let (_, m) = a.copied(1, copy(addr(1, 0), addr(2, 4), 16), 0, 7);
        assert!(matches!(m[..], [Misuse::DivergentCopy { first: 0, .. }]));
        assert_eq!(a.wait(0, 0), vec![Misuse::UnknownEvent { event: 0 }]);
        // Writing the source before waiting; reading it is fine.
        assert_eq!(a.access(1, addr(2, 4), 4, false), None);
        assert!(matches!(
            a.access(1, addr(2, 4), 4, true),
            Some(Misuse::BeforeWait {
                destination: false,
                ..
            })
        ));
        assert!(a.wait(1, e).contains(&Misuse::DivergentWait { first: 0 }));
        let end = a.end_group(3);
        assert!(end.contains(&Misuse::NeverWaited { copy_site: 7 }));
        assert!(end.contains(&Misuse::NotMadeByAll {
            copy_site: 7,
            missing: vec![2]
        }));
    }

    #[test]
    fn a_strided_copy_spans_its_stride() {
        let mut c = copy(addr(1, 0), addr(2, 0), 4);
        c.src_stride = 3;
        assert_eq!(c.src_span(), (addr(2, 0), 40));
        assert_eq!(c.dst_span(), (addr(1, 0), 16));
    }
}
