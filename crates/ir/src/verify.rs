//! The verifier: checks that a function is well formed. A verifier error is
//! always a compiler bug (the front end and every pass must produce valid IR),
//! so errors name the offending instruction in printed form.
//!
//! Checked: block structure (one terminator, at the end), branch targets and
//! block-parameter arity and types, SSA (each value defined once, by the
//! instruction or block that records it; every use dominated by its
//! definition, in reachable code), operand and result types of every
//! instruction, address-space rules (no stores to `constant`), references to
//! stack slots, variables and functions, alignments, kernel metadata, unique
//! function and variable names (the text format refers to them by name),
//! and what the function's phase allows.

use std::collections::HashSet;
use std::fmt;

use cranelift_entity::{EntityRef, SecondaryMap};
use thiserror::Error;

use crate::device_op::DeviceOperand;
use crate::entities::{Block, FuncId, Inst, Value};
use crate::function::{Function, Phase, ValueDef};
use crate::instructions::{
    AtomicRmwOp, BinaryOp, BlockCall, ConvertOp, DeviceOp, FenceFlags, GangOp, InstData, TernaryOp,
    UnaryOp,
};
use crate::module::Module;
use crate::print::{format_int, inst_to_string};
use crate::types::{AddrSpace, Type};

/// One problem found by the verifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifierError {
    /// The function it was found in (empty for errors about variables).
    pub function: String,
    /// The offending instruction or block, as printed.
    pub location: String,
    pub message: String,
}

impl fmt::Display for VerifierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.function.is_empty() {
            write!(f, "@{}: ", self.function)?;
        }
        if !self.location.is_empty() {
            write!(f, "`{}`: ", self.location)?;
        }
        f.write_str(&self.message)
    }
}

/// Every problem the verifier found, one per line when displayed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct VerifierErrors(pub Vec<VerifierError>);

impl fmt::Display for VerifierErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

pub type VerifierResult = Result<(), VerifierErrors>;

/// Verifies every function of `module`.
pub fn verify_module(module: &Module) -> VerifierResult {
    let mut errors = Vec::new();
    for (_, g) in module.globals.iter() {
        let fail = |message: String| VerifierError {
            function: String::new(),
            location: format!("@{}", g.name),
            message,
        };
        if let Some(init) = &g.init {
            if init.len() as u64 != g.size {
                errors.push(fail(format!(
                    "initializer has {} bytes, variable has {}",
                    init.len(),
                    g.size
                )));
            }
            if g.space == AddrSpace::Local {
                errors.push(fail("a local variable cannot have an initializer".into()));
            }
        }
        if !g.align.is_power_of_two() {
            errors.push(fail(format!("alignment {} is not a power of two", g.align)));
        }
        for r in &g.relocs {
            let in_range = matches!(r.offset.checked_add(8), Some(end) if end <= g.size);
            if !in_range {
                errors.push(fail(format!(
                    "relocation at offset {} is out of range",
                    r.offset
                )));
            }
            if module.globals.get(r.target).is_none() {
                errors.push(fail(format!(
                    "relocation at offset {} names unknown variable {}",
                    r.offset, r.target
                )));
            }
        }
    }
    // The text format refers to variables and functions by name.
    let mut names = HashSet::new();
    for (_, g) in module.globals.iter() {
        if !names.insert(&g.name) {
            errors.push(VerifierError {
                function: String::new(),
                location: format!("@{}", g.name),
                message: "another variable has the same name".into(),
            });
        }
    }
    let mut names = HashSet::new();
    for (_, func) in module.functions.iter() {
        if !names.insert(&func.name) {
            errors.push(VerifierError {
                function: func.name.clone(),
                location: String::new(),
                message: "another function has the same name".into(),
            });
        }
    }
    for (_, func) in module.functions.iter() {
        if let Err(e) = verify_function(Some(module), func) {
            errors.extend(e.0);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(VerifierErrors(errors))
    }
}

/// Verifies one function; `module` resolves calls and variables (without it,
/// those references are not checked).
pub fn verify_function(module: Option<&Module>, func: &Function) -> VerifierResult {
    let mut v = Verifier {
        module,
        func,
        errors: Vec::new(),
    };
    v.run();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(VerifierErrors(v.errors))
    }
}

struct Verifier<'a> {
    module: Option<&'a Module>,
    func: &'a Function,
    errors: Vec<VerifierError>,
}

impl<'a> Verifier<'a> {
    fn fail(&mut self, location: String, message: impl Into<String>) {
        self.errors.push(VerifierError {
            function: self.func.name.clone(),
            location,
            message: message.into(),
        });
    }

    fn fail_inst(&mut self, inst: Inst, message: impl Into<String>) {
        let location = inst_to_string(self.module, self.func, inst);
        self.fail(location, message);
    }

    fn ty(&self, v: Value) -> Type {
        self.func.values[v].ty
    }

