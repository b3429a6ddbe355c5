//! The instruction set: declarations only.
//!
//! Changes here change the IR every pass, the interpreter and the code
//! generator agree on; give them a careful read. Semantics are documented on
//! each operation; the crate docs (`lib.rs`) describe the IR as a whole.

use crate::entities::{Block, FuncId, GlobalId, StackSlot, Value};
use crate::named_enum;

/// The payload of an instruction. The result type, where there is a result,
/// is stored with the result value, not here.
#[derive(Clone, Debug, PartialEq)]
pub enum InstData {
    /// An integer or pointer constant: `imm` holds the bits, zero-extended
    /// from the result type's width. A pointer constant is an address (0: null).
    Iconst {
        imm: u64,
    },
    /// A float constant: `bits` is the IEEE encoding of the result type
    /// (`f16`, `f32` or `f64`), zero-extended.
    Fconst {
        bits: u64,
    },
    /// A value of the result type that nothing may depend on: what a
    /// variable holds on a path where it was never set (the `linearize`
    /// pass passes it where a block is skipped because no lane needs it).
    /// Any value is a valid choice (the interpreter uses 0); analyses may
    /// assume whatever suits them.
    Undef,
    Unary {
        op: UnaryOp,
        arg: Value,
    },
    Binary {
        op: BinaryOp,
        args: [Value; 2],
    },
    Ternary {
        op: TernaryOp,
        args: [Value; 3],
    },
    /// Integer (or pointer) comparison producing `i1`.
    Icmp {
        cond: IntCC,
        args: [Value; 2],
    },
    /// Float comparison producing `i1`.
    Fcmp {
        cond: FloatCC,
        args: [Value; 2],
    },
    /// `args[0]` (an `i1`) ? `args[1]` : `args[2]`.
    Select {
        args: [Value; 3],
    },
    /// A conversion to the result type. `rounding` matters for float results
    /// and for float-to-int; `saturate` clamps float-to-int to the target
    /// range (NaN gives 0) instead of giving an unspecified value.
    Convert {
        op: ConvertOp,
        arg: Value,
        rounding: Rounding,
        saturate: bool,
    },
    /// `args[0]` (a pointer) plus `args[1]` (an `i64` byte offset), in the
    /// pointer's address space.
    PtrAdd {
        args: [Value; 2],
    },
    /// Loads the result type from `ptr`, which is `align`-byte aligned.
    Load {
        ptr: Value,
        align: u32,
        volatile: bool,
    },
    /// Stores `args[0]` to the pointer `args[1]`.
    Store {
        args: [Value; 2],
        align: u32,
        volatile: bool,
    },
    /// The address (`ptr.private`) of a stack slot of this work-item.
    StackAddr {
        slot: StackSlot,
    },
    /// The address of a program-scope variable, in its address space. For a
    /// `local` variable: this work-group's instance.
    GlobalAddr {
        global: GlobalId,
    },
    /// Copies `args[2]` (`i64`) bytes from `args[1]` to `args[0]`; the ranges
    /// may overlap (memmove semantics).
    MemCopy {
        args: [Value; 3],
    },
    /// Sets `args[2]` (`i64`) bytes at `args[0]` to the byte `args[1]` (`i8`).
    MemSet {
        args: [Value; 3],
    },
    /// Atomically applies `op` to the value at `args[0]` with operand
    /// `args[1]`; the result is the old value.
    AtomicRmw {
        op: AtomicRmwOp,
        args: [Value; 2],
        order: MemOrder,
        scope: MemScope,
    },
    /// Compare-and-swap at `args[0]`: if it holds `args[1]`, store `args[2]`.
    /// The result is the old value (success iff it equals `args[1]`).
    AtomicCas {
        args: [Value; 3],
        order: MemOrder,
        scope: MemScope,
    },
    AtomicLoad {
        ptr: Value,
        order: MemOrder,
        scope: MemScope,
    },
    /// Atomically stores `args[0]` to `args[1]`.
    AtomicStore {
        args: [Value; 2],
        order: MemOrder,
        scope: MemScope,
    },
    /// A memory fence (`mem_fence`, `atomic_work_item_fence`) for the given
    /// address spaces.
    Fence {
        flags: FenceFlags,
        order: MemOrder,
        scope: MemScope,
    },
    /// A work-group barrier: every work-item of the group reaches it before
    /// any continues; memory in `flags` is made consistent across the group.
    Barrier {
        flags: FenceFlags,
        scope: MemScope,
    },
    /// A work-item query; `dim` (0, 1 or 2) for the queries that take one.
    /// The result is `i64` (`size_t`), `i32` for `work_dim`.
    WorkItem {
        query: WorkItemQuery,
        dim: u8,
    },
    Call {
        func: FuncId,
        args: Vec<Value>,
    },
    /// Lane refill only (a function with [`crate::Function::refill`] set):
    /// takes the next work-item nobody has started of the range of
    /// work-groups this call of the kernel runs, and gives its index in the
    /// range (`group offset * local size + local linear id`, an `i32`); -1
    /// once every one was taken. Lanes that take one at the same time take
    /// them in lane order.
    NextItem,
    /// Gang-level IR only: an operation across the lanes of the gang (see
    /// [`GangOp`] for each one's operands and result).
    Gang {
        op: GangOp,
        args: Vec<Value>,
    },
    /// Scalar IR only (before `linearized`): a subgroup collective, the
    /// gang operation `op` across the work-items of this work-item's
    /// subgroup that reach this instruction together (the *participants*:
    /// the work-items of a gang whose lanes would be set in the block's
    /// mask), each one a lane (its subgroup local id). The operands are the
    /// gang operation's without its mask, which the participants are:
    /// `any p`, `all p`, `ballot p`, `broadcast v, k`, `shuffle v, k`,
    /// `reduce_<op> v` or `reduce_<op> v, c` (clustered), `scan_<op> v`,
    /// `scan_excl_<op> v`. A lane that does not participate holds no value:
    /// reading it (`broadcast`, `shuffle`) gives an unspecified value.
    /// `linearize` turns it into the gang operation with the block's mask.
    SubGroup {
        op: GangOp,
        args: Vec<Value>,
    },
    /// Gang-level IR only: `inst` (a memory access, atomic or `printf`)
    /// takes effect only in the lanes where `mask` (an `i1`, uniform or one
    /// per lane) is set; a load gives zero in the other lanes. Written
    /// `<inst> if <mask>`.
    Predicated {
        mask: Value,
        inst: Box<InstData>,
    },
    /// The end of this work-item's share of an async work-group copy
    /// (`async_work_group_copy`, `async_work_group_strided_copy`): `args`
    /// are the destination and source pointers, the element count, the
    /// source and destination strides in elements (`i64`s) and the event
    /// passed in (`i64`); `elem` is the element size in bytes. The result
    /// (`i64`) is the copy's event: the one passed in. It does nothing (the
    /// builtin library copies before it); checked mode uses it to follow
    /// the copy until `async_wait`: all work-items must make it with the
    /// same arguments, and none may touch the copy's memory before waiting.
    AsyncCopied {
        args: [Value; 6],
        elem: u32,
    },
    /// `wait_group_events` waits for the event `arg` (`i64`; one of these
    /// per event of the list). It does nothing (the builtin library's
    /// barrier that follows completes the copies); checked mode checks the
    /// event against the work-group's async copies.
    AsyncWait {
        arg: Value,
    },
    /// OpenCL `printf`: formats `args` by `format`; the result (`i32`) is 0
    /// on success.
    Printf {
        format: String,
        args: Vec<Value>,
    },
    /// OpenCL device-side enqueue (OpenCL C 2.0 `enqueue_kernel`, device
    /// events, the kernel queries of blocks): `op` with `args` (see
    /// [`DeviceOp`] for each one's operands and result), carried out by
    /// the runtime for each work-item that reaches it. `kernel` is the
    /// kernel an `enqueue_kernel` enqueues or a kernel query asks about (a
    /// block's invoke kernel, known statically); `None` for the others.
    /// Written `OP [@kernel] args`, e.g. `enqueue_kernel @k v1, v2, ...`.
    DeviceEnqueue {
        op: DeviceOp,
        kernel: Option<FuncId>,
        args: Vec<Value>,
    },
    // Terminators.
    Jump {
        dest: BlockCall,
    },
    /// Goes to `then_dest` if `cond` (an `i1`) is true, else to `else_dest`.
    Brif {
        cond: Value,
        then_dest: BlockCall,
        else_dest: BlockCall,
    },
    /// Goes to the case whose value equals `arg`, else to `default`. Case
    /// values are the integer's bits, zero-extended; they are distinct.
    Switch {
        arg: Value,
        default: BlockCall,
        cases: Vec<(u64, BlockCall)>,
    },
    Return {
        arg: Option<Value>,
    },
    /// A suspend point, the form a `barrier` takes after `split_barriers`:
    /// the barrier's synchronization (with its `flags` and `scope`), then a
    /// jump to `dest`. The arguments of `dest` are the gang's state across
    /// the barrier: in the `split` phase nothing else that an instruction
    /// defined before the suspend is used after it (function parameters stay
    /// available), so a gang can stop here, keep only these values, and
    /// resume at `dest` once every gang of its work-group has arrived.
    ///
    /// In gang-level IR (after `linearize`), `arriving` is the mask of the
    /// lanes that reach the suspend point. OpenCL requires every work-item
    /// of a work-group to reach each barrier, so that mask must be the
    /// gang's `active_lanes`: a gang where some active lane is missing stops
    /// with a barrier-divergence error instead of suspending, and a resumed
    /// gang's mask is its `active_lanes` again (a constant when the group
    /// fills its gangs), not a value kept in the state.
    Suspend {
        flags: FenceFlags,
        scope: MemScope,
        dest: BlockCall,
        arriving: Option<Value>,
    },
    /// Control never reaches here (reaching it is undefined behaviour).
    Unreachable,
}

