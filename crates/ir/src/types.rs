//! Value types and address spaces.

use std::fmt;

/// An OpenCL address space. Pointers carry theirs in their type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AddrSpace {
    /// Per work-item memory: stack slots, byval arguments.
    Private,
    /// Device memory shared by all work-groups (`__global`).
    Global,
    /// Read-only device memory (`__constant`).
    Constant,
    /// Per work-group memory (`__local`).
    Local,
    /// OpenCL 2.0 generic pointers: any of private, global or local.
    Generic,
}

impl AddrSpace {
    pub const ALL: [AddrSpace; 5] = [
        AddrSpace::Private,
        AddrSpace::Global,
        AddrSpace::Constant,
        AddrSpace::Local,
        AddrSpace::Generic,
    ];

    /// The name used in the text format and in OpenCL's address qualifiers.
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Private => "private",
            AddrSpace::Global => "global",
            AddrSpace::Constant => "constant",
            AddrSpace::Local => "local",
            AddrSpace::Generic => "generic",
        }
    }

    pub fn from_name(name: &str) -> Option<AddrSpace> {
        AddrSpace::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for AddrSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type of a value. Lockstep IR is scalar: OpenCL vectors are split into
/// one value per component by the front end.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// A boolean; comparisons produce it, branches and selects consume it.
    I1,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
    /// A pointer (64 bits, as on `spir64`) into the given address space.
    Ptr(AddrSpace),
}

impl Type {
    pub fn is_int(self) -> bool {
        matches!(
            self,
            Type::I1 | Type::I8 | Type::I16 | Type::I32 | Type::I64
        )
    }

    pub fn is_float(self) -> bool {
        matches!(self, Type::F16 | Type::F32 | Type::F64)
    }

    pub fn is_ptr(self) -> bool {
        matches!(self, Type::Ptr(_))
    }

    /// The address space of a pointer type.
    pub fn addr_space(self) -> Option<AddrSpace> {
        match self {
            Type::Ptr(space) => Some(space),
            _ => None,
        }
    }

    /// Width in bits (`i1` is 1 bit; pointers are 64).
    pub fn bits(self) -> u32 {
        match self {
            Type::I1 => 1,
            Type::I8 => 8,
            Type::I16 | Type::F16 => 16,
            Type::I32 | Type::F32 => 32,
            Type::I64 | Type::F64 | Type::Ptr(_) => 64,
        }
    }

    /// Size in memory, in bytes (`i1` occupies one byte).
    pub fn bytes(self) -> u32 {
        self.bits().div_ceil(8)
    }

    /// The integer type of the given width, if there is one.
    pub fn int_of_bits(bits: u32) -> Option<Type> {
        match bits {
            1 => Some(Type::I1),
            8 => Some(Type::I8),
            16 => Some(Type::I16),
            32 => Some(Type::I32),
            64 => Some(Type::I64),
            _ => None,
        }
    }

    /// The float type of the given width, if there is one.
    pub fn float_of_bits(bits: u32) -> Option<Type> {
        match bits {
            16 => Some(Type::F16),
            32 => Some(Type::F32),
            64 => Some(Type::F64),
            _ => None,
        }
    }

    /// Mask of the bits an integer of this type holds, within a `u64`.
    pub fn int_mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    /// Parses the text-format name of a type (`i32`, `f64`, `ptr.global`).
    pub fn from_name(name: &str) -> Option<Type> {
        Some(match name {
            "i1" => Type::I1,
            "i8" => Type::I8,
            "i16" => Type::I16,
            "i32" => Type::I32,
            "i64" => Type::I64,
            "f16" => Type::F16,
            "f32" => Type::F32,
            "f64" => Type::F64,
            _ => Type::Ptr(AddrSpace::from_name(name.strip_prefix("ptr.")?)?),
        })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::I1 => f.write_str("i1"),
            Type::I8 => f.write_str("i8"),
            Type::I16 => f.write_str("i16"),
            Type::I32 => f.write_str("i32"),
            Type::I64 => f.write_str("i64"),
            Type::F16 => f.write_str("f16"),
            Type::F32 => f.write_str("f32"),
            Type::F64 => f.write_str("f64"),
            Type::Ptr(space) => write!(f, "ptr.{space}"),
        }
    }
}