    fn run(&mut self) {
        let func = self.func;
        let Some(entry) = func.entry_block() else {
            self.fail(String::new(), "function has no blocks");
            return;
        };
        self.check_signature(entry);
        let interleaved = func.stack_slots.values().any(|d| d.interleave.is_some());
        let accesses = interleaved.then(|| crate::private::private_accesses(func));
        for (slot, data) in func.stack_slots.iter() {
            if !data.align.is_power_of_two() {
                self.fail(
                    format!("{slot}"),
                    format!("alignment {} is not a power of two", data.align),
                );
            }
            let (Some(e), Some(accesses)) = (data.interleave, &accesses) else {
                continue;
            };
            if func.gang.is_none() {
                self.fail(
                    format!("{slot}"),
                    "only gang-level IR interleaves private arrays",
                );
            } else if accesses.elem[slot] != Some(e) {
                self.fail(
                    format!("{slot}"),
                    format!(
                        "interleaved by {e} bytes, but not every access to it is a load or \
                         store of one aligned {e}-byte element through a pointer used in \
                         its own block"
                    ),
                );
            }
        }
        let mut in_layout = HashSet::new();
        for &block in &func.layout {
            if block.index() >= func.blocks.len() {
                self.fail(
                    format!("{block}"),
                    "block is in the layout but does not exist",
                );
                return;
            }
            if !in_layout.insert(block) {
                self.fail(format!("{block}"), "block appears twice in the layout");
            }
        }
        let mut seen_insts = HashSet::new();
        for &block in &func.layout {
            for (i, &p) in func.blocks[block].params.iter().enumerate() {
                if func.values[p].def != ValueDef::Param(block, i as u32) {
                    self.fail(
                        format!("{block}"),
                        format!("parameter {p} is recorded as defined elsewhere"),
                    );
                }
            }
            let insts = &func.blocks[block].insts;
            if insts.is_empty() {
                self.fail(format!("{block}"), "block is empty (it needs a terminator)");
            }
            for (i, &inst) in insts.iter().enumerate() {
                if !seen_insts.insert(inst) {
                    self.fail_inst(inst, "instruction appears twice in the layout");
                }
                if let Some(r) = func.results[inst] {
                    if func.values[r].def != ValueDef::Result(inst) {
                        self.fail_inst(
                            inst,
                            format!("result {r} is recorded as defined elsewhere"),
                        );
                    }
                }
                if func.inst_block[inst] != Some(block) {
                    self.fail_inst(inst, format!("instruction's recorded block is not {block}"));
                }
                let last = i + 1 == insts.len();
                let is_term = func.insts[inst].is_terminator();
                if last && !is_term {
                    self.fail_inst(inst, format!("{block} does not end with a terminator"));
                } else if !last && is_term {
                    self.fail_inst(inst, "terminator in the middle of a block");
                }
                self.check_inst(inst, &in_layout, entry);
            }
        }
        if self.errors.is_empty() {
            self.check_dominance(entry);
        }
        self.check_phase();
        if self.errors.is_empty() {
            self.check_lanes();
        }
    }

    /// Gang-level IR: `gang W` only in the linearized phase; values with
    /// one element per lane, gang operations and predicated instructions
    /// only in such functions; and lanes flow as they can: an operation on
    /// a per-lane operand gives a per-lane result, only gang operations
    /// bring lanes together, branches are on uniform conditions.
    fn check_lanes(&mut self) {
        let func = self.func;
        let gang = func.gang;
        if let Some(w) = gang {
            if !matches!(w, 1 | 4 | 8 | 16 | 32) {
                self.fail(String::new(), format!("gang width {w} (4, 8, 16 or 32)"));
            }
            if func.phase != Phase::Linearized {
                self.fail(
                    String::new(),
                    format!(
                        "gang-level IR (gang {w}) is in the linearized phase, not {}",
                        func.phase.name()
                    ),
                );
            }
        }
        let varying = |v: Value| func.is_varying(v);
        let outside = "only in gang-level IR (a function with `gang W`)";
        for &block in &func.layout {
            for &p in &func.blocks[block].params {
                if varying(p) && gang.is_none() {
                    self.fail(
                        format!("{block}"),
                        format!("{p}: per-lane values are {outside}"),
                    );
                }
            }
            for &inst in &func.blocks[block].insts {
                let data = &func.insts[inst];
                let result = func.results[inst];
                let result_varying = result.is_some_and(varying);
                if gang.is_none() {
                    if result_varying {
                        self.fail_inst(inst, format!("per-lane values are {outside}"));
                    }
                    if let InstData::Suspend {
                        arriving: Some(_), ..
                    } = data
                    {
                        self.fail_inst(
                            inst,
                            format!("a suspend point's arriving lanes are {outside}"),
                        );
                    }
                    if matches!(data, InstData::Gang { .. } | InstData::Predicated { .. }) {
                        self.fail_inst(inst, format!("'{}' is {outside}", data.mnemonic()));
                    }
                    continue;
                }
                if let InstData::SubGroup { .. } = data {
                    self.fail_inst(
                        inst,
                        "subgroup collectives are scalar IR: in gang-level IR they are gang operations".to_string(),
                    );
                }
                let core = match data {
                    InstData::Predicated { inst, .. } => inst,
                    d => d,
                };
                let any_varying = core.args().into_iter().any(varying);
                let problem = match core {
                    InstData::Gang { op, args } => {
                        let per_lane = op.gives_per_lane(args.len());
                        (per_lane != result_varying).then(|| {
                            format!(
                                "{op} gives {} value",
                                if per_lane { "a per-lane" } else { "a uniform" }
                            )
                        })
                    }
                    InstData::Brif { cond: v, .. }
                    | InstData::Switch { arg: v, .. }
                    | InstData::Return { arg: Some(v) }
                        if varying(*v) =>
                    {
                        Some(format!(
                            "{v} differs between lanes: the linearized phase branches and returns on uniform values"
                        ))
                    }
                    _ if result.is_some() && any_varying && !result_varying => Some(
                        "a per-lane operand gives a per-lane result (use a gang operation to combine lanes)"
                            .to_string(),
                    ),
                    _ => None,
                };
                if let Some(message) = problem {
                    self.fail_inst(inst, message);
                }
                for dest in data.branch_dests() {
                    let params = &func.blocks[dest.block].params;
                    for (&a, &p) in dest.args.iter().zip(params) {
                        if varying(a) && !varying(p) {
                            self.fail_inst(
                                inst,
                                format!(
                                    "per-lane {a} passed to uniform parameter {p} of {}",
                                    dest.block
                                ),
                            );
                        }
                    }
                }
            }
        }
    }