/// A branch target with the arguments passed to its block parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockCall {
    pub block: Block,
    pub args: Vec<Value>,
}

named_enum! {
    /// Operations of one operand. Integer ops take and give one integer type;
    /// float ops one float type; the exceptions are noted.
    pub enum UnaryOp {
        /// Two's complement negation.
        Ineg = "ineg",
        Bnot = "bnot",
        /// Leading zero bits (the width for 0).
        Clz = "clz",
        /// Trailing zero bits (the width for 0).
        Ctz = "ctz",
        Popcount = "popcount",
        Bswap = "bswap",
        Bitreverse = "bitreverse",
        /// Absolute value of a signed integer, as unsigned (`abs(INT_MIN)` is `INT_MIN`'s bits).
        Iabs = "iabs",
        Fneg = "fneg",
        Fabs = "fabs",
        Sqrt = "sqrt",
        /// `1/sqrt(x)`.
        Rsqrt = "rsqrt",
        Floor = "floor",
        Ceil = "ceil",
        /// Float rounding toward zero (to an integral float).
        Ftrunc = "ftrunc",
        /// Round half away from zero.
        Round = "round",
        /// Round half to even (in the default rounding mode).
        Rint = "rint",
        Exp = "exp",
        Exp2 = "exp2",
        Exp10 = "exp10",
        Expm1 = "expm1",
        Log = "log",
        Log2 = "log2",
        Log10 = "log10",
        Log1p = "log1p",
        Sin = "sin",
        Cos = "cos",
        Tan = "tan",
        Asin = "asin",
        Acos = "acos",
        Atan = "atan",
        Sinh = "sinh",
        Cosh = "cosh",
        Tanh = "tanh",
        Asinh = "asinh",
        Acosh = "acosh",
        Atanh = "atanh",
        Cbrt = "cbrt",
        Erf = "erf",
        Erfc = "erfc",
        Tgamma = "tgamma",
        Lgamma = "lgamma",
        /// The operand, any type (LLVM's `freeze`): the same value, but
        /// initialized where the operand is not (checked mode's
        /// uninitialized values stop here; see the interpreter).
        Freeze = "freeze",
    }
}

