//! Buffers: 128-byte aligned host memory that kernels read and write.
//!
//! A [`Buffer<T>`] is a cheap handle (clone it freely) to shared storage.
//! Host access and launches are serialized by a lock per buffer, so a buffer
//! is never read by the host while a kernel writes it. Whoever locks more
//! than one storage at once goes through [`lock_all`], which takes the locks
//! in one global order (the storages' creation serials) and each storage
//! once: two launches or copies over the same buffers in opposite argument
//! order cannot deadlock, nor can one that names a buffer twice.

use std::alloc::{alloc_zeroed, dealloc, Layout};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Alignment of every buffer: the widest OpenCL C type (`long16`, `double16`:
/// 128 bytes), so any vector access is aligned; the device reports it as
/// `CL_DEVICE_MEM_BASE_ADDR_ALIGN` (1024 bits) and sub-buffer origins must be
/// multiples of it.
pub const BUFFER_ALIGN: usize = 128;

/// Plain data that can live in a buffer: any bit pattern is a valid value
/// and there is no padding.
///
/// # Safety
/// Implementors must be `Copy`, have no padding bytes, and accept every bit
/// pattern.
pub unsafe trait Pod: Copy + Send + Sync + 'static {}

macro_rules! pod {
    ($($t:ty),*) => { $(unsafe impl Pod for $t {})* };
}
pod!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);
unsafe impl<T: Pod, const N: usize> Pod for [T; N] {}

/// The storage behind buffers: aligned, zero-initialized bytes.
/// Opaque: the storage of a buffer (see [`Buffer`]).
pub struct Storage {
    ptr: NonNull<u8>,
    len: usize,
    /// Host reads take it shared; host writes and launches exclusive.
    pub(crate) lock: RwLock<()>,
    backing: Backing,
    /// Unique per storage, increasing in creation order: the lock order.
    serial: u64,
    /// How kernels may use it (`lockstep_ir::abi::arg_flags`: read-only,
    /// write-only), what checked mode enforces.
    kernel_access: AtomicU64,
}

/// The next storage's serial.
fn next_serial() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Storages from this size up are mapped from the OS rather than taken
/// from the allocator: creating one costs no time or memory until touched.
const MAP_THRESHOLD: usize = 1 << 20;

/// Memory for a buffer could not be allocated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a buffer of {len} bytes")]
pub struct AllocError {
    pub len: usize,
}

/// How a command uses a storage it locks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

/// A held storage lock (shared or exclusive).
pub enum StorageGuard<'a> {
    Read(RwLockReadGuard<'a, ()>),
    Write(RwLockWriteGuard<'a, ()>),
}

/// Locks every distinct storage of `uses` once (exclusively if any use of it
/// writes) in ascending serial order, the one global lock order: threads
/// that lock overlapping sets of storages in any argument order cannot
/// deadlock, and a storage named twice is not locked twice.
pub fn lock_all<'a>(
    uses: impl IntoIterator<Item = (&'a Storage, Access)>,
) -> Vec<StorageGuard<'a>> {
    let mut uses: Vec<(&Storage, Access)> = uses.into_iter().collect();
    uses.sort_by_key(|(s, _)| s.serial);
    let mut guards = Vec::with_capacity(uses.len());
    let mut i = 0;
    while i < uses.len() {
        let storage = uses[i].0;
        let mut access = Access::Read;
        while i < uses.len() && uses[i].0.serial == storage.serial {
            if uses[i].1 == Access::Write {
                access = Access::Write;
            }
            i += 1;
        }
        guards.push(match access {
            Access::Read => StorageGuard::Read(storage.read_lock()),
            Access::Write => StorageGuard::Write(storage.write_lock()),
        });
    }
    guards
}