    fn check_signature(&mut self, entry: Block) {
        let func = self.func;
        let params: Vec<Type> = func.blocks[entry]
            .params
            .iter()
            .map(|&p| self.ty(p))
            .collect();
        if params != func.signature.params {
            self.fail(
                format!("{entry}"),
                "entry block parameters do not match the function signature",
            );
        }
        if let Some(info) = &func.kernel {
            if func.signature.ret.is_some() {
                self.fail(String::new(), "a kernel cannot return a value");
            }
            if info.args.len() != func.signature.params.len() {
                self.fail(
                    String::new(),
                    format!(
                        "kernel has {} parameters but {} argument descriptions",
                        func.signature.params.len(),
                        info.args.len()
                    ),
                );
            }
            for (i, arg) in info.args.iter().enumerate() {
                let Some(byval) = arg.byval else { continue };
                if func.signature.params.get(i) != Some(&Type::Ptr(AddrSpace::Private)) {
                    self.fail(
                        String::new(),
                        format!("byval argument {i} must be a ptr.private"),
                    );
                }
                if !byval.align.is_power_of_two() {
                    self.fail(
                        String::new(),
                        format!(
                            "byval argument {i}: alignment {} is not a power of two",
                            byval.align
                        ),
                    );
                }
            }
            for (attr, dims) in [
                ("reqd_work_group_size", info.reqd_work_group_size),
                ("work_group_size_hint", info.work_group_size_hint),
            ] {
                if dims.is_some_and(|d| d.contains(&0)) {
                    self.fail(String::new(), format!("{attr} must be positive"));
                }
            }
            if let Some(n) = info.reqd_sub_group_size {
                if !matches!(n, 4 | 8 | 16 | 32) {
                    self.fail(
                        String::new(),
                        format!("reqd_sub_group_size {n} (4, 8, 16 or 32)"),
                    );
                }
            }
        }
    }

    /// Where each value is defined (block, and position for results), for reachable blocks.
    fn check_dominance(&mut self, entry: Block) {
        let func = self.func;
        let idom = dominators(func, entry);
        let reachable = |b: Block| b == entry || idom[b].is_some();
        // Preorder and postorder numbers in the dominator tree: `a`
        // dominates `b` iff `b`'s interval lies in `a`'s (walking up from
        // `b` would take the depth of the tree, which linearized code makes
        // as long as the kernel).
        let mut children: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
        for &b in &func.layout {
            if let Some(p) = idom[b].filter(|&p| p != b) {
                children[p].push(b);
            }
        }
        let (mut pre, mut post) = (SecondaryMap::new(), SecondaryMap::new());
        let mut clock = 0usize;
        let mut stack = vec![(entry, 0usize)];
        pre[entry] = clock;
        while let Some((b, i)) = stack.last_mut() {
            if let Some(&c) = children[*b].get(*i) {
                *i += 1;
                clock += 1;
                pre[c] = clock;
                stack.push((c, 0));
            } else {
                clock += 1;
                post[*b] = clock;
                stack.pop();
            }
        }
        let dominates = |a: Block, b: Block| pre[a] <= pre[b] && post[b] <= post[a];
        let mut position: SecondaryMap<Inst, usize> = SecondaryMap::new();
        for &block in &func.layout {
            for (i, &inst) in func.blocks[block].insts.iter().enumerate() {
                position[inst] = i;
            }
        }
        for &block in &func.layout {
            if !reachable(block) {
                continue;
            }
            for &inst in &func.blocks[block].insts {
                for arg in func.insts[inst].args() {
                    let ok = match func.values[arg].def {
                        ValueDef::Unused => false,
                        ValueDef::Param(def_block, _) => {
                            reachable(def_block) && dominates(def_block, block)
                        }
                        ValueDef::Result(def_inst) => match func.inst_block[def_inst] {
                            Some(def_block) if def_block == block => {
                                position[def_inst] < position[inst]
                            }
                            Some(def_block) => reachable(def_block) && dominates(def_block, block),
                            None => false,
                        },
                    };
                    if !ok {
                        self.fail_inst(
                            inst,
                            format!("use of {arg} is not dominated by its definition"),
                        );
                    }
                }
            }
        }
    }