named_enum! {
    /// Operations of two operands of one type (shift amounts have the type of
    /// the shifted value).
    pub enum BinaryOp {
        Iadd = "iadd",
        Isub = "isub",
        Imul = "imul",
        /// Unsigned division; division by zero gives an unspecified value (no trap).
        Udiv = "udiv",
        /// Signed division rounding toward zero; by zero, or `MIN / -1`,
        /// gives an unspecified value (no trap).
        Sdiv = "sdiv",
        Urem = "urem",
        /// Remainder with the sign of the dividend (C's `%`).
        Srem = "srem",
        /// High half of the unsigned double-width product.
        Umulhi = "umulhi",
        /// High half of the signed double-width product.
        Smulhi = "smulhi",
        Band = "band",
        Bor = "bor",
        Bxor = "bxor",
        /// Shifts take the amount modulo the bit width (OpenCL semantics).
        Ishl = "ishl",
        Ushr = "ushr",
        Sshr = "sshr",
        Rotl = "rotl",
        Rotr = "rotr",
        Smin = "smin",
        Smax = "smax",
        Umin = "umin",
        Umax = "umax",
        UaddSat = "uadd_sat",
        SaddSat = "sadd_sat",
        UsubSat = "usub_sat",
        SsubSat = "ssub_sat",
        Fadd = "fadd",
        Fsub = "fsub",
        Fmul = "fmul",
        Fdiv = "fdiv",
        /// C's `fmod`: remainder of division rounding toward zero.
        Frem = "frem",
        /// OpenCL `fmin`: a NaN operand yields the other operand.
        Fmin = "fmin",
        /// OpenCL `fmax`: a NaN operand yields the other operand.
        Fmax = "fmax",
        Copysign = "copysign",
        Pow = "pow",
        Atan2 = "atan2",
        Hypot = "hypot",
        /// IEEE remainder (quotient rounded to nearest even).
        Remainder = "remainder",
    }
}

