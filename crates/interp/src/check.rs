//! Checked mode: data races and uninitialized `__local` reads.
//!
//! Every byte of tracked memory (`__global` buffers and variables,
//! `__local` arguments and variables) has a shadow cell recording the last
//! write and the last read(s): which work-item, in which *epoch*, at which
//! instruction. Epochs number the barrier intervals of the whole launch:
//! a new one starts with each work-group and at each barrier release, so
//! two accesses of one group are ordered iff they are by the same
//! work-item or in different epochs, and accesses of different groups are
//! never ordered (groups may run concurrently on a device). A write and
//! another access that are not ordered is a data race, unless both are
//! atomic (atomics are the sanctioned way to share; an atomic and a plain
//! access to the same byte still race).
//! Every barrier is taken to order all memory, whatever its fence flags.
//! Within a barrier interval, the accesses of the work-items of one
//! subgroup are also ordered by a subgroup collective or
//! `sub_group_barrier` between them (each subgroup counts its meetings).
//!
//! `__local` memory is also tracked for initialization, byte by byte: a
//! byte is initialized once some work-item of the group stored an
//! initialized value to it; its shadow is reset with each work-group. So
//! is `__private` memory in the stack (arrays, variables whose address is
//! taken), from the frame's entry on (private memory has no races: it is
//! only tracked for initialization). A load gives the bytes' shadow to the
//! value it loads, a store the value's shadow to the bytes (see the
//! `uninit` module): a read of uninitialized memory is reported only where
//! the value read is used.

use std::collections::HashSet;

use crate::async_copies::AsyncCopies;
use crate::memory::Space;

/// One access as recorded in a shadow cell; `epoch == 0` means none.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Access {
    pub epoch: u32,
    /// Local linear id of the work-item.
    pub item: u32,
    /// Launch-wide instruction id (see `Exec::site_id`).
    pub site: u32,
    /// How many times the work-item's subgroup had met (see
    /// [`Checker::sub_group_sync`]).
    pub sync: u32,
    /// An atomic access (it races only with plain ones).
    pub atomic: bool,
}

#[derive(Copy, Clone, Debug, Default)]
struct Cell {
    write: Access,
    read: Access,
    /// 0: `read` is the only unordered reader; 1: several readers of
    /// `read`'s group in `read`'s epoch; 2: readers in several groups.
    many: u8,
}

struct Tracked {
    space: Space,
    len: usize,
    cells: Vec<Cell>,
    init: Vec<bool>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FindingKind {
    Race { write: bool, other_write: bool },
}

/// A raw finding; the interpreter turns it into a `Diagnostic`.
#[derive(Clone, Debug)]
pub struct Finding {
    pub kind: FindingKind,
    pub region: u32,
    pub offset: u64,
    pub site: u32,
    pub other: Access,
    /// The other access was by a work-item of another group.
    pub other_group: Option<[u64; 3]>,
}

pub struct Checker {
    tracked: Vec<Option<Tracked>>,
    /// The subgroup size, and how many times each subgroup (by its index in
    /// the group) has met at a collective or `sub_group_barrier`.
    sub_group_width: u32,
    syncs: Vec<u32>,
    epoch: u32,
    group_first_epoch: u32,
    /// First epoch of each group with its id, for messages.
    groups: Vec<(u32, [u64; 3])>,
    seen: HashSet<(u8, u32, u32)>,
    pub findings: Vec<Finding>,
    /// The group's async copies and waits.
    pub async_copies: AsyncCopies,
}

/// One memory access to record: `len` bytes at `offset` of `region`, by
/// the work-item with local linear id `item` at instruction `site`.
pub struct AccessRecord {
    pub region: u32,
    pub offset: u64,
    pub len: u64,
    /// A write (else a read).
    pub write: bool,
    pub atomic: bool,
    pub site: u32,
    pub item: u32,
}

/// At most this many findings are kept.
const MAX_FINDINGS: usize = 1000;

impl Checker {
    /// A checker for subgroups of `sub_group_width` work-items.
    pub fn new(sub_group_width: u32) -> Checker {
        Checker {
            tracked: Vec::new(),
            sub_group_width: sub_group_width.max(1),
            syncs: Vec::new(),
            epoch: 0,
            group_first_epoch: 0,
            groups: Vec::new(),
            async_copies: AsyncCopies::default(),
            seen: HashSet::new(),
            findings: Vec::new(),
        }
    }

