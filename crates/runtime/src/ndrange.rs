//! NDRanges: the global index space of a launch, with an optional local
//! (work-group) size and global offset.

/// The index space of a launch: 1 to 3 dimensions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NDRange {
    pub(crate) dims: u32,
    pub(crate) global: [u64; 3],
    pub(crate) local: Option<[u64; 3]>,
    pub(crate) offset: [u64; 3],
}

impl NDRange {
    /// A one-dimensional range of `global` work-items.
    pub fn new_1d(global: u64) -> NDRange {
        NDRange {
            dims: 1,
            global: [global, 1, 1],
            local: None,
            offset: [0; 3],
        }
    }

    pub fn new_2d(x: u64, y: u64) -> NDRange {
        NDRange {
            dims: 2,
            global: [x, y, 1],
            local: None,
            offset: [0; 3],
        }
    }

    pub fn new_3d(x: u64, y: u64, z: u64) -> NDRange {
        NDRange {
            dims: 3,
            global: [x, y, z],
            local: None,
            offset: [0; 3],
        }
    }

    /// A range of `dims` dimensions with the given sizes (entries past
    /// `dims` are ignored).
    pub fn new(dims: u32, global: [u64; 3]) -> NDRange {
        NDRange {
            dims,
            global,
            local: None,
            offset: [0; 3],
        }
    }

    /// Sets the work-group size (without it, Lockstep picks one).
    pub fn local(mut self, local: [u64; 3]) -> NDRange {
        self.local = Some(local);
        self
    }

    /// Sets the global offset (`get_global_offset`).
    pub fn offset(mut self, offset: [u64; 3]) -> NDRange {
        self.offset = offset;
        self
    }

    pub fn dims(&self) -> u32 {
        self.dims
    }

    pub fn global_size(&self) -> [u64; 3] {
        self.global
    }

    pub fn local_size(&self) -> Option<[u64; 3]> {
        self.local
    }

    pub fn global_offset(&self) -> [u64; 3] {
        self.offset
    }
}