named_enum! {
    /// Operations of three operands of one type.
    pub enum TernaryOp {
        /// Fused multiply-add: `a * b + c` with one rounding.
        Fma = "fma",
        /// Funnel shift left: the high half of `(a:b) << (c mod width)`.
        Fshl = "fshl",
        /// Funnel shift right: the low half of `(a:b) >> (c mod width)`.
        Fshr = "fshr",
    }
}

named_enum! {
    /// Integer comparison conditions.
    pub enum IntCC {
        Eq = "eq",
        Ne = "ne",
        Slt = "slt",
        Sle = "sle",
        Sgt = "sgt",
        Sge = "sge",
        Ult = "ult",
        Ule = "ule",
        Ugt = "ugt",
        Uge = "uge",
    }
}

named_enum! {
    /// Float comparison conditions: ordered (false if either is NaN) or
    /// unordered (true if either is NaN), as in LLVM.
    pub enum FloatCC {
        Oeq = "oeq",
        One = "one",
        Olt = "olt",
        Ole = "ole",
        Ogt = "ogt",
        Oge = "oge",
        Ord = "ord",
        Uno = "uno",
        Ueq = "ueq",
        Une = "une",
        Ult = "ult",
        Ule = "ule",
        Ugt = "ugt",
        Uge = "uge",
    }
}

named_enum! {
    /// Conversions; the target is the result type.
    pub enum ConvertOp {
        /// Zero-extension to a wider integer (`i1` true becomes 1).
        Zext = "zext",
        /// Sign-extension to a wider integer (`i1` true becomes -1).
        Sext = "sext",
        /// Truncation to a narrower integer (to `i1`: the lowest bit).
        Trunc = "trunc",
        FpExt = "fpext",
        FpTrunc = "fptrunc",
        FpToSi = "fptosi",
        FpToUi = "fptoui",
        SiToFp = "sitofp",
        UiToFp = "uitofp",
        /// Reinterprets the bits; both types have the same width.
        Bitcast = "bitcast",
        PtrToInt = "ptrtoint",
        IntToPtr = "inttoptr",
        /// Between a named address space and `generic`.
        AddrSpaceCast = "addrspacecast",
    }
}

