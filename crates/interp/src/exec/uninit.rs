//! Checked mode on scalar IR: the shadows of a data operation's result
//! and memory (see the `uninit` module), and the reports where an
//! uninitialized value is observed.

use lockstep_ir::{Combine, GangOp, Type};

use super::{ballot, lane_operands, read_lanes, Exec, Item};
use crate::decode::{DecodedFunc, Op, Reg};
use crate::error::{DiagnosticKind, WorkItemId};
use crate::memory::{offset_of, region_of, Space};

impl Exec<'_, '_, '_> {
    /// Checked mode, after the data operation `op` ran: its result's
    /// shadow, the shadow of the memory it wrote, and a report if it
    /// observes an uninitialized value.
    pub(super) fn shadow_data(
        &mut self,
        op: &Op,
        f: &DecodedFunc,
        (regs, sh): (&[u64], &mut [u64]),
        at: (usize, usize),
        id: &WorkItemId,
    ) {
        if crate::uninit::propagate(op, regs, sh) {
            return;
        }
        let r = |x: Reg| x as usize;
        match *op {
            Op::Load { ty, dst, ptr } => {
                self.uninit_address(sh[r(ptr)], regs[r(ptr)], false, at, id);
                let p = regs[r(ptr)];
                sh[r(dst)] = self.check.as_ref().map_or(0, |ck| {
                    ck.load_shadow(region_of(p), offset_of(p), ty.bytes() as u64)
                });
            }
            Op::Store { ty, val, ptr } => {
                let p = regs[r(ptr)];
                self.uninit_address(sh[r(ptr)], p, true, at, id);
                self.store_shadow(p, ty.bytes() as u64, sh[r(val)], at, id);
            }
            Op::MemCopy { dst, src, len } => {
                self.uninit_operand(sh[r(len)], "the size of a memory copy", at, id);
                self.uninit_address(sh[r(src)], regs[r(src)], false, at, id);
                self.uninit_address(sh[r(dst)], regs[r(dst)], true, at, id);
                let (d, s, n) = (regs[r(dst)], regs[r(src)], regs[r(len)]);
                if let Some(ck) = &mut self.check {
                    let to = (region_of(d), offset_of(d));
                    ck.copy_shadow(to, (region_of(s), offset_of(s)), n);
                }
            }
            Op::MemSet { dst, byte, len } => {
                self.uninit_operand(sh[r(len)], "the size of a memory fill", at, id);
                let d = regs[r(dst)];
                self.uninit_address(sh[r(dst)], d, true, at, id);
                let n = regs[r(len)];
                if sh[r(byte)] & 0xff != 0 && !self.keeps_shadow(d) {
                    self.uninit_written(d, at, id);
                }
                if let Some(ck) = &mut self.check {
                    let init = sh[r(byte)] & 0xff == 0;
                    ck.fill_shadow(region_of(d), offset_of(d), n, init);
                }
            }
            Op::AtomicRmw { dst, ptr, val, .. }
            | Op::AtomicCas {
                dst, ptr, new: val, ..
            } => {
                self.uninit_address(sh[r(ptr)], regs[r(ptr)], true, at, id);
                self.uninit_operand(sh[r(val)], "an atomic operation", at, id);
                if let Op::AtomicCas { expected, .. } = *op {
                    self.uninit_operand(sh[r(expected)], "an atomic operation", at, id);
                }
                self.atomic_shadow(regs[r(ptr)], op);
                sh[r(dst)] = 0;
            }
            Op::AtomicLoad { dst, ptr, .. } => {
                self.uninit_address(sh[r(ptr)], regs[r(ptr)], false, at, id);
                sh[r(dst)] = 0;
            }
            Op::AtomicStore { ptr, val, .. } => {
                self.uninit_address(sh[r(ptr)], regs[r(ptr)], true, at, id);
                self.uninit_operand(sh[r(val)], "an atomic operation", at, id);
                self.atomic_shadow(regs[r(ptr)], op);
            }
            // An event is a handle the copy made (or the one passed in).
            Op::AsyncCopied { dst, .. } => sh[r(dst)] = 0,
            Op::DeviceEnqueue { index, dst } => {
                let call = &f.device_calls[index as usize];
                if let Some(k) = call.args.iter().position(|&(a, _)| sh[r(a)] != 0) {
                    let what = format!("{} (operand {})", call.op, k + 1);
                    self.uninit_operand(1, &what, at, id);
                }
                if dst != crate::decode::NO_REG {
                    sh[r(dst)] = 0;
                }
            }
            Op::Printf { index, dst } => {
                let call = &f.printfs[index as usize];
                if let Some(k) = call.args.iter().position(|&(a, _)| sh[r(a)] != 0) {
                    let what = format!("printf (argument {})", k + 1);
                    self.uninit_operand(1, &what, at, id);
                }
                if dst != crate::decode::NO_REG {
                    sh[r(dst)] = 0;
                }
            }
            _ => {}
        }
    }

    /// Checked mode: the shadows of a subgroup collective's results, per
    /// work-item of the subgroup `group` (none unchecked): a broadcast or
    /// shuffle gives the shadow of the lane it reads, `any` and `all` an
    /// uninitialized flag if a lane that takes part has one, a ballot
    /// uninitialized bits for those lanes, a reduction or scan the union of
    /// the shadows of the lanes it combines.
    pub(super) fn collective_shadows(
        &self,
        group: &[Item],
        lanes: &[bool],
        (op, cluster): (GangOp, u32),
        (a, b): (Reg, Reg),
    ) -> Vec<u64> {
        if self.check.is_none() {
            return Vec::new();
        }
        let width = self.sub_group_width as usize;
        let (shadows, set) = lane_operands(group, lanes, width, |it| it.shadow_of(a));
        match op {
            GangOp::Any | GangOp::All => {
                let flag = (0..width).any(|l| set[l] && shadows[l] & 1 != 0);
                vec![flag as u64; width]
            }
            GangOp::Ballot => vec![ballot(&shadows, &set); width],
            GangOp::Broadcast | GangOp::Shuffle => read_lanes(group, lanes, &shadows, b),
            _ => match op.collective() {
                Some((kind, _)) => {
                    let cluster = cluster as usize;
                    crate::collective::collective(
                        kind,
                        Combine::Or,
                        Type::I64,
                        &shadows,
                        &set,
                        cluster,
                    )
                    .into_iter()
                    .map(|s| if s != 0 { u64::MAX } else { 0 })
                    .collect()
                }
                None => vec![0; width],
            },
        }
    }

    /// An atomic writes an initialized value (its operand was reported).
    fn atomic_shadow(&mut self, p: u64, op: &Op) {
        let ty = match *op {
            Op::AtomicRmw { ty, .. } | Op::AtomicCas { ty, .. } | Op::AtomicStore { ty, .. } => ty,
            _ => return,
        };
        if let Some(ck) = &mut self.check {
            ck.fill_shadow(region_of(p), offset_of(p), ty.bytes() as u64, true);
        }
    }

    /// A store of `len` bytes with shadow `shadow` at `p`: `__private`
    /// and `__local` memory keep the shadow (what a work-item of the group
    /// loads from there is as initialized as what was stored), `__global`
    /// memory, which the host reads, reports an uninitialized value.
    fn store_shadow(&mut self, p: u64, len: u64, shadow: u64, at: (usize, usize), id: &WorkItemId) {
        let shadow = shadow & crate::arith::mask(8 * len as u32);
        if shadow != 0 && !self.keeps_shadow(p) {
            self.uninit_written(p, at, id);
        }
        if let Some(ck) = &mut self.check {
            ck.store_shadow(region_of(p), offset_of(p), len, shadow);
        }
    }

    /// Whether the memory at `p` keeps the shadows of what is stored there
    /// (rather than reporting uninitialized values stored).
    fn keeps_shadow(&self, p: u64) -> bool {
        matches!(self.space_of(p), Space::Private | Space::Local)
    }

    fn space_of(&self, p: u64) -> Space {
        self.mem
            .region(region_of(p))
            .map_or(Space::Global, |r| r.space)
    }

    fn uninit_written(&mut self, p: u64, at: (usize, usize), id: &WorkItemId) {
        let space = match self.space_of(p) {
            Space::Constant => "__constant",
            _ => "__global",
        };
        let message = format!(
            "uninitialized value written to {space} memory: {}, byte offset {}",
            self.describe(region_of(p)).0,
            offset_of(p)
        );
        self.report_uninit(message, at, id);
    }

    /// Reports an address with uninitialized bits.
    fn uninit_address(
        &mut self,
        shadow: u64,
        p: u64,
        write: bool,
        at: (usize, usize),
        id: &WorkItemId,
    ) {
        if shadow != 0 {
            let rw = if write { "write to" } else { "read from" };
            let message = format!(
                "uninitialized address used to {rw} {}",
                self.describe(region_of(p)).0
            );
            self.report_uninit(message, at, id);
        }
    }

    /// Reports an operand of `what` with uninitialized bits.
    pub(super) fn uninit_operand(
        &mut self,
        shadow: u64,
        what: &str,
        at: (usize, usize),
        id: &WorkItemId,
    ) {
        if shadow != 0 {
            self.report_uninit(format!("uninitialized value passed to {what}"), at, id);
        }
    }

    /// Reports a branch or switch on an uninitialized value.
    pub(super) fn uninit_branch(&mut self, shadow: u64, at: (usize, usize), id: &WorkItemId) {
        if shadow != 0 {
            let message = "control flow depends on an uninitialized value".to_string();
            self.report_uninit(message, at, id);
        }
    }

    /// One report per source line (per instruction where there is none).
    fn report_uninit(&mut self, message: String, at: (usize, usize), id: &WorkItemId) {
        let site = self.site(at.0, at.1, id);
        let key = match site.loc {
            Some(loc) => (u32::MAX, loc.line),
            None => (self.site_base[at.0] + at.1 as u32, 0),
        };
        if self.uninit_reported.insert(key) {
            self.report(DiagnosticKind::Uninitialized, message, at, id);
        }
    }
}