    /// Tracks a region of `len` bytes (shadow allocated on first access).
    pub fn track(&mut self, region: u32, space: Space, len: u64) {
        let i = region as usize;
        if self.tracked.len() <= i {
            self.tracked.resize_with(i + 1, || None);
        }
        self.tracked[i] = Some(Tracked {
            space,
            len: len as usize,
            cells: Vec::new(),
            init: Vec::new(),
        });
    }

    /// A new work-group starts: a new epoch, and fresh `__local` shadows.
    pub fn begin_group(&mut self, group: [u64; 3]) {
        self.epoch += 1;
        self.group_first_epoch = self.epoch;
        self.groups.push((self.epoch, group));
        self.async_copies.begin_group();
        for t in self.tracked.iter_mut().flatten() {
            if t.space == Space::Local {
                t.cells.clear();
                t.init.clear();
            }
        }
    }

    /// An enqueued kernel starts: everything before it happened before it
    /// (it runs after the kernel that enqueued it and its wait list), so
    /// no earlier access races with its own.
    pub fn begin_command(&mut self) {
        for t in self.tracked.iter_mut().flatten() {
            t.cells.clear();
        }
    }

    /// All work-items of the group passed a barrier.
    pub fn barrier(&mut self) {
        self.epoch += 1;
    }

    /// The work-items of subgroup `sub` (its index in the group) met at a
    /// collective or a subgroup barrier: their accesses before it are
    /// ordered before their accesses after it. (Every member counts as
    /// having met, also those a divergent branch kept away: a race between
    /// them around a non-uniform collective goes unreported.)
    pub fn sub_group_sync(&mut self, sub: u32) {
        let i = sub as usize;
        if self.syncs.len() <= i {
            self.syncs.resize(i + 1, 0);
        }
        self.syncs[i] += 1;
    }

