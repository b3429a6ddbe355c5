//! The kernel ABI: the interface between generated code and the runtime —
//! the work-group function's signature, the context record it reads, the
//! layout of a work-group's local memory, and the runtime functions
//! generated code calls.
//!
//! A compiled kernel specialization exports one function,
//! `void NAME(const GroupContext *ctx)`, that runs every gang of one
//! work-group. Everything the kernel needs at run time comes through the
//! context; everything known when compiling (the local size, the SIMD width)
//! is baked into the code.
//!
//! It lives in the IR crate because both sides of the contract build on it
//! without depending on each other: a back end (`lockstep-codegen`) writes
//! code that reads these records, and the runtime (`lockstep-runtime`),
//! which never links a back end, fills them in.

use crate::GlobalId;

/// The record a work-group function reads (`#[repr(C)]`, shared with the
/// generated code by field offsets).
#[repr(C)]
#[derive(Clone, Debug)]
pub struct GroupContext {
    /// One 8-byte slot per kernel argument: a buffer's address, a local
    /// argument's byte offset into `local_mem`, a by-value argument's
    /// address, or a scalar's bits (zero-extended).
    pub args: *const u64,
    /// Addresses of the program's `global`/`constant` variables, by `GlobalId`.
    pub globals: *const u64,
    /// This work-group's local memory: the kernel's `__local` variables at
    /// the offsets the compiled kernel reports, then the local arguments.
    pub local_mem: *mut u8,
    /// Opaque pointer handed to `lockstep_rt_printf` and
    /// `lockstep_rt_barrier_diverged`: where a launch collects what its
    /// work-items report.
    pub sink: *mut std::ffi::c_void,
    pub work_dim: u64,
    pub group_id: [u64; 3],
    pub global_size: [u64; 3],
    pub global_offset: [u64; 3],
    pub num_groups: [u64; 3],
    pub enqueued_local_size: [u64; 3],
    /// Scratch memory for this work-group's gangs (kernels with barriers
    /// keep each gang's state there between barriers): at least
    /// `gangs × gang_state` bytes of the compiled kernel, 64-byte aligned.
    pub scratch: *mut u8,
    /// How many work-groups this call runs: `group_id` and the ones after
    /// it along dimension 0, all of one size. Only a kernel compiled with
    /// lane refill ([`LocalLayout::refill`]) runs more than one; the others
    /// are called with 1.
    pub group_count: u64,
    /// Checked mode ([`CheckInfo`]): per kernel argument two words, the
    /// bytes it points to (a buffer's or `__local` argument's size, a
    /// by-value argument's size; 0 for NULL and scalars) and its
    /// [`arg_flags`]. Null when the code is not checked.
    pub arg_info: *const u64,
    /// Checked mode: opaque pointer handed to `lockstep_rt_check_failed`.
    pub check_sink: *mut std::ffi::c_void,
}

/// Bytes of memory the runtime keeps on each side of a work-group's local
/// memory (`GroupContext::local_mem`), owned by the same worker: generated
/// code may read and write back unchanged bytes there, as a vector access
/// whose lanes outside its mask reach past the group's `__local` objects
/// (a gang of 32 lanes of 8 bytes: 248 bytes on one side).
pub const LOCAL_GUARD: u64 = 256;

/// Byte offsets of `GroupContext`'s fields, as the generated code uses them.
pub mod offsets {
    pub const ARGS: u64 = 0;
    pub const GLOBALS: u64 = 8;
    pub const LOCAL_MEM: u64 = 16;
    pub const SINK: u64 = 24;
    pub const WORK_DIM: u64 = 32;
    pub const GROUP_ID: u64 = 40;
    pub const GLOBAL_SIZE: u64 = 64;
    pub const GLOBAL_OFFSET: u64 = 88;
    pub const NUM_GROUPS: u64 = 112;
    pub const ENQUEUED_LOCAL_SIZE: u64 = 136;
    pub const SCRATCH: u64 = 160;
    pub const GROUP_COUNT: u64 = 168;
    pub const ARG_INFO: u64 = 176;
    pub const CHECK_SINK: u64 = 184;
}

/// The flags word of an argument in [`GroupContext::arg_info`].
pub mod arg_flags {
    /// The kernel must not write the buffer (`CL_MEM_READ_ONLY`, `ro`).
    pub const READ_ONLY: u64 = 1;
    /// The kernel must not read the buffer (`CL_MEM_WRITE_ONLY`, `wo`).
    pub const WRITE_ONLY: u64 = 2;
}