    fn check_phase(&mut self) {
        let func = self.func;
        let phase = func.phase;
        let mut returns = 0;
        for (_, inst) in func.insts_in_layout() {
            let not_allowed =
                |what: &str| format!("{what} not allowed in the {} phase", phase.name());
            match &func.insts[inst] {
                InstData::Call { .. } if phase >= Phase::Normalized => {
                    self.fail_inst(inst, not_allowed("calls are"))
                }
                InstData::Barrier { .. } if phase >= Phase::Split => self.fail_inst(
                    inst,
                    format!(
                        "{}: split_barriers turns barriers into suspend points",
                        not_allowed("barriers are")
                    ),
                ),
                InstData::Suspend { .. } if phase < Phase::Split => {
                    self.fail_inst(inst, not_allowed("suspend points are"))
                }
                InstData::Return { .. } => returns += 1,
                InstData::NextItem if !func.refill => self.fail_inst(
                    inst,
                    "next_item is only in functions with lane refill (`refill`)".to_string(),
                ),
                _ => {}
            }
        }
        if returns > 1 && phase >= Phase::Normalized {
            self.fail(
                String::new(),
                format!("{returns} returns; the {} phase allows one", phase.name()),
            );
        }
    }

    fn check_block_call(
        &mut self,
        inst: Inst,
        call: &BlockCall,
        in_layout: &HashSet<Block>,
        entry: Block,
    ) {
        if !in_layout.contains(&call.block) {
            self.fail_inst(
                inst,
                format!("branch to {}, which is not in the layout", call.block),
            );
            return;
        }
        if call.block == entry {
            self.fail_inst(inst, "branch to the entry block");
        }
        let params = &self.func.blocks[call.block].params;
        if params.len() != call.args.len() {
            self.fail_inst(
                inst,
                format!(
                    "{} takes {} arguments, {} given",
                    call.block,
                    params.len(),
                    call.args.len()
                ),
            );
            return;
        }
        for (&p, &a) in params.iter().zip(&call.args) {
            if self.ty(p) != self.ty(a) {
                self.fail_inst(
                    inst,
                    format!(
                        "argument {a} is {}, parameter {p} of {} is {}",
                        self.ty(a),
                        call.block,
                        self.ty(p)
                    ),
                );
            }
        }
    }

    fn check_inst(&mut self, inst: Inst, in_layout: &HashSet<Block>, entry: Block) {
        let func = self.func;
        let data = &func.insts[inst];
        for arg in data.args() {
            if arg.index() >= func.values.len() || func.values[arg].def == ValueDef::Unused {
                self.fail_inst(inst, format!("use of undefined value {arg}"));
                return;
            }
        }
        let result = func.results[inst].map(|v| self.ty(v));
        let core = match data {
            InstData::Predicated { inst, .. } => &**inst,
            d => d,
        };
        let wants_result = match core {
            InstData::DeviceEnqueue { op, .. } => op.result_type().is_some(),
            _ => {
                !matches!(
                    core,
                    InstData::Store { .. }
                        | InstData::MemCopy { .. }
                        | InstData::MemSet { .. }
                        | InstData::AtomicStore { .. }
                        | InstData::Fence { .. }
                        | InstData::Barrier { .. }
                        | InstData::Call { .. }
                        | InstData::AsyncWait { .. }
                ) && !core.is_terminator()
            }
        };
        if let InstData::Call { func: callee, .. } = data {
            if let Some(callee) = self.module.and_then(|m| m.functions.get(*callee)) {
                if result != callee.signature.ret {
                    self.fail_inst(
                        inst,
                        format!("call result must match @{}'s return type", callee.name),
                    );
                    return;
                }
            }
        } else if wants_result != result.is_some() {
            let what = if wants_result {
                "needs a result"
            } else {
                "has no result"
            };
            self.fail_inst(inst, format!("'{}' {what}", data.mnemonic()));
            return;
        }
        let rt = result.unwrap_or(Type::I1);
        if let Err(message) = self.check_types(data, rt) {
            self.fail_inst(inst, message);
        }
        if let InstData::Call { func: callee, args } = data {
            match self.module.map(|m| m.functions.get(*callee)) {
                Some(None) => self.fail_inst(inst, format!("call to unknown function {callee}")),
                Some(Some(f)) => {
                    let tys: Vec<Type> = args.iter().map(|&a| self.ty(a)).collect();
                    if tys != f.signature.params {
                        self.fail_inst(
                            inst,
                            format!("arguments do not match @{}'s parameters", f.name),
                        );
                    }
                }
                None => {}
            }
        }
        for dest in data.branch_dests() {
            self.check_block_call(inst, dest, in_layout, entry);
        }
    }

