//! The on-disk cache of compiled kernel objects, so that running the same
//! kernel again skips clang's import, Lockstep's passes and LLVM's `-O3`.
//!
//! Entries live in `$XDG_CACHE_HOME/lockstep` (else `$HOME/.cache/lockstep`),
//! one file per key. The key is a SHA-256 over everything that shapes the
//! object (see [`ObjectCache::key`]), so entries are never invalidated, only
//! missed. Several processes may share the directory: an entry is written to
//! a temporary file and renamed into place, and every entry carries its
//! length and hash, so a torn, truncated or corrupted file reads as a miss
//! (and is removed) instead of handing garbage to the linker.
//!
//! The cache has a size limit: 2 GiB, or `LOCKSTEP_CACHE_MAX_MB` megabytes.
//! Reading an entry marks it used (its modification time). The first write
//! of a process, and then each 256 MiB a process writes, check the
//! directory's size on a background thread unless some process did in the
//! last ten minutes (the time of a marker file says), and once it is over
//! the limit the least recently used entries go until it is under three
//! quarters of it.
//!
//! The cache is best-effort: it is off when `LOCKSTEP_CACHE=0` or when no
//! writable directory exists, and its I/O errors never fail a compile.
//! Reading trusts nothing about the directory: an entry must be a regular
//! file (not a symlink, FIFO or device) no larger than [`MAX_ENTRY`], so a
//! planted `/dev/zero` link or FIFO reads as a miss instead of hanging or
//! exhausting memory.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

/// The version of what the back end puts in an object, bumped whenever
/// generated code changes in a way the compiler version does not capture
/// (calling convention of kernels, runtime helper signatures, this file's
/// format, what an entry holds: since 2, a kernel's local layout and
/// report beside its object). Part of every key through [`compiler_version`].
/// 3: the local layout says whether the kernel runs with lane refill.
pub const CACHE_FORMAT_VERSION: u32 = 3;

/// The first bytes of every cache file.
const MAGIC: &[u8; 8] = b"LSOBJv1\n";

/// Header: magic, payload length (u64 little endian), SHA-256 of the payload.
const HEADER_LEN: usize = MAGIC.len() + 8 + 32;

/// The largest entry read back (objects are kilobytes to a few megabytes).
pub const MAX_ENTRY: u64 = 256 << 20;

/// The file name extension of entries.
const EXTENSION: &str = "lso";

/// The compiler version part of a cache key: the crate version and
/// [`CACHE_FORMAT_VERSION`].
pub fn compiler_version() -> String {
    format!(
        "lockstep-codegen {} format {CACHE_FORMAT_VERSION}",
        env!("CARGO_PKG_VERSION")
    )
}

/// The size limit of the cache when `LOCKSTEP_CACHE_MAX_MB` sets none.
pub const DEFAULT_MAX_BYTES: u64 = 2 << 30;

/// Bytes a process writes between two checks of the cache's size.
const CHECK_EVERY: u64 = 256 << 20;

/// The file whose modification time says when the cache's size was last
/// checked, and how often at most it is.
const TRIM_MARKER: &str = ".trimmed";
const TRIM_INTERVAL_SECS: u64 = 600;

/// A directory of cached objects.
#[derive(Debug, Clone)]
pub struct ObjectCache {
    dir: PathBuf,
    /// The size limit: past it, least recently used entries are removed.
    max_bytes: u64,
    /// Check the size on a background thread now and then as `put` writes
    /// (the user's cache, [`ObjectCache::open`]).
    auto_trim: bool,
}

