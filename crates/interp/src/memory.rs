//! Memory: regions addressed by tagged 64-bit pointers, every access
//! bounds-checked.
//!
//! An address is `region << 40 | offset`: the high 24 bits name a region
//! (a buffer argument, a program-scope variable, a `__local` argument or
//! variable of the current work-group, a stack slot or by-value copy of one
//! work-item), the low 40 bits are a byte offset into it. Region 0 does not
//! exist, so the null pointer (0) and small integers cast to pointers fault.
//! The tag survives `ptrtoint`, `inttoptr` and `addrspacecast`, so a generic
//! pointer reaches whatever region it came from. `ptradd` changes only the
//! offset (modulo 2^40), so running off the start of a region shows up as a
//! negative offset into the same region rather than as another region.

use lockstep_ir::AddrSpace;

pub const OFFSET_BITS: u32 = 40;
pub const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
/// Region ids are 24 bits.
pub const MAX_REGIONS: usize = 1 << 24;

/// The address of byte `offset` of `region`.
#[inline]
pub fn addr(region: u32, offset: u64) -> u64 {
    ((region as u64) << OFFSET_BITS) | (offset & OFFSET_MASK)
}

#[inline]
pub fn region_of(addr: u64) -> u32 {
    (addr >> OFFSET_BITS) as u32
}

#[inline]
pub fn offset_of(addr: u64) -> u64 {
    addr & OFFSET_MASK
}

/// An offset as reported in errors: offsets in the top half of the 40-bit
/// range are negative (a pointer moved before its region's start).
pub fn signed_offset(offset: u64) -> i64 {
    let s = 64 - OFFSET_BITS;
    ((offset << s) as i64) >> s
}

/// Which memory a region belongs to (what checked mode tracks).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Constant,
    Local,
    Private,
}

impl Space {
    pub fn of(space: AddrSpace) -> Space {
        match space {
            AddrSpace::Global | AddrSpace::Generic => Space::Global,
            AddrSpace::Constant => Space::Constant,
            AddrSpace::Local => Space::Local,
            AddrSpace::Private => Space::Private,
        }
    }
}

enum Bytes<'a> {
    Borrowed(&'a mut [u8]),
    Owned(Vec<u8>),
}

impl Bytes<'_> {
    #[inline]
    fn get(&self) -> &[u8] {
        match self {
            Bytes::Borrowed(b) => b,
            Bytes::Owned(v) => v,
        }
    }

    #[inline]
    fn get_mut(&mut self) -> &mut [u8] {
        match self {
            Bytes::Borrowed(b) => b,
            Bytes::Owned(v) => v,
        }
    }
}

/// What a region is, for messages.
#[derive(Clone, Debug)]
pub enum RegionName {
    /// "argument 1 'x'", "__constant variable @table", ...
    Text(String),
    /// Stack slot `slot` of the function with index `func`.
    StackSlot { func: u32, slot: u32 },
}

/// One block of addressable memory.
pub struct Region<'a> {
    bytes: Bytes<'a>,
    pub name: RegionName,
    pub space: Space,
    pub read_only: bool,
    pub live: bool,
    /// A buffer argument the kernel must not write (`CL_MEM_READ_ONLY`,
    /// `const`) or read (`CL_MEM_WRITE_ONLY`): checked mode reports the
    /// accesses (they still happen).
    pub mode: AccessMode,
}

/// How a kernel may use a buffer argument ([`Region::mode`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum AccessMode {
    #[default]
    ReadWrite,
    ReadOnly,
    WriteOnly,
}

/// Why an access failed; the interpreter adds the instruction and work-item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    OutOfBounds { region: u32, offset: u64, size: u64 },
    ReadOnly { region: u32 },
}

pub struct Memory<'a> {
    regions: Vec<Region<'a>>,
    free: Vec<u32>,
    /// Reused by `memcpy`.
    scratch: Vec<u8>,
}

impl Default for Memory<'_> {
    fn default() -> Self {
        Memory::new()
    }
}

impl<'a> Memory<'a> {
    pub fn new() -> Memory<'a> {
        // Region 0 is the null region: empty and never live.
        Memory {
            regions: vec![Region {
                bytes: Bytes::Owned(Vec::new()),
                name: RegionName::Text("null pointer".into()),
                space: Space::Private,
                read_only: true,
                live: false,
                mode: AccessMode::ReadWrite,
            }],
            free: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Adds a region over memory the caller owns (a buffer argument).
    pub fn add_borrowed(
        &mut self,
        bytes: &'a mut [u8],
        name: RegionName,
        space: Space,
        read_only: bool,
    ) -> Option<u32> {
        self.push(Bytes::Borrowed(bytes), name, space, read_only)
    }

    fn push(
        &mut self,
        bytes: Bytes<'a>,
        name: RegionName,
        space: Space,
        read_only: bool,
    ) -> Option<u32> {
        if self.regions.len() >= MAX_REGIONS || bytes.get().len() as u64 > OFFSET_MASK {
            return None;
        }
        self.regions.push(Region {
            bytes,
            name,
            space,
            read_only,
            live: true,
            mode: AccessMode::ReadWrite,
        });
        Some((self.regions.len() - 1) as u32)
    }

    /// Allocates a zeroed region of `size` bytes, reusing a freed one's
    /// storage if there is one. `None` when the 24-bit region ids run out.
    pub fn alloc(&mut self, size: u64, name: RegionName, space: Space) -> Option<u32> {
        if size > OFFSET_MASK {
            return None;
        }
        if let Some(id) = self.free.pop() {
            let r = &mut self.regions[id as usize];
            if let Bytes::Owned(v) = &mut r.bytes {
                v.clear();
                v.resize(size as usize, 0);
            }
            r.name = name;
            r.space = space;
            r.read_only = false;
            r.live = true;
            r.mode = AccessMode::ReadWrite;
            return Some(id);
        }
        self.push(Bytes::Owned(vec![0; size as usize]), name, space, false)
    }

    /// Frees an allocated region: later accesses through old pointers fault
    /// (until the id is reused).
    pub fn free(&mut self, id: u32) {
        if let Some(r) = self.regions.get_mut(id as usize) {
            if r.live && matches!(r.bytes, Bytes::Owned(_)) {
                r.live = false;
                self.free.push(id);
            }
        }
    }

    pub fn region(&self, id: u32) -> Option<&Region<'a>> {
        self.regions.get(id as usize)
    }