    fn sync_of(&self, item: u32) -> u32 {
        self.syncs
            .get((item / self.sub_group_width) as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Whether `prev`, an access of this epoch by another work-item of
    /// `item`'s subgroup, came before a meeting of the subgroup.
    fn synced(&self, prev: Access, item: u32) -> bool {
        prev.item / self.sub_group_width == item / self.sub_group_width
            && prev.sync < self.sync_of(item)
    }

    /// The group of an epoch.
    pub fn group_of(&self, epoch: u32) -> [u64; 3] {
        let i = self.groups.partition_point(|&(e, _)| e <= epoch);
        self.groups.get(i.wrapping_sub(1)).map_or([0; 3], |g| g.1)
    }

    /// Whether the earlier access `prev` and an access by `item` now are
    /// unordered.
    fn unordered(&self, prev: Access, item: u32) -> bool {
        if prev.epoch == 0 {
            return false;
        }
        if prev.epoch < self.group_first_epoch {
            return true;
        }
        prev.epoch == self.epoch && prev.item != item && !self.synced(prev, item)
    }

    fn report(&mut self, f: Finding) {
        let key = match f.kind {
            FindingKind::Race { write, other_write } => (
                1 + write as u8 * 2 + other_write as u8,
                f.site,
                f.other.site,
            ),
        };
        if self.findings.len() < MAX_FINDINGS && self.seen.insert(key) {
            self.findings.push(f);
        }
    }

    /// The initialization shadow of `len` (at most 8) bytes at `offset`
    /// of `region`: the bits of the bytes nobody wrote (0 for memory
    /// that is not tracked for initialization, `__global` and `__constant`).
    pub fn load_shadow(&self, region: u32, offset: u64, len: u64) -> u64 {
        let Some(t) = self.init_tracked(region, offset, len) else {
            return 0;
        };
        if t.init.is_empty() {
            return crate::arith::mask(8 * len as u32);
        }
        let start = offset as usize;
        t.init[start..start + len as usize]
            .iter()
            .enumerate()
            .filter(|(_, &b)| !b)
            .fold(0, |acc, (i, _)| acc | 0xff << (8 * i))
    }

    /// Stores the shadow `shadow` of a value of `len` (at most 8) bytes:
    /// a byte is initialized if none of its bits is uninitialized.
    pub fn store_shadow(&mut self, region: u32, offset: u64, len: u64, shadow: u64) {
        let Some(t) = self.init_tracked_mut(region, offset, len) else {
            return;
        };
        let start = offset as usize;
        for (i, b) in t.init[start..start + len as usize].iter_mut().enumerate() {
            *b = shadow >> (8 * i) & 0xff == 0;
        }
    }

    /// Marks `len` bytes at `offset` of `region` (un)initialized.
    pub fn fill_shadow(&mut self, region: u32, offset: u64, len: u64, init: bool) {
        if let Some(t) = self.init_tracked_mut(region, offset, len) {
            t.init[offset as usize..(offset + len) as usize].fill(init);
        }
    }

    /// Copies the initialization of `len` bytes (`memcpy`): untracked
    /// source memory counts as initialized.
    pub fn copy_shadow(
        &mut self,
        (dst, dst_off): (u32, u64),
        (src, src_off): (u32, u64),
        len: u64,
    ) {
        if self.init_tracked(dst, dst_off, len).is_none() {
            return;
        }
        let from: Vec<bool> = match self.init_tracked(src, src_off, len) {
            Some(t) if !t.init.is_empty() => {
                t.init[src_off as usize..(src_off + len) as usize].to_vec()
            }
            Some(_) => vec![false; len as usize],
            None => vec![true; len as usize],
        };
        if let Some(t) = self.init_tracked_mut(dst, dst_off, len) {
            t.init[dst_off as usize..(dst_off + len) as usize].copy_from_slice(&from);
        }
    }

    /// The region if it is tracked for initialization and holds the bytes.
    fn init_tracked(&self, region: u32, offset: u64, len: u64) -> Option<&Tracked> {
        let t = self.tracked.get(region as usize)?.as_ref()?;
        let fits = offset
            .checked_add(len)
            .is_some_and(|end| end <= t.len as u64);
        (fits && matches!(t.space, Space::Local | Space::Private)).then_some(t)
    }

    fn init_tracked_mut(&mut self, region: u32, offset: u64, len: u64) -> Option<&mut Tracked> {
        self.init_tracked(region, offset, len)?;
        let t = self.tracked[region as usize].as_mut()?;
        if t.init.is_empty() {
            t.init = vec![false; t.len];
        }
        Some(t)
    }

    /// Records an access, reporting what it conflicts with.
    pub fn access(&mut self, a: AccessRecord) {
        let AccessRecord {
            region,
            offset,
            len,
            write,
            atomic,
            site,
            item,
        } = a;
        let Some(Some(t)) = self.tracked.get_mut(region as usize) else {
            return;
        };
        let start = offset as usize;
        let end = start + len as usize;
        if end > t.len {
            return;
        }
        if t.space != Space::Local && t.space != Space::Global {
            return;
        }
        if t.cells.is_empty() {
            t.cells = vec![Cell::default(); t.len];
        }
        let mut cells = std::mem::take(&mut t.cells);
        let now = Access {
            epoch: self.epoch,
            item,
            site,
            sync: self.sync_of(item),
            atomic,
        };
        let mut found: Option<(Access, bool, u64)> = None;
        for (i, cell) in cells[start..end].iter_mut().enumerate() {
            let at = (start + i) as u64;
            let both_atomic = |prev: Access| atomic && prev.atomic;
            if self.unordered(cell.write, item) && !both_atomic(cell.write) && found.is_none() {
                found = Some((cell.write, true, at));
            }
            if write {
                let readers_race = match cell.many {
                    0 => self.unordered(cell.read, item),
                    1 => {
                        cell.read.epoch < self.group_first_epoch
                            || (cell.read.epoch == self.epoch && !self.synced(cell.read, item))
                    }
                    _ => true,
                };
                if readers_race && !both_atomic(cell.read) && found.is_none() {
                    found = Some((cell.read, false, at));
                }
                cell.write = now;
                cell.read = Access::default();
                cell.many = 0;
            } else {
                let r = cell.read;
                cell.many = if r.epoch == 0 {
                    0
                } else if cell.many == 2 || r.epoch < self.group_first_epoch {
                    // A reader of an earlier group stays unordered for good.
                    2
                } else if r.epoch < self.epoch {
                    // Earlier readers of this group are ordered by a barrier.
                    0
                } else if cell.many == 0 && r.item == item {
                    0
                } else {
                    1
                };
                cell.read = now;
            }
        }
        if let Some(Some(t)) = self.tracked.get_mut(region as usize) {
            t.cells = cells;
        }
        if let Some((other, other_write, at)) = found {
            let other_group =
                (other.epoch < self.group_first_epoch).then(|| self.group_of(other.epoch));
            self.report(Finding {
                kind: FindingKind::Race { write, other_write },
                region,
                offset: at,
                site,
                other,
                other_group,
            });
        }
    }
}