named_enum! {
    /// Rounding modes of conversions (OpenCL's `_rte`, `_rtz`, `_rtp`, `_rtn`).
    pub enum Rounding {
        /// To nearest, ties to even: the default of conversions to float.
        Rte = "rte",
        /// Toward zero: the default of conversions to integer.
        Rtz = "rtz",
        /// Toward positive infinity.
        Rtp = "rtp",
        /// Toward negative infinity.
        Rtn = "rtn",
    }
}

named_enum! {
    /// Read-modify-write operations of `atomic_rmw`.
    pub enum AtomicRmwOp {
        Xchg = "xchg",
        Add = "add",
        Sub = "sub",
        And = "and",
        Or = "or",
        Xor = "xor",
        Smin = "smin",
        Smax = "smax",
        Umin = "umin",
        Umax = "umax",
        Fadd = "fadd",
        Fmin = "fmin",
        Fmax = "fmax",
    }
}

named_enum! {
    /// Memory orders of atomics and fences (C11 / OpenCL 2.0).
    pub enum MemOrder {
        Relaxed = "relaxed",
        Acquire = "acquire",
        Release = "release",
        AcqRel = "acq_rel",
        SeqCst = "seq_cst",
    }
}

named_enum! {
    /// Memory scopes of atomics, fences and barriers.
    pub enum MemScope {
        WorkItem = "work_item",
        SubGroup = "sub_group",
        WorkGroup = "work_group",
        Device = "device",
        AllDevices = "all_devices",
    }
}

named_enum! {
    /// Operations across the lanes of a gang (gang-level IR). `<T>` is a
    /// value with one element per lane, `T` a uniform one.
    ///
    /// The reductions and scans combine the lanes where their mask `m`
    /// (`<i1>`) is set with an operation ([`crate::Combine`]: `add`, `mul`,
    /// `smin`, `smax`, `umin`, `umax`, `fmin`, `fmax`, `and`, `or`, `xor`);
    /// a lane that is not set counts as the operation's *identity* (0 for
    /// `add`, `or`, `xor`, `umax`; 1 for `mul`; all ones for `and`, `umin`;
    /// the largest value for `smin`, the smallest for `smax`; +0.0, 1.0,
    /// +inf, -inf for float `add`, `mul`, `fmin`, `fmax`). Integer
    /// arithmetic wraps around; the order of float operations is fixed, so
    /// that every engine gives the same bits:
    ///
    /// * `reduce_<op> v, m` gives `T`: `x = identity; for each lane l in
    ///   order: x = op(x, v_l or identity)`. With a third operand `c`
    ///   (a constant `i32`, a power of two up to 32; a cluster of W or
    ///   more lanes is the whole gang), it is *clustered*
    ///   and gives `<T>`: each lane gets the reduction over the set lanes of
    ///   its cluster of `c` consecutive lanes, computed as a butterfly:
    ///   `x_l = v_l or identity; for s = 1, 2, 4, … < c: x_l = op(x_l,
    ///   x_(l xor s))`.
    /// * `scan_<op> v, m` (inclusive) gives `<T>`, in log2(W) steps:
    ///   `x_l = v_l or identity; for d = 1, 2, 4, … < W: x_l = op(l ≥ d ?
    ///   x_(l−d) : identity, x_l)` (all lanes at once).
    /// * `scan_excl_<op> v, m` (exclusive) gives `<T>`: the identity in
    ///   lane 0, the inclusive scan's lane `l−1` in lane `l`.
    pub enum GangOp {
        /// `any m`: true if `m` (`<i1>`) is set in some lane; gives `i1`.
        Any = "any",
        /// `all m`: true if `m` (`<i1>`) is set in every lane; gives `i1`.
        All = "all",
        /// `first_lane m`: the index of the lowest lane where `m` (`<i1>`)
        /// is set, the gang's width if none; gives `i32`.
        FirstLane = "first_lane",
        /// `lane_id`: each lane's index, 0 to W-1; gives `<i32>`.
        LaneId = "lane_id",
        /// `count m`: the number of lanes where `m` (`<i1>`) is set; gives
        /// `i32`.
        Count = "count",
        /// `ballot m`: the lanes where `m` (`<i1>`) is set as the bits of an
        /// `i32` (bit `l` for lane `l`).
        Ballot = "ballot",
        /// `active_lanes`: the lanes that hold a work-item (all but the
        /// lanes past the end of the work-group in its last gang); gives
        /// `<i1>`. Side effects of a linearized kernel are predicated on
        /// masks within these.
        ActiveLanes = "active_lanes",
        /// `broadcast v, k`: lane `k`'s element of `v` (`k` is a uniform
        /// `i32`, taken modulo W); gives `T`.
        Broadcast = "broadcast",
        /// `shuffle v, k`: each lane gets lane `k`'s element of `v` (`k` is
        /// `<i32>`, taken modulo W); gives `<T>`.
        Shuffle = "shuffle",
        ReduceAdd = "reduce_add",
        ReduceMul = "reduce_mul",
        ReduceSmin = "reduce_smin",
        ReduceSmax = "reduce_smax",
        ReduceUmin = "reduce_umin",
        ReduceUmax = "reduce_umax",
        ReduceFmin = "reduce_fmin",
        ReduceFmax = "reduce_fmax",
        ReduceAnd = "reduce_and",
        ReduceOr = "reduce_or",
        ReduceXor = "reduce_xor",
        ScanAdd = "scan_add",
        ScanMul = "scan_mul",
        ScanSmin = "scan_smin",
        ScanSmax = "scan_smax",
        ScanUmin = "scan_umin",
        ScanUmax = "scan_umax",
        ScanFmin = "scan_fmin",
        ScanFmax = "scan_fmax",
        ScanAnd = "scan_and",
        ScanOr = "scan_or",
        ScanXor = "scan_xor",
        ScanExclAdd = "scan_excl_add",
        ScanExclMul = "scan_excl_mul",
        ScanExclSmin = "scan_excl_smin",
        ScanExclSmax = "scan_excl_smax",
        ScanExclUmin = "scan_excl_umin",
        ScanExclUmax = "scan_excl_umax",
        ScanExclFmin = "scan_excl_fmin",
        ScanExclFmax = "scan_excl_fmax",
        ScanExclAnd = "scan_excl_and",
        ScanExclOr = "scan_excl_or",
        ScanExclXor = "scan_excl_xor",
    }
}