    pub fn region_len(&self, id: u32) -> u64 {
        self.regions
            .get(id as usize)
            .map_or(0, |r| r.bytes.get().len() as u64)
    }

    /// The whole contents of a region (for initialization).
    pub fn contents_mut(&mut self, id: u32) -> &mut [u8] {
        self.regions[id as usize].bytes.get_mut()
    }

    #[inline]
    fn locate(&self, addr: u64, size: u64) -> Result<(usize, usize), Fault> {
        let id = region_of(addr);
        let offset = offset_of(addr);
        if let Some(r) = self.regions.get(id as usize) {
            let len = r.bytes.get().len() as u64;
            if r.live && offset <= len && size <= len - offset {
                return Ok((id as usize, offset as usize));
            }
        }
        Err(Fault::OutOfBounds {
            region: id,
            offset,
            size,
        })
    }

    /// `size` bytes at `addr`, for reading.
    #[inline]
    pub fn bytes(&self, addr: u64, size: u64) -> Result<&[u8], Fault> {
        let (id, off) = self.locate(addr, size)?;
        Ok(&self.regions[id].bytes.get()[off..off + size as usize])
    }

    /// `size` bytes at `addr`, for writing (not in read-only memory).
    #[inline]
    pub fn bytes_mut(&mut self, addr: u64, size: u64) -> Result<&mut [u8], Fault> {
        let (id, off) = self.locate(addr, size)?;
        let r = &mut self.regions[id];
        if r.read_only {
            return Err(Fault::ReadOnly { region: id as u32 });
        }
        Ok(&mut r.bytes.get_mut()[off..off + size as usize])
    }

    /// Loads a little-endian value of `size` (1, 2, 4 or 8) bytes.
    #[inline]
    pub fn load(&self, addr: u64, size: u32) -> Result<u64, Fault> {
        let b = self.bytes(addr, size as u64)?;
        Ok(match size {
            1 => b[0] as u64,
            2 => u16::from_le_bytes([b[0], b[1]]) as u64,
            4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64,
            _ => {
                let mut w = [0u8; 8];
                w[..b.len()].copy_from_slice(b);
                u64::from_le_bytes(w)
            }
        })
    }

    /// Stores the low `size` bytes of `value`, little-endian.
    #[inline]
    pub fn store(&mut self, addr: u64, size: u32, value: u64) -> Result<(), Fault> {
        let b = self.bytes_mut(addr, size as u64)?;
        let le = value.to_le_bytes();
        b.copy_from_slice(&le[..size as usize]);
        Ok(())
    }

    /// Copies `n` bytes from `src` to `dst` (the ranges may overlap).
    pub fn copy(&mut self, dst: u64, src: u64, n: u64) -> Result<(), Fault> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let result = self.bytes(src, n).map(|b| scratch.extend_from_slice(b));
        let result =
            result.and_then(|()| self.bytes_mut(dst, n).map(|d| d.copy_from_slice(&scratch)));
        self.scratch = scratch;
        result
    }

    /// The NUL-terminated string at `addr` (without the NUL), or a fault if
    /// it runs off its region.
    pub fn c_string(&self, addr: u64) -> Result<Vec<u8>, Fault> {
        let id = region_of(addr);
        let len = self.region_len(id);
        let offset = offset_of(addr);
        let rest = self.bytes(addr, len.saturating_sub(offset))?;
        match rest.iter().position(|&b| b == 0) {
            Some(n) => Ok(rest[..n].to_vec()),
            None => Err(Fault::OutOfBounds {
                region: id,
                offset: offset + rest.len() as u64,
                size: 1,
            }),
        }
    }

    pub fn set_mode(&mut self, id: u32, mode: AccessMode) {
        self.regions[id as usize].mode = mode;
    }

    pub fn set_read_only(&mut self, id: u32) {
        self.regions[id as usize].read_only = true;
    }

    /// Describes a region for an error message; `name` renders a region's
    /// name.
    pub fn describe(&self, id: u32, name: &dyn Fn(&RegionName) -> String) -> (String, Option<u64>) {
        match self.regions.get(id as usize) {
            Some(r) if id == 0 => (name(&r.name), None),
            Some(r) if r.live => (name(&r.name), Some(r.bytes.get().len() as u64)),
            Some(r) => (format!("freed memory (was {})", name(&r.name)), None),
            None => (format!("an invalid pointer (region {id})"), None),
        }
    }
}
