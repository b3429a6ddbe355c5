//! Pipes (OpenCL 2.0): FIFOs of fixed-size packets that kernels write and
//! read with the pipe builtins, and the storage layout those read.
//!
//! A kernel's pipe argument is a `__global` pointer to the pipe's
//! [`Storage`], so both engines run the builtin library's `read_pipe`,
//! `reserve_write_pipe`, `work_group_commit_read_pipe`, ...
//! (`crates/frontend/builtins/pipes.cl`) as ordinary code over it, with
//! atomics: no pipe operation in the IR. The storage is:
//!
//! | bytes | what |
//! |---|---|
//! | 0..64 | header: eight `u64` words, [`header`] |
//! | 64.. | one `u64` sequence word per slot |
//! | then | one `u32` reservation length per slot |
//! | from a multiple of 128 | the slots: `max_packets` packets of `packet_size` bytes |
//!
//! A position counts the packets reserved at one end since the pipe was
//! made, kept as `lap << 32 | slot` ([`advance`]); the sequence word of
//! position `q`'s slot is `2q` while the slot is free for the writer of
//! `q` and `2q + 1` once that writer committed its packet (reading it and
//! committing frees the slot for the same slot's position in the next
//! lap). `pipes.cl` explains the protocol;
//! its `LS_PIPE_*` constants and this module's [`header`] indices must
//! agree. The host side here ([`Pipe::push`], [`Pipe::packets`]) follows
//! the same protocol, for `.sim` files and tests, while no kernel uses the
//! pipe.

use std::sync::Arc;

use crate::buffer::{AllocError, Storage};

/// The header's `u64` words.
pub mod header {
    /// Bytes per packet.
    pub const PACKET_SIZE: usize = 0;
    /// Slots (`max_packets`).
    pub const CAPACITY: usize = 1;
    /// Byte offset of slot 0's packet.
    pub const PACKETS: usize = 2;
    /// Byte offset of the reservation lengths.
    pub const LENGTHS: usize = 3;
    /// The next write reservation's position.
    pub const WRITE_POS: usize = 4;
    /// The next read reservation's position.
    pub const READ_POS: usize = 5;
    /// Words in the header (the sequence words follow).
    pub const WORDS: usize = 8;
}

/// Slots start at a multiple of this (the alignment of `long16`).
const PACKETS_ALIGN: usize = 128;

/// Position `q` plus one packet in a ring of `capacity` slots: the next
/// slot, or slot 0 of the next lap (`pipes.cl`'s `ls_advance`).
fn advance(q: u64, capacity: u32) -> u64 {
    let (lap, slot) = (q >> 32, (q & 0xffff_ffff) + 1);
    if slot >= capacity as u64 {
        (lap + 1) << 32
    } else {
        lap << 32 | slot
    }
}

/// A pipe that cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PipeError {
    #[error("a pipe needs packets of at least one byte and room for at least one packet")]
    Empty,
    #[error("a pipe of {max_packets} packets of {packet_size} bytes is too large")]
    TooLarge { packet_size: u32, max_packets: u32 },
    #[error(transparent)]
    Alloc(#[from] AllocError),
}

/// A pipe: its storage and shape. Clones share the pipe.
#[derive(Clone)]
pub struct Pipe {
    storage: Arc<Storage>,
    packet_size: u32,
    max_packets: u32,
}

/// Where the reservation lengths and the slots start, and the storage's
/// size, for a pipe of this shape; `None` if it overflows.
fn layout(packet_size: u32, max_packets: u32) -> Option<(usize, usize, usize)> {
    let cap = max_packets as usize;
    let lengths = (header::WORDS * 8).checked_add(cap.checked_mul(8)?)?;
    let packets = lengths
        .checked_add(cap.checked_mul(4)?)?
        .checked_next_multiple_of(PACKETS_ALIGN)?;
    let size = packets.checked_add(cap.checked_mul(packet_size as usize)?)?;
    Some((lengths, packets, size))
}

impl Pipe {
    /// An empty pipe of `max_packets` packets of `packet_size` bytes.
    pub fn new(packet_size: u32, max_packets: u32) -> Result<Pipe, PipeError> {
        let size = Pipe::storage_size(packet_size, max_packets)?;
        let (lengths, packets, _) =
            layout(packet_size, max_packets).expect("storage_size checked the layout");
        let pipe = Pipe {
            storage: Storage::try_zeroed(size)?,
            packet_size,
            max_packets,
        };
        {
            let _guard = pipe.storage.write_lock();
            pipe.set_word(header::PACKET_SIZE, packet_size as u64);
            pipe.set_word(header::CAPACITY, max_packets as u64);
            pipe.set_word(header::PACKETS, packets as u64);
            pipe.set_word(header::LENGTHS, lengths as u64);
            pipe.clear_locked();
        }
        Ok(pipe)
    }

    /// The bytes of storage a pipe of this shape takes (header, sequence
    /// words, reservation lengths and packets).
    pub fn storage_size(packet_size: u32, max_packets: u32) -> Result<usize, PipeError> {
        if packet_size == 0 || max_packets == 0 {
            return Err(PipeError::Empty);
        }
        layout(packet_size, max_packets)
            .map(|(_, _, size)| size)
            .ok_or(PipeError::TooLarge {
                packet_size,
                max_packets,
            })
    }