    /// A reduction or scan of `v` (clustered by `cluster`) giving `rt`.
    fn check_collective(
        &self,
        op: GangOp,
        v: Value,
        cluster: Option<Value>,
        rt: Type,
    ) -> Result<(), String> {
        let Some((_, combine)) = op.collective() else {
            return Err(format!("{op} is not a reduction or scan"));
        };
        let t = self.ty(v);
        if rt != t {
            return Err("the result has the operand's type".into());
        }
        if !combine.applies_to(t) {
            return Err(format!("{op} does not apply to {t}"));
        }
        if let Some(c) = cluster {
            let size = match self.func.values.get(c).map(|d| d.def) {
                Some(ValueDef::Result(i)) if self.ty(c) == Type::I32 => match self.func.insts[i] {
                    InstData::Iconst { imm } => Some(imm),
                    _ => None,
                },
                _ => None,
            };
            if !size.is_some_and(|n| n.is_power_of_two() && n <= 32) {
                return Err(format!(
                    "the cluster size {c} must be an i32 constant, a power of two up to 32"
                ));
            }
        }
        Ok(())
    }

    /// A device enqueue operation: its operands, its result, and the
    /// kernel it names (one of the module's kernels, when the module is
    /// known).
    fn check_device_op(
        &self,
        op: DeviceOp,
        kernel: Option<FuncId>,
        args: &[Value],
        rt: Type,
    ) -> Result<(), String> {
        match (op.names_kernel(), kernel) {
            (true, None) => return Err(format!("{op} names a kernel (@kernel)")),
            (false, Some(_)) => return Err(format!("{op} names no kernel")),
            (true, Some(k)) => {
                if let Some(module) = self.module {
                    match module.functions.get(k) {
                        None => return Err(format!("{op} names unknown function {k}")),
                        Some(f) if !f.is_kernel() => {
                            return Err(format!("{op} names @{}, which is not a kernel", f.name))
                        }
                        Some(_) => {}
                    }
                }
            }
            (false, None) => {}
        }
        let operands = op.operands();
        if args.len() != operands.len() {
            return Err(format!("{op} takes {} operands", operands.len()));
        }
        for (&a, &want) in args.iter().zip(operands) {
            let t = self.ty(a);
            match want {
                DeviceOperand::Int(w) if t != w => {
                    return Err(format!("operand {a} is {t}, expected {w}"))
                }
                DeviceOperand::Ptr if !t.is_ptr() => {
                    return Err(format!("operand {a} is {t}, expected a pointer"))
                }
                _ => {}
            }
        }
        match op.result_type() {
            Some(want) if rt != want => Err(format!("{op} gives {want}")),
            _ => Ok(()),
        }
    }