named_enum! {
    /// The operation a reduction or scan combines lanes with (see
    /// [`GangOp`]): `add` and `mul` on integers or floats, the others on
    /// integers, `fmin`/`fmax` on floats (OpenCL's `fmin`/`fmax`).
    pub enum Combine {
        Add = "add",
        Mul = "mul",
        Smin = "smin",
        Smax = "smax",
        Umin = "umin",
        Umax = "umax",
        Fmin = "fmin",
        Fmax = "fmax",
        And = "and",
        Or = "or",
        Xor = "xor",
    }
}

named_enum! {
    /// The operations of [`InstData::DeviceEnqueue`]: OpenCL C's device
    /// enqueue built-ins, one call per work-item. Queues (`queue_t`) and
    /// events (`clk_event_t`) are `i64` handles the runtime gives out (0 is
    /// `CLK_NULL_QUEUE` and `CLK_NULL_EVENT`); pointers may be in any
    /// address space. An `ndrange` operand points to clang's `ndrange_t`:
    /// `i32 work_dim`, then `i64` global offsets, global sizes and local
    /// sizes, three each, at bytes 8, 32 and 56 (80 bytes).
    pub enum DeviceOp {
        /// `enqueue_kernel @k queue, flags, ndrange, num_events, events,
        /// event_ret, block, num_sizes, sizes` gives `i32` (`CLK_SUCCESS`
        /// or a `CLK_*` error): enqueues kernel `@k` over the range with a
        /// copy of the block literal at `block` (its size is its first
        /// `i32`) as its first argument and `__local` arguments of the
        /// `num_sizes` (`i32`) sizes at `sizes` (`i64` each), once the
        /// `num_events` (`i32`) events at `events` are complete; writes
        /// its event to `event_ret` unless that is null. `queue` is `i64`,
        /// `flags` `i32`.
        EnqueueKernel = "enqueue_kernel",
        /// `enqueue_marker queue, num_events, events, event_ret` gives
        /// `i32`: a command that completes when the events are complete;
        /// its event goes to `event_ret`.
        EnqueueMarker = "enqueue_marker",
        /// `get_default_queue` gives the default device queue (`i64`).
        GetDefaultQueue = "get_default_queue",
        /// `create_user_event` gives a new user event (`i64`).
        CreateUserEvent = "create_user_event",
        /// `retain_event e`.
        RetainEvent = "retain_event",
        /// `release_event e`.
        ReleaseEvent = "release_event",
        /// `set_user_event_status e, status` (`status` an `i32`).
        SetUserEventStatus = "set_user_event_status",
        /// `is_valid_event e` gives `i1`.
        IsValidEvent = "is_valid_event",
        /// `capture_event_profiling_info e, name, value`: when event `e`
        /// completes, the profiling information `name` (`i32`) goes to
        /// `value` (two `i64`s for `CLK_PROFILING_COMMAND_EXEC_TIME`).
        CaptureEventProfilingInfo = "capture_event_profiling_info",
        /// `get_kernel_work_group_size @k` gives `i32`.
        KernelWorkGroupSize = "get_kernel_work_group_size",
        /// `get_kernel_preferred_work_group_size_multiple @k` gives `i32`.
        KernelPreferredWorkGroupSizeMultiple = "get_kernel_preferred_work_group_size_multiple",
        /// `get_kernel_sub_group_count_for_ndrange @k ndrange` gives `i32`.
        KernelSubGroupCount = "get_kernel_sub_group_count_for_ndrange",
        /// `get_kernel_max_sub_group_size_for_ndrange @k ndrange` gives `i32`.
        KernelMaxSubGroupSize = "get_kernel_max_sub_group_size_for_ndrange",
    }
}