/// Who owns a storage's bytes.
enum Backing {
    /// Allocated ([`BUFFER_ALIGN`]-aligned) by the storage, freed when it drops.
    Owned,
    /// Mapped (zero pages on first touch) by the storage, unmapped when it
    /// drops: the mapping starts `offset` bytes before the storage's bytes.
    Mapped { offset: usize },
    /// Host memory the caller owns and keeps alive (OpenCL's
    /// `CL_MEM_USE_HOST_PTR`).
    Host,
    /// A range of another storage (an OpenCL sub-buffer), kept alive here.
    Range(#[allow(dead_code)] Arc<Storage>),
}

// SAFETY: access to the bytes goes through `lock`.
unsafe impl Send for Storage {}
unsafe impl Sync for Storage {}

impl Storage {
    /// Declares how kernels may use this storage: `lockstep_ir::abi::arg_flags`
    /// bits (`READ_ONLY` for `CL_MEM_READ_ONLY`, `WRITE_ONLY` for
    /// `CL_MEM_WRITE_ONLY`). Checked mode reports the accesses that break it.
    pub fn set_kernel_access(&self, flags: u64) {
        self.kernel_access.store(flags, Ordering::Relaxed);
    }

    /// The flags [`Storage::set_kernel_access`] set (0: read and write).
    pub fn kernel_access(&self) -> u64 {
        self.kernel_access.load(Ordering::Relaxed)
    }

    /// `len` zeroed bytes from `alloc_zeroed`: large sizes come straight
    /// from the OS as untouched zero pages (nothing is written up front),
    /// and a failure is an error, not an abort.
    fn new(len: usize) -> Result<Storage, AllocError> {
        if len >= MAP_THRESHOLD {
            return Storage::mapped(len);
        }
        let layout = Storage::layout(len).ok_or(AllocError { len })?;
        // SAFETY: the layout has a nonzero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        let ptr = NonNull::new(ptr).ok_or(AllocError { len })?;
        Ok(Storage {
            ptr,
            len,
            lock: RwLock::new(()),
            backing: Backing::Owned,
            serial: next_serial(),
            kernel_access: AtomicU64::new(0),
        })
    }

    /// The allocation of an owned storage of `len` bytes: whole
    /// [`BUFFER_ALIGN`] blocks, so a vector access that starts inside the buffer (a
    /// `float4` load from a 4-byte buffer) stays inside the allocation.
    fn layout(len: usize) -> Option<Layout> {
        let size = len.max(1).checked_next_multiple_of(BUFFER_ALIGN)?;
        Layout::from_size_align(size, BUFFER_ALIGN).ok()
    }

    /// `len` bytes of anonymous memory from `mmap`: page aligned, and zero
    /// pages the OS provides when first touched (the allocator's
    /// `alloc_zeroed` writes zeros up front for alignments over 16).
    fn mapped(len: usize) -> Result<Storage, AllocError> {
        // Buffers start at different 128-byte steps within their first page
        // (128 bytes: the alignment of the widest OpenCL type, `long16`):
        // page-aligned buffers put `x[i]`, `y[i]` and `z[i]` of a streaming
        // kernel at the same address bits below 4 KiB, and the CPU then
        // mistakes loads for dependent on earlier stores (4K aliasing):
        // saxpy in lockstep-bench took 17 ms instead of 12.
        let serial = next_serial();
        let offset = (serial as usize % 31 + 1) * 128;
        let map_len = len.checked_add(offset).ok_or(AllocError { len })?;
        // SAFETY: an anonymous private mapping at an address the OS picks.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return Err(AllocError { len });
        }
        // Transparent huge pages where the system gives them on request
        // (`madvise` mode, Debian's default): a kernel streaming through
        // large buffers misses the TLB once per 2 MiB instead of once per
        // 4 KiB. Only advice: without it the mapping works the same.
        // SAFETY: the range is the mapping just made.
        unsafe { libc::madvise(base, map_len, libc::MADV_HUGEPAGE) };
        // SAFETY: `offset` < `map_len`, inside the mapping.
        let ptr = unsafe { (base as *mut u8).add(offset) };
        Ok(Storage {
            ptr: NonNull::new(ptr).ok_or(AllocError { len })?,
            len,
            lock: RwLock::new(()),
            backing: Backing::Mapped { offset },
            serial,
            kernel_access: AtomicU64::new(0),
        })
    }

