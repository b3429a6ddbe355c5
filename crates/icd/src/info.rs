//! Answers to `clGet*Info` queries: values as bytes, copied out with the
//! size checks every query shares.

use std::ffi::c_void;

use crate::cl::*;

/// A query's answer, as the bytes the caller receives.
pub struct Info(pub Vec<u8>);

impl Info {
    pub fn string(s: &str) -> Info {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        Info(bytes)
    }

    pub fn bool(b: bool) -> Info {
        Info::from(b as cl_bool)
    }

    pub fn ptr(p: *const c_void) -> Info {
        Info::from(p as usize)
    }

    pub fn list<T: Copy>(items: &[T]) -> Info {
        let len = std::mem::size_of_val(items);
        // SAFETY: plain `Copy` values read as bytes.
        let bytes = unsafe { std::slice::from_raw_parts(items.as_ptr() as *const u8, len) };
        Info(bytes.to_vec())
    }

    pub fn empty() -> Info {
        Info(Vec::new())
    }

    /// Copies the answer out: `CL_INVALID_VALUE` if `value` is given but
    /// smaller than the answer.
    ///
    /// # Safety
    /// `value` must be NULL or valid for `size` bytes; `size_ret` NULL or
    /// valid for a write.
    pub unsafe fn write(self, size: usize, value: *mut c_void, size_ret: *mut usize) -> cl_int {
        if !value.is_null() {
            if size < self.0.len() {
                return CL_INVALID_VALUE;
            }
            std::ptr::copy_nonoverlapping(self.0.as_ptr(), value as *mut u8, self.0.len());
        }
        if !size_ret.is_null() {
            *size_ret = self.0.len();
        }
        CL_SUCCESS
    }
}

macro_rules! info_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Info {
            fn from(x: $t) -> Info {
                Info(x.to_ne_bytes().to_vec())
            }
        }
    )*};
}
info_from!(u32, i32, u64, usize);

impl From<&str> for Info {
    fn from(s: &str) -> Info {
        Info::string(s)
    }
}

impl From<String> for Info {
    fn from(s: String) -> Info {
        Info::string(&s)
    }
}

/// A `cl_name_version` entry.
pub fn name_version(name: &str, version: cl_version) -> cl_name_version {
    let mut entry = cl_name_version {
        version,
        name: [0; CL_NAME_VERSION_MAX_NAME_SIZE as usize],
    };
    let n = name.len().min(entry.name.len() - 1);
    entry.name[..n].copy_from_slice(&name.as_bytes()[..n]);
    entry
}
