//! Checked mode on scalar IR: async copies and `wait_group_events` (the
//! rules and their bookkeeping are the `async_copies` module's), reported
//! as Oclgrind words them where it has words for them.

use super::Exec;
use crate::async_copies::{Copy, Misuse};
use crate::decode::AsyncCopyArgs;
use crate::error::{DiagnosticKind, WorkItemId};
use crate::memory::offset_of;

impl Exec<'_, '_, '_> {
    /// The work-item `(id, linear)` made the async copy `args` (its share
    /// is copied) at `at`: its event, after checking the copy against the
    /// group's.
    pub(super) fn async_copied(
        &mut self,
        args: &AsyncCopyArgs,
        regs: &[u64],
        at: (usize, usize),
        (id, linear): (&WorkItemId, u32),
    ) -> u64 {
        let v = |k: usize| regs[args.regs[k] as usize];
        let copy = Copy {
            dst: v(0),
            src: v(1),
            count: v(2),
            src_stride: v(3),
            dst_stride: v(4),
            elem: args.elem,
        };
        let site = self.site_base[at.0] + at.1 as u32;
        let Some(ck) = &mut self.check else {
            return v(5);
        };
        let (event, misuse) = ck.async_copies.copied(linear, copy, v(5), site);
        for m in misuse {
            self.report_async(m, at, id);
        }
        event
    }

    /// The work-item `(id, linear)` waits for `event`.
    pub(super) fn async_wait(
        &mut self,
        event: u64,
        at: (usize, usize),
        (id, linear): (&WorkItemId, u32),
    ) {
        let Some(ck) = &mut self.check else {
            return;
        };
        for m in ck.async_copies.wait(linear, event) {
            self.report_async(m, at, id);
        }
    }

    /// Checked mode: the access of `len` bytes at `p` by the work-item
    /// `(id, linear)`, against the copies it has not waited for.
    pub(super) fn async_access(
        &mut self,
        (p, len, write): (u64, u64, bool),
        at: (usize, usize),
        (id, linear): (&WorkItemId, u32),
    ) {
        let Some(ck) = &self.check else {
            return;
        };
        if let Some(m) = ck.async_copies.access(linear, p, len, write) {
            self.report_async(m, at, id);
        }
    }

    /// Checked mode, a work-group is done: copies not every work-item made
    /// or waited for, reported at the copy.
    pub(super) fn end_async_group(&mut self) {
        let s = self.group_size;
        let n = (s[0] * s[1] * s[2]) as u32;
        let Some(ck) = &mut self.check else {
            return;
        };
        for m in ck.async_copies.end_group(n) {
            let (Misuse::NeverWaited { copy_site } | Misuse::NotMadeByAll { copy_site, .. }) = m
            else {
                continue;
            };
            let at = self.site_of(copy_site);
            let id = self.work_item_id(0);
            self.report_async(m, at, &id);
        }
    }

    fn report_async(&mut self, m: Misuse, at: (usize, usize), id: &WorkItemId) {
        let line_of = |e: &Self, site: u32| {
            let (f, pc) = e.site_of(site);
            e.site(f, pc, id)
                .loc
                .map_or(String::new(), |l| format!(" at line {}", l.line))
        };
        let message = match m {
            Misuse::DivergentCopy {
                first,
                theirs,
                ours,
            } => format!(
                "Work-group divergence detected (async copy): every work-item of a work-group must make the same async copies with the same arguments; this one copies {}, but local linear id {first} copied {}",
                self.describe_copy(&ours),
                self.describe_copy(&theirs)
            ),
            Misuse::CopyWithUnknownEvent { event } => format!(
                "Invalid async copy event: the event passed (0x{event:x}) was not returned by an async copy of this work-group"
            ),
            Misuse::UnknownEvent { event } => format!(
                "Invalid wait event: wait_group_events was given an event (0x{event:x}) that no async copy of this work-group returned"
            ),
            Misuse::DivergentWait { first } => format!(
                "Work-group divergence detected (wait_group_events): this work-item waits for another event than local linear id {first} did"
            ),
            Misuse::BeforeWait {
                destination,
                write,
                copy_site,
            } => format!(
                "{} the {} of an async copy{} before waiting for its event (wait_group_events): the copy may still be under way",
                if write { "Write to" } else { "Read of" },
                if destination { "destination" } else { "source" },
                line_of(self, copy_site)
            ),
            Misuse::NeverWaited { .. } => {
                "Async copy never waited for: a work-item returned without waiting for its event (wait_group_events)".to_string()
            }
            Misuse::NotMadeByAll { missing, .. } => format!(
                "Work-group divergence detected (async copy): local linear id(s) {} did not make this async copy",
                super::id_ranges(&missing, "-")
            ),
        };
        self.report(DiagnosticKind::AsyncCopy, message, at, id);
    }

    fn describe_copy(&self, c: &Copy) -> String {
        let place = |p: u64| {
            let (name, _) = self.describe(crate::memory::region_of(p));
            format!("{name} byte {}", offset_of(p))
        };
        format!(
            "{} elements of {} bytes from {} (stride {}) to {} (stride {})",
            c.count,
            c.elem,
            place(c.src),
            c.src_stride,
            place(c.dst),
            c.dst_stride
        )
    }
}