    /// `len` zeroed bytes, [`BUFFER_ALIGN`]-aligned.
    ///
    /// # Panics
    /// If the memory cannot be allocated; [`Storage::try_zeroed`] returns
    /// an error instead.
    pub fn zeroed(len: usize) -> Arc<Storage> {
        Storage::try_zeroed(len).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `len` zeroed bytes, [`BUFFER_ALIGN`]-aligned, or an error if the memory
    /// cannot be allocated.
    pub fn try_zeroed(len: usize) -> Result<Arc<Storage>, AllocError> {
        Storage::new(len).map(Arc::new)
    }

    /// Storage over `len` bytes of memory the caller owns: kernels read and
    /// write it in place (OpenCL's `CL_MEM_USE_HOST_PTR`).
    ///
    /// # Safety
    /// `ptr` must be valid for reads and writes of `len` bytes, aligned for
    /// the types kernels access through it, for as long as the storage (and
    /// any range of it) lives.
    pub unsafe fn from_host_ptr(ptr: NonNull<u8>, len: usize) -> Arc<Storage> {
        Arc::new(Storage {
            ptr,
            len,
            lock: RwLock::new(()),
            backing: Backing::Host,
            serial: next_serial(),
            kernel_access: AtomicU64::new(0),
        })
    }

    /// The bytes `offset..offset + len` of `parent` as a storage of their own
    /// (an OpenCL sub-buffer); `None` if the range does not fit. The range
    /// keeps `parent` alive. It has its own lock: launches that use a
    /// parent and a range of it together must not race on the same bytes,
    /// as OpenCL requires.
    pub fn range(parent: &Arc<Storage>, offset: usize, len: usize) -> Option<Arc<Storage>> {
        if offset.checked_add(len)? > parent.len {
            return None;
        }
        // SAFETY: the range is inside the parent's allocation.
        let ptr = unsafe { NonNull::new_unchecked(parent.ptr.as_ptr().add(offset)) };
        Some(Arc::new(Storage {
            ptr,
            len,
            lock: RwLock::new(()),
            backing: Backing::Range(parent.clone()),
            serial: next_serial(),
            kernel_access: AtomicU64::new(0),
        }))
    }

    /// Size in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The start of the bytes. Reading or writing them needs `lock`
    /// (shared for reading, exclusive for writing); OpenCL hosts that map a
    /// buffer use it directly, as the API allows.
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Held while reading the bytes.
    pub fn read_lock(&self) -> RwLockReadGuard<'_, ()> {
        self.lock.read().unwrap_or_else(|e| e.into_inner())
    }

    /// Held while writing the bytes.
    pub fn write_lock(&self) -> RwLockWriteGuard<'_, ()> {
        self.lock.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Fills bytes `range` with copies of `pattern`, under the write lock
    /// (see [`fill_bytes`]).
    ///
    /// # Panics
    /// If `range` is not inside the storage, `pattern` is empty or the
    /// range's length is not a multiple of the pattern's.
    pub fn fill(&self, range: std::ops::Range<usize>, pattern: &[u8]) {
        assert!(
            range.start <= range.end && range.end <= self.len,
            "filling bytes {range:?} of a storage of {}",
            self.len
        );
        let _guard = self.write_lock();
        // SAFETY: exclusive lock held; the range is inside the storage.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(self.as_ptr().add(range.start), range.len()) };
        fill_bytes(bytes, pattern);
    }

    /// The address of the bytes (what kernels see as the buffer's pointer).
    pub(crate) fn id(&self) -> usize {
        self.ptr.as_ptr() as usize
    }

    /// Unique among storages, increasing in creation order.
    pub fn serial(&self) -> u64 {
        self.serial
    }
}

impl Drop for Storage {
    fn drop(&mut self) {
        match self.backing {
            Backing::Owned => {
                let layout = Storage::layout(self.len).expect("checked at creation");
                // SAFETY: allocated in `new` with this layout.
                unsafe { dealloc(self.ptr.as_ptr(), layout) }
            }
            Backing::Mapped { offset } => {
                // SAFETY: mapped in `mapped`, `offset` bytes before `ptr`,
                // `offset + len` long; nothing refers to it once the
                // storage (and its ranges) are gone.
                unsafe {
                    libc::munmap(
                        self.ptr.as_ptr().sub(offset) as *mut libc::c_void,
                        self.len + offset,
                    )
                };
            }
            Backing::Host | Backing::Range(_) => {}
        }
    }
}

/// A device buffer of `T` elements in host memory.
pub struct Buffer<T: Pod> {
    pub(crate) storage: Arc<Storage>,
    _elem: PhantomData<T>,
}

impl<T: Pod> Clone for Buffer<T> {
    fn clone(&self) -> Self {
        Buffer {
            storage: self.storage.clone(),
            _elem: PhantomData,
        }
    }
}