impl ObjectCache {
    /// The user's cache: `$XDG_CACHE_HOME/lockstep`, else
    /// `$HOME/.cache/lockstep`, created if missing. `None` when
    /// `LOCKSTEP_CACHE=0` or when the directory cannot be created or written.
    pub fn open() -> Option<ObjectCache> {
        if std::env::var_os("LOCKSTEP_CACHE").is_some_and(|v| v == "0") {
            return None;
        }
        // The XDG spec ignores relative paths.
        let xdg = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute());
        let home = || {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|h| h.join(".cache"))
        };
        let cache = match xdg.and_then(|base| ObjectCache::at(base.join("lockstep"))) {
            Some(cache) => cache,
            None => ObjectCache::at(home()?.join("lockstep"))?,
        };
        Some(ObjectCache {
            auto_trim: true,
            ..cache
        })
    }

    /// A cache in `dir`, created if missing. `None` if it cannot be created
    /// or written (checked by creating and removing a probe file). It is
    /// trimmed only when [`ObjectCache::trim`] is called.
    pub fn at(dir: impl Into<PathBuf>) -> Option<ObjectCache> {
        let dir = dir.into();
        fs::create_dir_all(&dir).ok()?;
        let probe = temp_path(&dir, "probe");
        File::create(&probe).ok()?;
        let _ = fs::remove_file(&probe);
        let max_bytes = std::env::var("LOCKSTEP_CACHE_MAX_MB")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map_or(DEFAULT_MAX_BYTES, |mb| mb.saturating_mul(1 << 20));
        Some(ObjectCache {
            dir,
            max_bytes,
            auto_trim: false,
        })
    }

    /// This cache with a size limit of `max_bytes`.
    pub fn with_max_bytes(self, max_bytes: u64) -> ObjectCache {
        ObjectCache { max_bytes, ..self }
    }

    /// The directory of the cache.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of an object: the hex SHA-256 of `parts`, each length-prefixed
    /// so that no two different lists collide by concatenation. Callers pass
    /// everything that changes the object: the program's IR and build options,
    /// [`compiler_version`], the CPU fingerprint
    /// ([`crate::backend::target::HostTarget::fingerprint`]), the kernel
    /// name, the local size and the SIMD width.
    pub fn key(parts: &[&[u8]]) -> String {
        let mut hasher = Sha256::new();
        hasher.update(b"lockstep object cache key\0");
        hasher.update((parts.len() as u64).to_le_bytes());
        for part in parts {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part);
        }
        hex(&hasher.finalize())
    }

    /// The object stored under `key`, if there is an intact one. A file that
    /// fails its length or hash check is removed and reads as a miss.
    pub fn get(&self, key: &str) -> Option<Vec<u8>> {
        let path = self.entry_path(key)?;
        let bytes = read_entry(&path)?;
        match decode(&bytes) {
            Some(payload) => {
                // Used now: the last to go when the cache is trimmed.
                if let Ok(file) = File::options().write(true).open(&path) {
                    let _ = file.set_modified(SystemTime::now());
                }
                Some(payload.to_vec())
            }
            None => {
                // Corrupt or from an incompatible format: drop it so the
                // next `put` starts clean. Another process may have replaced
                // it meanwhile; removing a good entry costs only a recompile.
                let _ = fs::remove_file(&path);
                None
            }
        }
    }

    /// Stores `bytes` under `key`, atomically: readers see the old entry,
    /// no entry, or the whole new one, never a partial file. Concurrent
    /// writers of the same key each rename a complete file; the last wins.
    pub fn put(&self, key: &str, bytes: &[u8]) -> io::Result<()> {
        let path = self.entry_path(key).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("invalid cache key {key:?}"),
            )
        })?;
        let temp = temp_path(&self.dir, key);
        let result = (|| {
            let mut file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temp)?;
            file.write_all(&encode(bytes))?;
            drop(file);
            fs::rename(&temp, &path)
        })();
        if result.is_err() {
            let _ = fs::remove_file(&temp);
        } else if self.auto_trim && self.due_for_check(bytes.len() as u64) {
            self.trim_unless_recent();
        }
        result
    }

    /// Trims the cache on a background thread unless a process did in the
    /// last ten minutes (a size check reads every entry's metadata: a
    /// fraction of a second for a full cache; removing many entries takes
    /// longer). The marker is set when the trim is done, so a trim cut
    /// short by the process's exit is taken up again by the next one.
    fn trim_unless_recent(&self) {
        let marker = self.dir.join(TRIM_MARKER);
        let recent = fs::metadata(&marker)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age.as_secs() < TRIM_INTERVAL_SECS);
        if recent {
            return;
        }
        let cache = self.clone();
        std::thread::spawn(move || {
            cache.trim();
            let _ = File::create(&marker);
        });
    }

    /// True at a process's first write, then after each [`CHECK_EVERY`]
    /// bytes it writes.
    fn due_for_check(&self, written: u64) -> bool {
        static SINCE_CHECK: AtomicU64 = AtomicU64::new(u64::MAX);
        let before = SINCE_CHECK
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                Some(
                    if n == u64::MAX || n.saturating_add(written) >= CHECK_EVERY {
                        0
                    } else {
                        n + written
                    },
                )
            })
            .unwrap_or(0);
        before == u64::MAX || before.saturating_add(written) >= CHECK_EVERY
    }

    /// Removes the least recently used entries (and temporary files older
    /// than an hour, left by a writer that died) while the entries take more
    /// than [`ObjectCache::with_max_bytes`]'s limit on disk, down to three
    /// quarters of it. Returns the bytes removed.
    pub fn trim(&self) -> u64 {
        let Ok(dir) = fs::read_dir(&self.dir) else {
            return 0;
        };
        let now = SystemTime::now();
        let mut entries: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
        let mut total = 0u64;
        let mut removed = 0u64;
        for entry in dir.flatten() {
            let path = entry.path();
            let Ok(meta) = entry.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let modified = meta.modified().unwrap_or(UNIX_EPOCH);
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') && name.ends_with(".tmp") {
                let stale = now
                    .duration_since(modified)
                    .is_ok_and(|age| age.as_secs() > 3600);
                if stale && fs::remove_file(&path).is_ok() {
                    removed += meta.len();
                }
                continue;
            }
            if path.extension().is_some_and(|e| e == EXTENSION) {
                // What the file takes on disk (small files take whole blocks).
                let size = {
                    use std::os::unix::fs::MetadataExt;
                    (meta.blocks() * 512).max(meta.len())
                };
                total += size;
                entries.push((modified, size, path));
            }
        }
        if total <= self.max_bytes {
            return removed;
        }
        entries.sort_by_key(|&(modified, ..)| modified);
        let target = self.max_bytes / 4 * 3;
        for (_, len, path) in entries {
            if total <= target {
                break;
            }
            if fs::remove_file(&path).is_ok() {
                total -= len;
                removed += len;
            }
        }
        removed
    }

    /// The file of `key`, or `None` if `key` is not a plausible key (keys are
    /// made of ASCII letters, digits, `-` and `_`, so they cannot name a path
    /// outside the cache).
    fn entry_path(&self, key: &str) -> Option<PathBuf> {
        let plausible = !key.is_empty()
            && key.len() <= 128
            && key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        plausible.then(|| self.dir.join(format!("{key}.{EXTENSION}")))
    }
}