    /// Operand and result typing of one instruction; `rt` is the result type.
    fn check_types(&self, data: &InstData, rt: Type) -> Result<(), String> {
        let ty = |v: Value| self.ty(v);
        let same = |vs: &[Value], t: Type| -> Result<(), String> {
            match vs.iter().find(|&&v| ty(v) != t) {
                Some(v) => Err(format!("operand {v} is {}, expected {t}", ty(*v))),
                None => Ok(()),
            }
        };
        let need = |ok: bool, msg: &str| if ok { Ok(()) } else { Err(msg.to_string()) };
        let memory_ptr = |p: Value, what: &str| match ty(p) {
            Type::Ptr(_) => Ok(()),
            t => Err(format!("{what} address {p} is {t}, not a pointer")),
        };
        let writable = |p: Value| match ty(p) {
            Type::Ptr(AddrSpace::Constant) => Err(format!(
                "cannot write through {p}: constant memory is read-only"
            )),
            _ => Ok(()),
        };
        let align_ok =
            |align: u32| need(align.is_power_of_two(), "alignment must be a power of two");
        let atomic_space = |p: Value| match ty(p) {
            Type::Ptr(AddrSpace::Global | AddrSpace::Local | AddrSpace::Generic) => Ok(()),
            t => Err(format!(
                "atomic on {t}: atomics need global, local or generic memory"
            )),
        };
        let atomic_int = |t: Type| {
            need(
                matches!(t, Type::I32 | Type::I64),
                "atomics operate on i32 or i64",
            )
        };
        match data {
            InstData::Undef => Ok(()),
            InstData::Predicated { mask, inst } => {
                need(ty(*mask) == Type::I1, "a predicate is an i1 mask")?;
                need(
                    matches!(
                        **inst,
                        InstData::Load { .. }
                            | InstData::Store { .. }
                            | InstData::AtomicRmw { .. }
                            | InstData::AtomicCas { .. }
                            | InstData::AtomicLoad { .. }
                            | InstData::AtomicStore { .. }
                            | InstData::MemCopy { .. }
                            | InstData::MemSet { .. }
                            | InstData::Printf { .. }
                            | InstData::DeviceEnqueue { .. }
                            | InstData::NextItem
                    ),
                    "only memory accesses, atomics, printf, device enqueue operations and next_item are predicated",
                )?;
                self.check_types(inst, rt)
            }
            InstData::Gang { op, args } => {
                let arity = op.arity();
                need(
                    arity.contains(&args.len()),
                    &format!("{op} takes {} operands", arity_text(&arity)),
                )?;
                match op {
                    GangOp::Any | GangOp::All => {
                        same(args, Type::I1)?;
                        need(rt == Type::I1, "any and all give i1")
                    }
                    GangOp::FirstLane | GangOp::Count | GangOp::Ballot => {
                        same(args, Type::I1)?;
                        need(rt == Type::I32, "first_lane, count and ballot give i32")
                    }
                    GangOp::LaneId => need(rt == Type::I32, "lane_id gives i32"),
                    GangOp::ActiveLanes => need(rt == Type::I1, "active_lanes gives i1"),
                    GangOp::Broadcast | GangOp::Shuffle => {
                        same(&args[1..], Type::I32)?;
                        need(rt == ty(args[0]), "the result has the operand's type")
                    }
                    _ => {
                        same(&args[1..2], Type::I1)?;
                        self.check_collective(*op, args[0], args.get(2).copied(), rt)
                    }
                }
            }
            InstData::SubGroup { op, args } => {
                let Some(arity) = op.sub_group_arity() else {
                    return Err(format!(
                        "'{op}' is not a subgroup operation (any, all, ballot, broadcast, shuffle, reduce_*, scan_*)"
                    ));
                };
                need(
                    arity.contains(&args.len()),
                    &format!("sub_group {op} takes {} operands", arity_text(&arity)),
                )?;
                match op {
                    GangOp::Any | GangOp::All => {
                        same(args, Type::I1)?;
                        need(rt == Type::I1, "any and all give i1")
                    }
                    GangOp::Ballot => {
                        same(args, Type::I1)?;
                        need(rt == Type::I32, "ballot gives i32")
                    }
                    GangOp::Broadcast | GangOp::Shuffle => {
                        same(&args[1..], Type::I32)?;
                        need(rt == ty(args[0]), "the result has the operand's type")
                    }
                    _ => self.check_collective(*op, args[0], args.get(1).copied(), rt),
                }
            }
            InstData::Iconst { imm } => {
                need(
                    rt.is_int() || rt.is_ptr(),
                    "iconst makes an integer or pointer",
                )?;
                need(imm & !rt.int_mask() == 0, "constant does not fit its type")
            }
            InstData::Fconst { bits } => {
                need(rt.is_float(), "fconst makes a float")?;
                need(bits & !rt.int_mask() == 0, "constant does not fit its type")
            }
            InstData::Unary { op, arg } => {
                same(&[*arg], rt)?;
                if *op == UnaryOp::Freeze {
                    Ok(())
                } else if unary_is_int(*op) {
                    need(rt.is_int(), "integer operation on a non-integer")?;
                    need(
                        rt != Type::I1 || *op == UnaryOp::Bnot,
                        "of the one-operand integer operations, i1 allows only bnot",
                    )?;
                    need(
                        *op != UnaryOp::Bswap || rt.bits().is_multiple_of(16),
                        "bswap needs a width that is a multiple of 16",
                    )
                } else {
                    need(rt.is_float(), "float operation on a non-float")
                }
            }
            InstData::Binary { op, args } => {
                same(args, rt)?;
                if binary_is_int(*op) {
                    let bitwise = matches!(op, BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor);
                    need(rt.is_int(), "integer operation on a non-integer")?;
                    need(
                        rt != Type::I1 || bitwise,
                        "of the two-operand integer operations, i1 allows only band, bor and bxor",
                    )
                } else {
                    need(rt.is_float(), "float operation on a non-float")
                }
            }
            InstData::Ternary { op, args } => {
                same(args, rt)?;
                match op {
                    TernaryOp::Fma => need(rt.is_float(), "fma needs floats"),
                    TernaryOp::Fshl | TernaryOp::Fshr => {
                        need(rt.is_int() && rt != Type::I1, "funnel shifts need integers")
                    }
                }
            }
            InstData::Icmp { args, .. } => {
                need(rt == Type::I1, "icmp gives i1")?;
                same(&args[1..], ty(args[0]))?;
                need(
                    ty(args[0]).is_int() || ty(args[0]).is_ptr(),
                    "icmp compares integers or pointers",
                )
            }
            InstData::Fcmp { args, .. } => {
                need(rt == Type::I1, "fcmp gives i1")?;
                same(&args[1..], ty(args[0]))?;
                need(ty(args[0]).is_float(), "fcmp compares floats")
            }
            InstData::Select { args } => {
                same(&args[..1], Type::I1)?;
                same(&args[1..], rt)
            }
            InstData::Convert {
                op,
                arg,
                rounding,
                saturate,
            } => {
                let from = ty(*arg);
                check_convert(*op, from, rt)?;
                let float_rounding = rt.is_float() || from.is_float();
                need(
                    float_rounding || *rounding == op.default_rounding(),
                    "rounding modes apply to conversions involving floats",
                )?;
                need(
                    !saturate || matches!(op, ConvertOp::FpToSi | ConvertOp::FpToUi),
                    "only fptosi and fptoui saturate",
                )
            }
            InstData::PtrAdd { args } => {
                need(
                    ty(args[0]).is_ptr() && ty(args[0]) == rt,
                    "ptradd takes and gives a pointer of one address space",
                )?;
                same(&args[1..], Type::I64)
            }
            InstData::Load { ptr, align, .. } => {
                memory_ptr(*ptr, "load")?;
                align_ok(*align)
            }
            InstData::Store {
                args: [_, p],
                align,
                ..
            } => {
                memory_ptr(*p, "store")?;
                writable(*p)?;
                align_ok(*align)
            }
            InstData::StackAddr { slot } => {
                need(
                    slot.index() < self.func.stack_slots.len(),
                    "unknown stack slot",
                )?;
                need(
                    rt == Type::Ptr(AddrSpace::Private),
                    "stack_addr gives a ptr.private",
                )
            }
            InstData::GlobalAddr { global } => match self.module {
                Some(m) => match m.globals.get(*global) {
                    Some(g) => need(
                        rt == Type::Ptr(g.space),
                        "global_addr must give a pointer in the variable's address space",
                    ),
                    None => Err(format!("unknown variable {global}")),
                },
                None => need(rt.is_ptr(), "global_addr gives a pointer"),
            },
            InstData::MemCopy { args: [d, s, n] } => {
                memory_ptr(*d, "memcpy destination")?;
                writable(*d)?;
                memory_ptr(*s, "memcpy source")?;
                same(&[*n], Type::I64)
            }
            InstData::MemSet { args: [d, b, n] } => {
                memory_ptr(*d, "memset destination")?;
                writable(*d)?;
                same(&[*b], Type::I8)?;
                same(&[*n], Type::I64)
            }
            InstData::AtomicRmw {
                op, args: [p, v], ..
            } => {
                atomic_space(*p)?;
                same(&[*v], rt)?;
                match op {
                    AtomicRmwOp::Fadd | AtomicRmwOp::Fmin | AtomicRmwOp::Fmax => need(
                        matches!(rt, Type::F32 | Type::F64),
                        "float atomics operate on f32 or f64",
                    ),
                    _ => atomic_int(rt),
                }
            }
            InstData::AtomicCas {
                args: [p, e, n], ..
            } => {
                atomic_space(*p)?;
                same(&[*e, *n], rt)?;
                atomic_int(rt)
            }
            InstData::AtomicLoad { ptr, .. } => {
                atomic_space(*ptr)?;
                need(
                    matches!(rt, Type::I32 | Type::I64 | Type::F32 | Type::F64),
                    "atomic loads give i32, i64, f32 or f64",
                )
            }
            InstData::AtomicStore { args: [v, p], .. } => {
                atomic_space(*p)?;
                need(
                    matches!(ty(*v), Type::I32 | Type::I64 | Type::F32 | Type::F64),
                    "atomic stores take i32, i64, f32 or f64",
                )
            }
            InstData::Suspend {
                arriving: Some(m), ..
            } if ty(*m) != Type::I1 => {
                Err("a suspend point's arriving lanes are an i1 mask".into())
            }
            InstData::Fence { flags, .. }
            | InstData::Barrier { flags, .. }
            | InstData::Suspend { flags, .. } => {
                let known = FenceFlags::NAMED.iter().fold(0, |all, (f, _)| all | f.0);
                need(flags.0 & !known == 0, "unknown fence flag bits")
            }
            InstData::WorkItem { query, dim } => {
                need(*dim <= 2, "dimension must be 0, 1 or 2")?;
                if !query.takes_dim() && *dim != 0 {
                    return Err(format!("{query} takes no dimension"));
                }
                need(
                    rt == query.result_type(),
                    "work_dim and the subgroup queries give i32; the other work-item queries give i64",
                )
            }
            InstData::Call { .. } => Ok(()),
            InstData::Printf { .. } => need(rt == Type::I32, "printf gives i32"),
            InstData::AsyncCopied {
                args: [d, s, n, ss, ds, e],
                elem,
            } => {
                memory_ptr(*d, "async copy destination")?;
                memory_ptr(*s, "async copy source")?;
                same(&[*n, *ss, *ds, *e], Type::I64)?;
                need(*elem > 0, "an async copy's elements have a size")?;
                need(rt == Type::I64, "async_copied gives its event, an i64")
            }
            InstData::AsyncWait { arg } => same(&[*arg], Type::I64),
            InstData::DeviceEnqueue { op, kernel, args } => {
                self.check_device_op(*op, *kernel, args, rt)
            }
            InstData::NextItem => need(rt == Type::I32, "next_item gives i32"),
            InstData::Jump { .. } | InstData::Unreachable => Ok(()),
            InstData::Brif { cond, .. } => same(&[*cond], Type::I1),
            InstData::Switch { arg, cases, .. } => {
                let t = ty(*arg);
                need(t.is_int(), "switch on a non-integer")?;
                let mut seen = HashSet::new();
                for &(value, _) in cases {
                    need(
                        value & !t.int_mask() == 0,
                        "switch case value does not fit the argument's type",
                    )?;
                    if !seen.insert(value) {
                        return Err(format!(
                            "duplicate switch case value {}",
                            format_int(value, t)
                        ));
                    }
                }
                Ok(())
            }
            InstData::Return { arg } => {
                let got = arg.map(ty);
                need(
                    got == self.func.signature.ret,
                    "return value does not match the function's return type",
                )
            }
        }
    }
}