impl<T: Pod> Buffer<T> {
    /// Declares how kernels may use the buffer ([`Storage::set_kernel_access`]).
    pub fn set_kernel_access(&self, flags: u64) {
        self.storage.set_kernel_access(flags);
    }

    /// A buffer of `len` zeroed elements.
    ///
    /// # Panics
    /// If the memory cannot be allocated ([`Buffer::try_zeroed`] returns an
    /// error instead).
    pub fn zeroed(len: usize) -> Buffer<T> {
        Buffer::try_zeroed(len).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A buffer of `len` zeroed elements, or an error if the memory cannot
    /// be allocated.
    pub fn try_zeroed(len: usize) -> Result<Buffer<T>, AllocError> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or(AllocError { len: usize::MAX })?;
        Ok(Buffer {
            storage: Storage::try_zeroed(bytes)?,
            _elem: PhantomData,
        })
    }

    /// A buffer holding a copy of `data`.
    pub fn from_slice(data: &[T]) -> Buffer<T> {
        let buffer = Buffer::zeroed(data.len());
        buffer.write(data);
        buffer
    }

    /// A buffer holding a copy of `data`, or an error if the memory cannot
    /// be allocated.
    pub fn try_from_slice(data: &[T]) -> Result<Buffer<T>, AllocError> {
        let buffer = Buffer::try_zeroed(data.len())?;
        buffer.write(data);
        Ok(buffer)
    }

    /// The storage behind the buffer (for binding it as [`ArgValue::Buffer`](crate::ArgValue)).
    pub fn storage(&self) -> &Arc<Storage> {
        &self.storage
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.storage.len() / std::mem::size_of::<T>().max(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Size in bytes.
    pub fn byte_len(&self) -> usize {
        self.storage.len()
    }

    /// Copies the contents out.
    pub fn read(&self) -> Vec<T> {
        let _guard = self.storage.read_lock();
        // SAFETY: shared lock held; `T` is Pod and the storage is aligned to BUFFER_ALIGN.
        let elems =
            unsafe { std::slice::from_raw_parts(self.storage.as_ptr() as *const T, self.len()) };
        elems.to_vec()
    }

    /// Overwrites the first `data.len()` elements.
    ///
    /// # Panics
    /// If `data` is longer than the buffer.
    pub fn write(&self, data: &[T]) {
        assert!(
            data.len() <= self.len(),
            "writing {} elements into a buffer of {}",
            data.len(),
            self.len()
        );
        let _guard = self.storage.write_lock();
        // SAFETY: exclusive lock held; sizes checked above.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(self.storage.as_ptr(), self.storage.len()) };
        let src = unsafe {
            std::slice::from_raw_parts(data.as_ptr() as *const u8, std::mem::size_of_val(data))
        };
        bytes[..src.len()].copy_from_slice(src);
    }

    /// Sets every element to `value`.
    pub fn fill(&self, value: T) {
        self.fill_range(0..self.len(), value);
    }

    /// Sets elements `range` to `value`.
    ///
    /// # Panics
    /// If `range` is not inside the buffer.
    pub fn fill_range(&self, range: std::ops::Range<usize>, value: T) {
        let size = std::mem::size_of::<T>();
        assert!(
            range.start <= range.end && range.end <= self.len(),
            "filling elements {range:?} of a buffer of {}",
            self.len()
        );
        if size == 0 {
            return;
        }
        // SAFETY: `T` is Pod: its bytes are initialized, with no padding.
        let pattern = unsafe { std::slice::from_raw_parts(&value as *const T as *const u8, size) };
        self.storage
            .fill(range.start * size..range.end * size, pattern);
    }

    /// The raw bytes (a copy).
    pub fn read_bytes(&self) -> Vec<u8> {
        let _guard = self.storage.read_lock();
        // SAFETY: shared lock held.
        unsafe { std::slice::from_raw_parts(self.storage.as_ptr(), self.storage.len()) }.to_vec()
    }
}

impl Buffer<u8> {
    /// A buffer holding a copy of raw bytes.
    pub fn from_bytes(data: &[u8]) -> Buffer<u8> {
        Buffer::from_slice(data)
    }
}

impl<T: Pod> std::fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Buffer<{}>({} elements)",
            std::any::type_name::<T>(),
            self.len()
        )
    }
}