named_enum! {
    /// Work-item built-in functions.
    pub enum WorkItemQuery {
        GlobalId = "global_id",
        LocalId = "local_id",
        GroupId = "group_id",
        GlobalSize = "global_size",
        LocalSize = "local_size",
        EnqueuedLocalSize = "enqueued_local_size",
        NumGroups = "num_groups",
        GlobalOffset = "global_offset",
        WorkDim = "work_dim",
        GlobalLinearId = "global_linear_id",
        LocalLinearId = "local_linear_id",
        /// The subgroup queries (no dimension; they give `i32`). A subgroup
        /// is W consecutive work-items of the work-group by local linear id
        /// (W: the gang width the kernel runs at), the last one smaller when
        /// W does not divide the work-group's size. `sub_group_size`: the
        /// work-items of this one.
        SubGroupSize = "sub_group_size",
        /// `min(W, enqueued local size)`: the largest subgroup of the launch.
        MaxSubGroupSize = "max_sub_group_size",
        /// The subgroups of this work-group.
        NumSubGroups = "num_sub_groups",
        /// The subgroups of a work-group of the enqueued local size.
        EnqueuedNumSubGroups = "enqueued_num_sub_groups",
        /// `local linear id / W`.
        SubGroupId = "sub_group_id",
        /// `local linear id % W`.
        SubGroupLocalId = "sub_group_local_id",
    }
}

/// Which memory a fence or barrier orders: a set of `CLK_*_MEM_FENCE` flags,
/// with OpenCL's bit values.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FenceFlags(pub u8);

impl FenceFlags {
    pub const NONE: FenceFlags = FenceFlags(0);
    /// `CLK_LOCAL_MEM_FENCE`.
    pub const LOCAL: FenceFlags = FenceFlags(1);
    /// `CLK_GLOBAL_MEM_FENCE`.
    pub const GLOBAL: FenceFlags = FenceFlags(2);
    /// `CLK_IMAGE_MEM_FENCE`.
    pub const IMAGE: FenceFlags = FenceFlags(4);
    /// The flags with their text-format names.
    pub const NAMED: [(FenceFlags, &'static str); 3] = [
        (FenceFlags::LOCAL, "local"),
        (FenceFlags::GLOBAL, "global"),
        (FenceFlags::IMAGE, "image"),
    ];
}