fn unary_is_int(op: UnaryOp) -> bool {
    use UnaryOp::*;
    matches!(
        op,
        Ineg | Bnot | Clz | Ctz | Popcount | Bswap | Bitreverse | Iabs
    )
}

fn binary_is_int(op: BinaryOp) -> bool {
    use BinaryOp::*;
    !matches!(
        op,
        Fadd | Fsub | Fmul | Fdiv | Frem | Fmin | Fmax | Copysign | Pow | Atan2 | Hypot | Remainder
    )
}

fn check_convert(op: ConvertOp, from: Type, to: Type) -> Result<(), String> {
    use ConvertOp::*;
    let ok = match op {
        Zext | Sext => from.is_int() && to.is_int() && to.bits() > from.bits(),
        Trunc => from.is_int() && to.is_int() && to.bits() < from.bits(),
        FpExt => from.is_float() && to.is_float() && to.bits() > from.bits(),
        FpTrunc => from.is_float() && to.is_float() && to.bits() < from.bits(),
        FpToSi | FpToUi => from.is_float() && to.is_int(),
        SiToFp | UiToFp => from.is_int() && to.is_float(),
        Bitcast => !from.is_ptr() && !to.is_ptr() && from.bits() == to.bits() && from != Type::I1,
        PtrToInt => from.is_ptr() && to.is_int() && to != Type::I1,
        IntToPtr => from.is_int() && to.is_ptr() && from != Type::I1,
        AddrSpaceCast => match (from, to) {
            (Type::Ptr(a), Type::Ptr(b)) => a != b,
            _ => false,
        },
    };
    if ok {
        Ok(())
    } else {
        Err(format!("cannot {op} from {from} to {to}"))
    }
}