/// Fills from this many bytes up are spread over the worker pool.
const PARALLEL_FILL: usize = 4 << 20;

/// A serial fill doubles its filled prefix up to about this many bytes,
/// then copies that block (which stays in L1) onto the rest. On a 256 MiB
/// fill with a 16- or 128-byte pattern, 4 KiB blocks measured faster than
/// 512 B to 64 KiB ones and than copying the pattern itself chunk by chunk.
const FILL_BLOCK: usize = 4 << 10;

/// Fills `dst` with copies of `pattern` (`clEnqueueFillBuffer`): a
/// `memset` when the pattern's bytes are all equal, else the pattern once
/// and doubling copies of the filled prefix; from [`PARALLEL_FILL`] bytes
/// on, in pieces on all cores.
///
/// # Panics
/// If `pattern` is empty or `dst`'s length is not a multiple of its.
pub fn fill_bytes(dst: &mut [u8], pattern: &[u8]) {
    let p = pattern.len();
    assert!(
        p > 0 && dst.len().is_multiple_of(p),
        "filling {} bytes with a pattern of {p}",
        dst.len()
    );
    let cores = crate::simd::cores();
    if dst.len() >= PARALLEL_FILL && cores > 1 {
        if let Ok(pool) = crate::simd::pool(cores, crate::simd::MIN_WORKER_STACK) {
            use rayon::prelude::*;
            // Each piece starts at a multiple of the pattern's size, so it
            // is filled from the pattern's first byte.
            let piece = dst
                .len()
                .div_ceil(cores * 4)
                .max(64 * FILL_BLOCK)
                .next_multiple_of(p);
            pool.install(|| {
                dst.par_chunks_mut(piece)
                    .for_each(|chunk| fill_serial(chunk, pattern))
            });
            return;
        }
    }
    fill_serial(dst, pattern);
}