/// What checked code tells the runtime about a failed access, packed in
/// one word (the `info` argument of `lockstep_rt_check_failed`), so that
/// no table has to travel with the compiled code (which the disk cache
/// keeps): the access, the object its pointer came from, the source line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CheckInfo {
    /// Bytes accessed (for `memcpy`/`memset`: 0, the size is per lane).
    pub size: u32,
    pub write: bool,
    /// The address space of the access.
    pub space: crate::AddrSpace,
    /// The object: what `lockstep_passes::analysis::Root` names.
    pub object: CheckObject,
    /// Source line (0: unknown).
    pub line: u32,
}

/// The object a checked access's pointer points into.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckObject {
    Arg(u32),
    Global(u32),
    Stack(u32),
}

impl CheckInfo {
    /// The packed word: write (bit 2), space (3 bits), object kind (2)
    /// and index (20), size (12), line (24).
    pub fn pack(&self) -> u64 {
        let space = match self.space {
            crate::AddrSpace::Private => 0,
            crate::AddrSpace::Global => 1,
            crate::AddrSpace::Constant => 2,
            crate::AddrSpace::Local => 3,
            crate::AddrSpace::Generic => 4,
        };
        let (kind, index) = match self.object {
            CheckObject::Arg(i) => (0, i),
            CheckObject::Global(i) => (1, i),
            CheckObject::Stack(i) => (2, i),
        };
        (self.write as u64) << 2
            | space << 3
            | kind << 6
            | ((index as u64) & 0xf_ffff) << 8
            | ((self.size as u64).min(0xfff)) << 28
            | ((self.line as u64) & 0xff_ffff) << 40
    }

    pub fn unpack(w: u64) -> CheckInfo {
        let space = match (w >> 3) & 7 {
            0 => crate::AddrSpace::Private,
            1 => crate::AddrSpace::Global,
            2 => crate::AddrSpace::Constant,
            3 => crate::AddrSpace::Local,
            _ => crate::AddrSpace::Generic,
        };
        let index = ((w >> 8) & 0xf_ffff) as u32;
        let object = match (w >> 6) & 3 {
            0 => CheckObject::Arg(index),
            1 => CheckObject::Global(index),
            _ => CheckObject::Stack(index),
        };
        CheckInfo {
            write: (w >> 2) & 1 != 0,
            space,
            object,
            size: ((w >> 28) & 0xfff) as u32,
            line: ((w >> 40) & 0xff_ffff) as u32,
        }
    }
}

/// The signature of a compiled work-group function.
pub type WorkGroupFn = unsafe extern "C" fn(ctx: *const GroupContext);

/// Where a kernel's `__local` variables live in a work-group's local memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalLayout {
    /// Byte offset of each local variable.
    pub offsets: Vec<(GlobalId, u64)>,
    /// Bytes the variables take (local arguments follow, 64-byte aligned).
    pub size: u64,
    /// For kernels with barriers: bytes of state each gang keeps between
    /// barriers (in `GroupContext::scratch`); 0 otherwise.
    pub gang_state: u64,
    /// Lane refill: one call runs `GroupContext::group_count` work-groups,
    /// each lane taking the next work-item when its last one is done.
    pub refill: bool,
}