/// Immediate dominators of the blocks reachable from `entry` (the entry maps
/// to itself, unreachable blocks to `None`), by the Cooper–Harvey–Kennedy
/// iteration. The passes crate has the full dominator-tree analysis; this
/// is the verifier's own, so the IR crate stands alone.
fn dominators(func: &Function, entry: Block) -> SecondaryMap<Block, Option<Block>> {
    // Reverse postorder by iterative DFS.
    let mut post = Vec::new();
    let mut visited: SecondaryMap<Block, bool> = SecondaryMap::new();
    // Each block with its successors (listed once: a switch may have
    // thousands) and the next one to visit.
    let mut stack = vec![(entry, func.successors(entry), 0usize)];
    visited[entry] = true;
    while let Some((block, succs, i)) = stack.last_mut() {
        if let Some(&s) = succs.get(*i) {
            *i += 1;
            if !visited[s] {
                visited[s] = true;
                stack.push((s, func.successors(s), 0));
            }
        } else {
            post.push(*block);
            stack.pop();
        }
    }
    let mut order: SecondaryMap<Block, usize> = SecondaryMap::new();
    for (i, &b) in post.iter().enumerate() {
        order[b] = i;
    }
    let mut preds: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
    for &b in &post {
        for s in func.successors(b) {
            preds[s].push(b);
        }
    }
    let mut idom: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
    idom[entry] = Some(entry);
    let intersect = |idom: &SecondaryMap<Block, Option<Block>>, mut a: Block, mut b: Block| {
        while a != b {
            while order[a] < order[b] {
                a = idom[a].expect("processed");
            }
            while order[b] < order[a] {
                b = idom[b].expect("processed");
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in post.iter().rev() {
            if b == entry {
                continue;
            }
            let mut new = None;
            for &p in &preds[b] {
                if idom[p].is_some() {
                    new = Some(match new {
                        None => p,
                        Some(n) => intersect(&idom, p, n),
                    });
                }
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    idom
}

/// `n` or `n or m` operands.
fn arity_text(arity: &std::ops::RangeInclusive<usize>) -> String {
    if arity.start() == arity.end() {
        arity.start().to_string()
    } else {
        format!("{} or {}", arity.start(), arity.end())
    }
}