/// [`fill_bytes`] on the calling thread.
fn fill_serial(dst: &mut [u8], pattern: &[u8]) {
    if let [first, rest @ ..] = pattern {
        if rest.iter().all(|b| b == first) {
            dst.fill(*first);
            return;
        }
    }
    let len = dst.len();
    if len == 0 {
        return;
    }
    dst[..pattern.len()].copy_from_slice(pattern);
    // Every copy's length is a multiple of the pattern's, so the filled
    // prefix always ends on a whole pattern.
    let mut filled = pattern.len();
    while filled < len && filled < FILL_BLOCK {
        let n = filled.min(len - filled);
        dst.copy_within(..n, filled);
        filled += n;
    }
    let block = filled;
    while filled < len {
        let n = block.min(len - filled);
        dst.copy_within(..n, filled);
        filled += n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a fill must produce, byte by byte.
    fn reference_fill(dst: &mut [u8], pattern: &[u8]) {
        for (i, b) in dst.iter_mut().enumerate() {
            *b = pattern[i % pattern.len()];
        }
    }

    #[test]
    fn fills_match_a_byte_by_byte_reference() {
        // Larger than PARALLEL_FILL (so the parallel path runs when there
        // are several cores) and no multiple of a large power of two.
        let total = PARALLEL_FILL + 3 * 4096 + 7 * 128;
        let storage = Storage::zeroed(total);
        let mut expected = vec![0u8; total];
        for (n, size) in [1usize, 2, 4, 8, 16, 32, 64, 128].into_iter().enumerate() {
            let distinct: Vec<u8> = (0..size).map(|i| (i * 37 + n * 11 + 1) as u8).collect();
            let equal = vec![0xa5u8 ^ n as u8; size];
            for pattern in [distinct, equal] {
                for (offset, count) in [
                    (0, 1),
                    (size * 3, 5),
                    (size * 7, 1000 + 3),
                    (size * 13, (FILL_BLOCK / size) * 3 + 5),
                    (size, (total / size) - 2),
                ] {
                    let range = offset..offset + count * size;
                    storage.fill(range.clone(), &pattern);
                    reference_fill(&mut expected[range.clone()], &pattern);
                    // SAFETY: no one else uses the storage.
                    let got = unsafe { std::slice::from_raw_parts(storage.as_ptr(), total) };
                    assert!(
                        got == expected.as_slice(),
                        "pattern of {size} bytes over {range:?}: first difference at {:?}",
                        got.iter().zip(&expected).position(|(a, b)| a != b)
                    );
                }
            }
        }
    }

    #[test]
    fn buffer_fill_sets_elements_in_range() {
        let b = Buffer::from_slice(&[[1u16, 2, 3]; 10]);
        b.fill_range(2..7, [7, 8, 9]);
        let mut expected = vec![[1u16, 2, 3]; 10];
        expected[2..7].fill([7, 8, 9]);
        assert_eq!(b.read(), expected);
        b.fill([0, 0, 0]);
        assert_eq!(b.read(), vec![[0, 0, 0]; 10]);
    }

    #[test]
    fn ranges_and_host_memory_share_bytes_with_their_owner() {
        let parent = Storage::zeroed(256);
        let sub = Storage::range(&parent, 64, 128).expect("fits");
        assert_eq!(sub.len(), 128);
        assert!(Storage::range(&parent, 200, 64).is_none());
        // SAFETY: exclusive access in this test; offsets in bounds.
        unsafe { *sub.as_ptr() = 7 };
        assert_eq!(unsafe { *parent.as_ptr().add(64) }, 7);
        drop(parent);
        // The range keeps the parent's memory alive.
        assert_eq!(unsafe { *sub.as_ptr() }, 7);

        let mut host = vec![1u32; 16];
        // SAFETY: `host` outlives the storage.
        let storage = unsafe {
            Storage::from_host_ptr(NonNull::new(host.as_mut_ptr() as *mut u8).unwrap(), 64)
        };
        unsafe { *(storage.as_ptr() as *mut u32).add(3) = 9 };
        drop(storage);
        assert_eq!(host[3], 9, "written in place, not freed by the storage");
    }

    #[test]
    fn lock_all_takes_each_storage_once_in_one_global_order() {
        let (a, b) = (Storage::zeroed(64), Storage::zeroed(64));
        // The same storage twice (read and write): locked once, exclusively.
        let guards = lock_all([(&*a, Access::Read), (&*a, Access::Write)]);
        assert_eq!(guards.len(), 1);
        assert!(matches!(guards[0], StorageGuard::Write(_)));
        assert!(a.lock.try_read().is_err());
        drop(guards);
        // Opposite argument orders on two threads, many times: no deadlock
        // (with locks taken in argument order this hangs within a few
        // hundred rounds).
        let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let threads: Vec<_> = [false, true]
            .into_iter()
            .map(|flip| {
                let (a, b, done) = (a.clone(), b.clone(), done.clone());
                std::thread::spawn(move || {
                    for _ in 0..20_000 {
                        let order = if flip {
                            [(&*b, Access::Read), (&*a, Access::Write)]
                        } else {
                            [(&*a, Access::Read), (&*b, Access::Write)]
                        };
                        let _g = lock_all(order);
                        std::hint::spin_loop();
                    }
                    done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                })
            })
            .collect();
        let start = std::time::Instant::now();
        while done.load(std::sync::atomic::Ordering::SeqCst) < 2 {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(30),
                "deadlock"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        for t in threads {
            t.join().unwrap();
        }
    }

    /// Resident memory of this process, in bytes (Linux).
    fn resident() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace()
            .nth(1)
            .unwrap()
            .parse::<usize>()
            .unwrap()
            * 1024
    }

    #[test]
    fn large_storages_are_lazy_zero_pages_and_failures_are_errors() {
        let before = resident();
        let start = std::time::Instant::now();
        let big = Storage::try_zeroed(2 << 30).expect("2 GiB of address space");
        assert!(start.elapsed() < std::time::Duration::from_millis(500));
        assert!(
            resident() < before + (64 << 20),
            "2 GiB buffer made {} bytes resident",
            resident() - before
        );
        assert_eq!(big.as_ptr() as usize % BUFFER_ALIGN, 0);
        // SAFETY: in bounds; no other user.
        unsafe {
            assert_eq!(*big.as_ptr().add((2 << 30) - 1), 0);
            *big.as_ptr().add(12345) = 1;
        }
        drop(big);
        // More than any machine has: an error, not an abort.
        assert_eq!(
            Storage::try_zeroed(1 << 62).err(),
            Some(AllocError { len: 1 << 62 })
        );
        assert!(Buffer::<u64>::try_zeroed(usize::MAX / 4).is_err());
    }
}