    pub fn packet_size(&self) -> u32 {
        self.packet_size
    }

    pub fn max_packets(&self) -> u32 {
        self.max_packets
    }

    /// The storage kernels see (bind the pipe, not this, to a pipe
    /// argument).
    pub fn storage(&self) -> &Arc<Storage> {
        &self.storage
    }

    /// Empties the pipe: positions back to 0, every slot free.
    pub fn clear(&self) {
        let _guard = self.storage.write_lock();
        self.clear_locked();
    }

    /// Appends a packet (`packet_size` bytes) as a kernel's `write_pipe`
    /// would; false if the pipe is full.
    ///
    /// # Panics
    /// If `packet` is not `packet_size` bytes long.
    pub fn push(&self, packet: &[u8]) -> bool {
        assert_eq!(packet.len(), self.packet_size as usize, "a packet's size");
        let _guard = self.storage.write_lock();
        let q = self.word(header::WRITE_POS);
        let slot = q as u32 as usize;
        if self.seq(slot) != 2 * q {
            return false;
        }
        // SAFETY: the slot is inside the storage (see `layout`), whose
        // write lock is held.
        unsafe {
            std::ptr::copy_nonoverlapping(
                packet.as_ptr(),
                self.storage.as_ptr().add(self.packet_offset(slot)),
                packet.len(),
            )
        };
        self.set_word(header::WORDS + slot, 2 * q + 1);
        self.set_word(header::WRITE_POS, advance(q, self.max_packets));
        true
    }

    /// The packets a reader would get, oldest first, concatenated: those
    /// committed from the read position on. Meant for a pipe no kernel is
    /// using (reservations in progress end the list).
    pub fn packets(&self) -> Vec<u8> {
        let _guard = self.storage.read_lock();
        let mut out = Vec::new();
        let mut q = self.word(header::READ_POS);
        for _ in 0..self.max_packets {
            let slot = q as u32 as usize;
            if self.seq(slot) != 2 * q + 1 {
                break;
            }
            let start = self.packet_offset(slot);
            // SAFETY: the slot is inside the storage, whose read lock is held.
            out.extend_from_slice(unsafe {
                std::slice::from_raw_parts(
                    self.storage.as_ptr().add(start),
                    self.packet_size as usize,
                )
            });
            q = advance(q, self.max_packets);
        }
        out
    }

    fn clear_locked(&self) {
        self.set_word(header::WRITE_POS, 0);
        self.set_word(header::READ_POS, 0);
        for slot in 0..self.max_packets as usize {
            self.set_word(header::WORDS + slot, 2 * slot as u64);
        }
    }

    fn packet_offset(&self, slot: usize) -> usize {
        self.word(header::PACKETS) as usize + slot * self.packet_size as usize
    }

    fn seq(&self, slot: usize) -> u64 {
        self.word(header::WORDS + slot)
    }

    /// `u64` word `i` of the storage (the caller holds a lock).
    fn word(&self, i: usize) -> u64 {
        // SAFETY: every word index used is inside the header or the
        // sequence words; the storage is 128-byte aligned.
        unsafe { (self.storage.as_ptr() as *const u64).add(i).read() }
    }

    /// Sets `u64` word `i` (the caller holds the write lock).
    fn set_word(&self, i: usize, value: u64) {
        // SAFETY: as in `word`.
        unsafe { (self.storage.as_ptr() as *mut u64).add(i).write(value) }
    }
}

impl std::fmt::Debug for Pipe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipe")
            .field("packet_size", &self.packet_size)
            .field("max_packets", &self.max_packets)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_puts_slots_after_the_sequence_words_and_lengths_at_128() {
        // 64 + 3 * 8 = 88 bytes of sequence words, lengths to 100, slots at 128.
        assert_eq!(layout(4, 3), Some((88, 128, 140)));
        assert_eq!(Pipe::storage_size(0, 4), Err(PipeError::Empty));
        assert_eq!(Pipe::storage_size(4, 0), Err(PipeError::Empty));
        assert!(matches!(
            Pipe::storage_size(u32::MAX, u32::MAX),
            Err(PipeError::TooLarge { .. })
        ));
    }

    #[test]
    fn positions_wrap_into_the_next_lap() {
        assert_eq!(advance(0, 3), 1);
        assert_eq!(advance(2, 3), 1 << 32);
        assert_eq!(advance(5 << 32 | 1, 3), 5 << 32 | 2);
        assert_eq!(advance(0, 1), 1 << 32);
    }

    #[test]
    fn host_pushes_come_back_in_order_until_full() {
        let pipe = Pipe::new(2, 3).unwrap();
        assert!(pipe.push(&[1, 2]));
        assert!(pipe.push(&[3, 4]));
        assert!(pipe.push(&[5, 6]));
        assert!(!pipe.push(&[7, 8]), "a fourth packet in a pipe of three");
        assert_eq!(pipe.packets(), vec![1, 2, 3, 4, 5, 6]);
        pipe.clear();
        assert_eq!(pipe.packets(), Vec::<u8>::new());
        assert!(pipe.push(&[9, 9]));
        assert_eq!(pipe.packets(), vec![9, 9]);
    }
}