/// The bytes of the regular file at `path`, if it is one of at most
/// [`MAX_ENTRY`] bytes. Opened without following a symlink and without
/// blocking (a FIFO would block `open` until a writer came), then checked
/// through the open file, so a swap after the check cannot fool it.
fn read_entry(path: &Path) -> Option<Vec<u8>> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .ok()?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_ENTRY {
        return None;
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // At most one byte more than the size said: a file that grows is cut
    // short and then fails its length check.
    file.take(MAX_ENTRY + 1).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// A file name in `dir` that no other process or thread uses.
fn temp_path(dir: &Path, stem: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    dir.join(format!(".{stem}.{}.{n}.{nanos}.tmp", std::process::id()))
}

/// Header + payload.
fn encode(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&Sha256::digest(payload));
    out.extend_from_slice(payload);
    out
}

/// The payload of a cache file, if its magic, length and hash check out.
fn decode(bytes: &[u8]) -> Option<&[u8]> {
    let rest = bytes.strip_prefix(MAGIC.as_slice())?;
    let (length, rest) = rest.split_first_chunk::<8>()?;
    let (hash, payload) = rest.split_first_chunk::<32>()?;
    let length = usize::try_from(u64::from_le_bytes(*length)).ok()?;
    (payload.len() == length && Sha256::digest(payload).as_slice() == hash.as_slice())
        .then_some(payload)
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_that_are_not_small_regular_files_are_misses() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ObjectCache::at(dir.path().join("c")).unwrap();
        let key = ObjectCache::key(&[b"x"]);
        let path = cache.entry_path(&key).unwrap();
        // A symlink to /dev/zero: reading it would never end.
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        assert_eq!(cache.get(&key), None);
        fs::remove_file(&path).unwrap();
        // A FIFO: opening it would block until a writer came.
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let (tx, rx) = std::sync::mpsc::channel();
        let c2 = cache.clone();
        let k2 = key.clone();
        std::thread::spawn(move || tx.send(c2.get(&k2)).unwrap());
        let got = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("reading a FIFO entry hangs");
        assert_eq!(got, None);
        fs::remove_file(&path).unwrap();
        // A directory.
        fs::create_dir(&path).unwrap();
        assert_eq!(cache.get(&key), None);
        fs::remove_dir(&path).unwrap();
        // A good entry still reads.
        cache.put(&key, b"object").unwrap();
        assert_eq!(cache.get(&key).as_deref(), Some(b"object".as_slice()));
    }

    #[test]
    fn trimming_removes_the_least_recently_used_entries() {
        let dir = tempfile::tempdir().unwrap();
        // Each entry takes one 4 KiB block on the usual file systems: the
        // limit counts what entries take on disk.
        let entry = {
            use std::os::unix::fs::MetadataExt;
            let probe = dir.path().join("probe");
            fs::write(&probe, [0u8; HEADER_LEN + 1000]).unwrap();
            let meta = fs::metadata(&probe).unwrap();
            fs::remove_file(&probe).unwrap();
            (meta.blocks() * 512).max(meta.len())
        };
        let cache = ObjectCache::at(dir.path().join("c"))
            .unwrap()
            .with_max_bytes(10 * entry);
        let keys: Vec<String> = (0..12u8).map(|i| ObjectCache::key(&[&[i]])).collect();
        let old = SystemTime::now() - std::time::Duration::from_secs(1000);
        for (i, key) in keys.iter().enumerate() {
            cache.put(key, &[i as u8; 1000]).unwrap();
            // Written one after another, a second apart.
            let path = cache.entry_path(key).unwrap();
            let file = File::options().write(true).open(&path).unwrap();
            file.set_modified(old + std::time::Duration::from_secs(i as u64))
                .unwrap();
        }
        // Reading the first entry makes it the most recently used.
        assert!(cache.get(&keys[0]).is_some());
        // 12 entries over a limit of 10: trimmed down to 7 (three quarters).
        assert_eq!(cache.trim(), 5 * entry);
        let present: Vec<bool> = keys.iter().map(|k| cache.get(k).is_some()).collect();
        let mut expected = vec![true];
        expected.extend([false; 5]);
        expected.extend([true; 6]);
        assert_eq!(present, expected);
        // Under the limit: nothing more goes.
        assert_eq!(cache.trim(), 0);
    }
}
