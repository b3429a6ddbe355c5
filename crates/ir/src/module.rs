//! Modules: the kernels, helper functions and program-scope variables of one
//! OpenCL program, with the metadata the runtime reports about kernels.

use cranelift_entity::PrimaryMap;

use crate::entities::{FuncId, GlobalId};
use crate::function::Function;
use crate::types::AddrSpace;

/// A compiled OpenCL program.
#[derive(Clone, Debug, Default)]
pub struct Module {
    pub functions: PrimaryMap<FuncId, Function>,
    pub globals: PrimaryMap<GlobalId, GlobalData>,
}

impl Module {
    pub fn new() -> Module {
        Module::default()
    }

    /// The function named `name`, if any.
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .find(|(_, f)| f.name == name)
            .map(|(id, _)| id)
    }

    /// The program-scope variable named `name`, if any.
    pub fn global_by_name(&self, name: &str) -> Option<GlobalId> {
        self.globals
            .iter()
            .find(|(_, g)| g.name == name)
            .map(|(id, _)| id)
    }

    /// The kernels, in definition order.
    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions.iter().filter(|(_, f)| f.is_kernel())
    }
}

/// A program-scope variable: `__constant` data, a `__global` variable, or a
/// `__local` array declared in a kernel (one instance per work-group).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalData {
    pub name: String,
    pub space: AddrSpace,
    pub size: u64,
    pub align: u32,
    /// Initial bytes (`size` of them); `None` means zero-initialized (for
    /// `local`: uninitialized).
    pub init: Option<Vec<u8>>,
    /// Addresses of other variables stored into the initial bytes.
    pub relocs: Vec<Reloc>,
}

/// "At byte `offset` of the initializer, store the 64-bit address of
/// `target` plus `addend`."
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Reloc {
    pub offset: u64,
    pub target: GlobalId,
    pub addend: i64,
}

/// What the runtime knows about a kernel beyond its signature.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelInfo {
    /// One entry per kernel parameter.
    pub args: Vec<ArgInfo>,
    /// `__attribute__((reqd_work_group_size(x, y, z)))`.
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// `__attribute__((work_group_size_hint(x, y, z)))`.
    pub work_group_size_hint: Option<[u32; 3]>,
    /// `__attribute__((vec_type_hint(T)))`, the type's name.
    pub vec_type_hint: Option<String>,
    /// `__attribute__((intel_reqd_sub_group_size(n)))`: the subgroup size
    /// (and so the gang width) the kernel runs at, 4, 8, 16 or 32.
    pub reqd_sub_group_size: Option<u32>,
    /// The kernel clang made of a block that a kernel enqueues (its first
    /// argument is the block literal, the others `__local` memory for the
    /// block's `local void *` parameters): it runs only as a child
    /// kernel, so the host neither lists nor creates it. Printed
    /// `enqueued_block`.
    pub enqueued_block: bool,
}

/// A kernel argument as `clGetKernelArgInfo` reports it. The address
/// qualifier follows from the parameter's type (a pointer's address space;
/// `private` otherwise).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArgInfo {
    pub name: String,
    /// The type as written in the source (`float*`, `uint4`, `struct S`).
    pub type_name: String,
    pub access: AccessQual,
    pub qualifiers: TypeQuals,
    /// For a struct passed by value: the parameter is a `ptr.private` to a
    /// copy of `size` bytes aligned to `align` that the runtime provides.
    pub byval: Option<ByVal>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ByVal {
    pub size: u32,
    pub align: u32,
}

/// Image access qualifiers (`none` for everything that is not an image).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum AccessQual {
    #[default]
    None,
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl AccessQual {
    pub const ALL: [AccessQual; 4] = [
        AccessQual::None,
        AccessQual::ReadOnly,
        AccessQual::WriteOnly,
        AccessQual::ReadWrite,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AccessQual::None => "none",
            AccessQual::ReadOnly => "read_only",
            AccessQual::WriteOnly => "write_only",
            AccessQual::ReadWrite => "read_write",
        }
    }

    pub fn from_name(name: &str) -> Option<AccessQual> {
        AccessQual::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// Type qualifiers of a kernel argument (`clGetKernelArgInfo`'s bit set).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeQuals {
    pub is_const: bool,
    pub is_restrict: bool,
    pub is_volatile: bool,
    pub is_pipe: bool,
}
