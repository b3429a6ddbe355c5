//! Gang-level execution: a kernel with `gang W` (the output of the
//! `linearize` pass) runs each work-group as gangs of W consecutive
//! work-items (by local linear id), all lanes of a gang in lockstep.
//!
//! Each lane is a work-item state of its own (registers, stack slots,
//! by-value copies), so the work-item operations are the scalar
//! interpreter's, run once per lane. The gang shares one program counter:
//! branches are on uniform values (taken from lane 0, which always holds a
//! work-item). What the scalar interpreter cannot see, this checks:
//!
//! * a value the IR calls uniform must be equal in every lane that holds a
//!   work-item (else the pass that made it uniform was wrong), reported as
//!   [`InterpError::InvalidIr`]; a uniform private address is the same
//!   offset in each lane's own private memory (stack slots and by-value
//!   copies are per work-item);
//! * lanes past the end of the work-group (a partial last gang) run too,
//!   as the SIMD engine's do: their unpredicated memory accesses are real,
//!   so a pass that forgets to predicate a side effect on `active_lanes`
//!   shows up as an out-of-bounds access or a wrong result.
//!
//! A predicated operation acts in the lanes of its mask (or once for the
//! gang, when all its operands are uniform, if any lane is set), and gives
//! 0 where it does not act. Suspend points stop the gang; when every gang
//! of the group has stopped at the same one, all resume.

use lockstep_ir::{GangOp, Type};

use super::{take_edge, Exec, Item, Lane, Stop};
use crate::collective::collective;
use crate::decode::{DecodedFunc, Op, Reg, NO_REG};
use crate::error::InterpError;
use crate::memory::{offset_of, region_of, Space};

/// One gang's lanes and where it stands.
#[derive(Default)]
pub(super) struct Gang {
    lanes: Vec<Item>,
    pc: usize,
    /// Lanes that hold a work-item: `0..active`.
    active: usize,
    done: bool,
}