/// The runtime's functions that generated code calls, by symbol
/// ([`runtime_symbols`]) and address.
pub type RuntimeFunctions<'a> = &'a [(&'a str, usize)];

/// Runtime functions generated code calls (the back end resolves them).
pub mod runtime_symbols {
    /// `void lockstep_rt_printf(void *sink, const char *format, u64 nargs,
    /// const u64 *arg_bits, const u8 *arg_types)`: one work-item's printf.
    pub const PRINTF: &str = "lockstep_rt_printf";
    /// `u64 lockstep_rt_convert(u64 bits, u32 from, u32 to, u32 op, u32 rounding, u32 saturate)`:
    /// one exact conversion with a rounding mode, as the interpreter does it.
    pub const CONVERT: &str = "lockstep_rt_convert";
    /// `void lockstep_rt_check_failed(void *sink, const GroupContext *ctx,
    /// u64 info, u64 site, u64 out_of_bounds, u64 unaligned, u64 mode,
    /// const u64 *local_linear_ids, const u64 *addresses, const u64
    /// *offsets, u64 object_size, u64 width)`: checked code found bad
    /// accesses ([`CheckInfo`] packed in `info`; `site` numbers the
    /// instruction): the lanes (bits) whose access leaves the object, is
    /// misaligned, or writes a read-only (reads a write-only) buffer; per
    /// lane (`width` of them) its local linear id, address, and offset
    /// from the object's start.
    ///
    /// [`CheckInfo`]: super::CheckInfo
    pub const CHECK_FAILED: &str = "lockstep_rt_check_failed";
    /// `void lockstep_rt_barrier_diverged(void *sink, const GroupContext
    /// *ctx, u64 line, u64 first_id, u64 arrived, u64 active)`: a gang
    /// reached the barrier at source `line` (0: unknown) with only the lanes
    /// `arrived` (bits) of its `active` ones; lane `l` holds the work-item
    /// of local linear id `first_id + l`. The gang stops there.
    pub const BARRIER_DIVERGED: &str = "lockstep_rt_barrier_diverged";
    /// `u64 lockstep_rt_device_enqueue(void *sink, u32 op, u32 kernel, u64
    /// nargs, const u64 *args)`: one work-item's device enqueue operation
    /// ([`crate::DeviceOp`] number `op`, [`crate::DeviceOp::code`]) with
    /// the bits of its `nargs` operands; `kernel` is the index of the
    /// kernel it names (`u32::MAX` for none). The result's bits (0 for an
    /// operation without a result).
    pub const DEVICE_ENQUEUE: &str = "lockstep_rt_device_enqueue";
}

/// The code of a scalar type in the runtime calls' argument type arrays.
pub fn type_code(t: crate::Type) -> u8 {
    use crate::Type;
    match t {
        Type::I1 => 0,
        Type::I8 => 1,
        Type::I16 => 2,
        Type::I32 => 3,
        Type::I64 => 4,
        Type::F16 => 5,
        Type::F32 => 6,
        Type::F64 => 7,
        Type::Ptr(_) => 8,
    }
}

/// The type a [`type_code`] stands for (pointers come back as `ptr.global`).
pub fn type_of_code(c: u8) -> crate::Type {
    use crate::Type;
    match c {
        0 => Type::I1,
        1 => Type::I8,
        2 => Type::I16,
        3 => Type::I32,
        4 => Type::I64,
        5 => Type::F16,
        6 => Type::F32,
        7 => Type::F64,
        _ => Type::Ptr(crate::AddrSpace::Global),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::offset_of;

    #[test]
    fn type_codes_round_trip() {
        use crate::{AddrSpace, Type};
        for t in [
            Type::I1,
            Type::I8,
            Type::I16,
            Type::I32,
            Type::I64,
            Type::F16,
            Type::F32,
            Type::F64,
            Type::Ptr(AddrSpace::Global),
        ] {
            assert_eq!(type_of_code(type_code(t)), t);
        }
    }

    #[test]
    fn check_info_round_trips() {
        let info = CheckInfo {
            size: 8,
            write: true,
            space: crate::AddrSpace::Local,
            object: CheckObject::Stack(77),
            line: 1234,
        };
        assert_eq!(CheckInfo::unpack(info.pack()), info);
    }

    #[test]
    fn offsets_match_the_struct() {
        assert_eq!(offset_of!(GroupContext, args) as u64, offsets::ARGS);
        assert_eq!(offset_of!(GroupContext, globals) as u64, offsets::GLOBALS);
        assert_eq!(
            offset_of!(GroupContext, local_mem) as u64,
            offsets::LOCAL_MEM
        );
        assert_eq!(offset_of!(GroupContext, sink) as u64, offsets::SINK);
        assert_eq!(offset_of!(GroupContext, work_dim) as u64, offsets::WORK_DIM);
        assert_eq!(
            offset_of!(GroupContext, group_count) as u64,
            offsets::GROUP_COUNT
        );
        assert_eq!(offset_of!(GroupContext, arg_info) as u64, offsets::ARG_INFO);
        assert_eq!(
            offset_of!(GroupContext, check_sink) as u64,
            offsets::CHECK_SINK
        );
        assert_eq!(offset_of!(GroupContext, group_id) as u64, offsets::GROUP_ID);
        assert_eq!(
            offset_of!(GroupContext, global_size) as u64,
            offsets::GLOBAL_SIZE
        );
        assert_eq!(
            offset_of!(GroupContext, global_offset) as u64,
            offsets::GLOBAL_OFFSET
        );
        assert_eq!(
            offset_of!(GroupContext, num_groups) as u64,
            offsets::NUM_GROUPS
        );
        assert_eq!(
            offset_of!(GroupContext, enqueued_local_size) as u64,
            offsets::ENQUEUED_LOCAL_SIZE
        );
    }
}