impl Exec<'_, '_, '_> {
    /// Runs the current work-group as gangs of `width` lanes; with lane
    /// `refill`, as one gang whose lanes take the group's work-items with
    /// `next_item`.
    pub(super) fn run_group_gangs(
        &mut self,
        width: usize,
        refill: bool,
        gangs: &mut Vec<Gang>,
    ) -> Result<(), InterpError> {
        let s = self.group_size;
        let n = if refill {
            width
        } else {
            (s[0] * s[1] * s[2]) as usize
        };
        let count = n.div_ceil(width);
        if gangs.len() < count {
            gangs.resize_with(count, Gang::default);
        }
        for (g, gang) in gangs[..count].iter_mut().enumerate() {
            gang.lanes.resize_with(width, Item::default);
            for (l, lane) in gang.lanes.iter_mut().enumerate() {
                self.start_item(lane, (g * width + l) as u64)?;
            }
            gang.pc = 0;
            gang.active = (n - g * width).min(width);
            gang.done = false;
        }
        loop {
            for gang in gangs[..count].iter_mut() {
                gang.done = matches!(self.run_gang(gang)?, Stop::Done);
            }
            let done = gangs[..count].iter().filter(|g| g.done).count();
            if done == count {
                return Ok(());
            }
            let waiting = gangs[..count].iter().position(|g| !g.done).unwrap_or(0);
            let at = |g: &Gang| self.site(self.kernel, g.pc.saturating_sub(1), &g.lanes[0].id);
            let w = &gangs[waiting];
            let other = if done > 0 {
                gangs[..count].iter().position(|g| g.done)
            } else {
                gangs[..count].iter().position(|g| g.pc != w.pc)
            };
            if let Some(o) = other {
                let o_gang = &gangs[o];
                let where_o = if o_gang.done {
                    "returned".to_string()
                } else {
                    format!("waits at `{}`", at(o_gang).inst)
                };
                return Err(InterpError::BarrierDivergence {
                    group: self.group_id,
                    message: format!(
                        "gang {waiting} waits at `{}` but gang {o} {where_o}",
                        at(w).inst
                    ),
                });
            }
            if let Some(ck) = &mut self.check {
                ck.barrier();
            }
        }
    }

    /// Runs `gang` until it returns or reaches a suspend point.
    fn run_gang(&mut self, gang: &mut Gang) -> Result<Stop, InterpError> {
        let fidx = self.kernel;
        let Some(f) = self.prog.funcs.get(fidx).and_then(|f| f.as_ref()) else {
            return Err(self.invalid("the kernel was not decoded".into()));
        };
        let code = &f.code[..];
        let mut pc = gang.pc;
        loop {
            let at = pc;
            let op = &code[pc];
            pc += 1;
            self.steps += gang.active as u64;
            if self.steps > self.max_steps {
                return Err(InterpError::StepLimit {
                    limit: self.max_steps,
                    site: Box::new(self.site(fidx, at, &gang.lanes[0].id)),
                });
            }
            match *op {
                Op::Barrier { arriving } => {
                    if arriving != NO_REG {
                        let missing = gang.lanes[..gang.active]
                            .iter()
                            .position(|l| l.regs[arriving as usize] & 1 == 0);
                        if let Some(lane) = missing {
                            let site = self.site(fidx, at, &gang.lanes[0].id);
                            return Err(InterpError::BarrierDivergence {
                                group: self.group_id,
                                message: format!(
                                    "lane {lane} of a gang is active but does not arrive at `{}`",
                                    site.inst
                                ),
                            });
                        }
                    }
                    gang.pc = pc;
                    return Ok(Stop::Barrier);
                }
                Op::Return { .. } => return Ok(Stop::Done),
                Op::Jump(ref e) => pc = self.branch(gang, f, e),
                Op::Brif {
                    cond,
                    ref then_edge,
                    ref else_edge,
                } => {
                    let taken = gang.lanes[0].regs[cond as usize] & 1 != 0;
                    pc = self.branch(gang, f, if taken { then_edge } else { else_edge });
                }
                Op::Switch { arg, index } => {
                    let table = &f.switches[index as usize];
                    let v = gang.lanes[0].regs[arg as usize];
                    let e = table
                        .cases
                        .iter()
                        .find(|(c, _)| *c == v)
                        .map_or(&table.default, |(_, e)| e);
                    pc = self.branch(gang, f, e);
                }
                Op::Unreachable => {
                    return Err(InterpError::Unreachable {
                        site: Box::new(self.site(fidx, at, &gang.lanes[0].id)),
                    });
                }
                Op::FellOff => {
                    return Err(self.invalid(
                        "control reached the end of a block without a terminator".into(),
                    ));
                }
                Op::Call { .. } => {
                    return Err(self.invalid("gang-level IR has no calls".into()));
                }
                Op::Gang {
                    op,
                    ty,
                    dst,
                    a,
                    b,
                    cluster,
                } => self.gang_op(gang, op, ty, dst, (a, b), cluster),
                Op::IfMask { mask, once } => {
                    let Some(inner) = code.get(pc) else {
                        return Err(self.invalid("a mask without an operation".into()));
                    };
                    pc += 1;
                    let any = gang.lanes.iter().any(|l| l.regs[mask as usize] & 1 != 0);
                    for lane in 0..gang.lanes.len() {
                        let item = &gang.lanes[lane];
                        let acts = if once {
                            any
                        } else {
                            item.regs[mask as usize] & 1 != 0
                        };
                        if acts {
                            self.lane_op(gang, lane, inner, f, at + 1)?;
                        } else if let Some(dst) = inner.dst() {
                            gang.lanes[lane].regs[dst as usize] = 0;
                        }
                    }
                    self.check_uniform(gang, f, inner, at + 1)?;
                }
                _ => {
                    for lane in 0..gang.lanes.len() {
                        self.lane_op(gang, lane, op, f, at)?;
                    }
                    self.check_uniform(gang, f, op, at)?;
                }
            }
        }
    }

    /// Runs a work-item operation in one lane.
    fn lane_op(
        &mut self,
        gang: &mut Gang,
        lane: usize,
        op: &Op,
        f: &DecodedFunc,
        at: usize,
    ) -> Result<(), InterpError> {
        let item = &mut gang.lanes[lane];
        let lane_view = Lane {
            regs: &mut item.regs[..f.nregs],
            slots: &item.slots,
            id: &item.id,
            linear: item.linear,
        };
        if self.data_op(op, f, lane_view, (self.kernel, at))? {
            Ok(())
        } else {
            Err(self.invalid(format!(
                "`{}` cannot be predicated",
                self.site(self.kernel, at, &item.id).inst
            )))
        }
    }

    /// Takes a (uniform) branch in every lane: each lane copies its own
    /// block arguments.
    fn branch(&mut self, gang: &mut Gang, f: &DecodedFunc, e: &super::Edge) -> usize {
        for item in &mut gang.lanes {
            take_edge(&mut item.regs[..f.nregs], &f.copies, e, &mut item.scratch);
        }
        e.pc as usize
    }

    /// Checks that a uniform result is the same in every lane that holds a
    /// work-item.
    fn check_uniform(
        &self,
        gang: &Gang,
        f: &DecodedFunc,
        op: &Op,
        at: usize,
    ) -> Result<(), InterpError> {
        let Some(dst) = op.dst() else { return Ok(()) };
        if f.varying.get(dst as usize).copied().unwrap_or(true) {
            return Ok(());
        }
        let first = gang.lanes[0].regs[dst as usize];
        let lanes = &gang.lanes[..gang.active];
        // A uniform pointer to private memory stands for the same place in
        // each lane's own private memory.
        let private = |p: u64| {
            self.mem
                .region(region_of(p))
                .is_some_and(|r| r.space == Space::Private)
        };
        let same = |v: u64| {
            v == first || (private(v) && private(first) && offset_of(v) == offset_of(first))
        };
        if let Some(l) = lanes.iter().position(|it| !same(it.regs[dst as usize])) {
            let site = self.site(self.kernel, at, &gang.lanes[l].id);
            return Err(self.invalid(format!(
                "`{}` is uniform but gives {first:#x} in lane 0 and {:#x} in lane {l}",
                site.inst, lanes[l].regs[dst as usize]
            )));
        }
        Ok(())
    }

    fn gang_op(
        &self,
        gang: &mut Gang,
        op: GangOp,
        ty: Type,
        dst: Reg,
        (a, b): (Reg, Reg),
        cluster: u32,
    ) {
        let width = gang.lanes.len();
        let (a, b, dst) = (a as usize, b as usize, dst as usize);
        let lane_a = |l: usize| gang.lanes[l].regs[a];
        let uniform = |gang: &mut Gang, v: u64| {
            for item in &mut gang.lanes {
                item.regs[dst] = v;
            }
        };
        let per_lane = |gang: &mut Gang, vs: Vec<u64>| {
            for (item, v) in gang.lanes.iter_mut().zip(vs) {
                item.regs[dst] = v;
            }
        };
        match op {
            GangOp::Any => {
                let v = (0..width).any(|l| lane_a(l) & 1 != 0);
                uniform(gang, v as u64);
            }
            GangOp::All => {
                let v = (0..width).all(|l| lane_a(l) & 1 != 0);
                uniform(gang, v as u64);
            }
            GangOp::FirstLane => {
                let v = (0..width).find(|&l| lane_a(l) & 1 != 0).unwrap_or(width);
                uniform(gang, v as u64);
            }
            GangOp::Count => {
                let v = (0..width).filter(|&l| lane_a(l) & 1 != 0).count();
                uniform(gang, v as u64);
            }
            GangOp::Ballot => {
                let v = (0..width)
                    .filter(|&l| lane_a(l) & 1 != 0)
                    .fold(0u64, |acc, l| acc | 1 << l);
                uniform(gang, v);
            }
            GangOp::LaneId => per_lane(gang, (0..width as u64).collect()),
            GangOp::ActiveLanes => {
                let active = gang.active;
                per_lane(gang, (0..width).map(|l| (l < active) as u64).collect());
            }
            GangOp::Broadcast => {
                let k = gang.lanes[0].regs[b] as usize % width;
                let v = lane_a(k);
                uniform(gang, v);
            }
            GangOp::Shuffle => {
                let from: Vec<u64> = (0..width)
                    .map(|l| lane_a(gang.lanes[l].regs[b] as usize % width))
                    .collect();
                per_lane(gang, from);
            }
            _ => {
                let Some((kind, combine)) = op.collective() else {
                    unreachable!("every other gang operation is a reduction or scan")
                };
                let values: Vec<u64> = (0..width).map(lane_a).collect();
                let set: Vec<bool> = (0..width).map(|l| gang.lanes[l].regs[b] & 1 != 0).collect();
                let out = collective(kind, combine, ty, &values, &set, cluster as usize);
                per_lane(gang, out);
            }
        }
    }

    fn invalid(&self, message: String) -> InterpError {
        InterpError::InvalidIr {
            function: super::f_name(self.module, self.kernel),
            message,
        }
    }
}
