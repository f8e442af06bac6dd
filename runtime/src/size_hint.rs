//! The capacity to give a new buffer for encoding a value of a type: the size of the type's
//! recent encodings, so that [`crate::Avro::to_avro_bytes`] and the other methods returning
//! a new `Vec` allocate once instead of growing from empty (which reallocates about
//! log2(size) times and cost 4–5 times the encoding itself on small records).
//!
//! Types are told apart by their schema fingerprint, hashed into a small fixed table of
//! atomics: nothing to set up or register, no lock, and a table entry is written only when a
//! size leaves the range its hint covers. Two types that share an entry just get each
//! other's sizes as hints; a hint only sets a capacity, so a wrong one costs a reallocation
//! or some spare capacity, never a wrong encoding.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::AvroSchema;

/// The capacity to give a new buffer for an encoding of `T` (0 before its first recorded
/// one), for code outside this crate that returns encodings in new buffers, as the registry
/// client's serializers do.
#[inline]
pub fn capacity_for<T: AvroSchema>() -> usize {
    capacity(T::FINGERPRINT)
}

/// Records that an encoding of `T` took `len` bytes, for [`capacity_for`].
#[inline]
pub fn record_for<T: AvroSchema>(len: usize) {
    record(T::FINGERPRINT, len);
}

/// Table entries; a power of two.
const ENTRIES: usize = 256;

static HINTS: [AtomicU32; ENTRIES] = [const { AtomicU32::new(0) }; ENTRIES];

fn entry(fingerprint: u64) -> &'static AtomicU32 {
    &HINTS[(fingerprint as usize) & (ENTRIES - 1)]
}

/// The capacity for a new encoding of the type with `fingerprint` (0 before its first).
#[inline]
pub(crate) fn capacity(fingerprint: u64) -> usize {
    entry(fingerprint).load(Ordering::Relaxed) as usize
}

/// Records that an encoding of the type with `fingerprint` took `len` bytes.
#[inline]
pub(crate) fn record(fingerprint: u64, len: usize) {
    update(entry(fingerprint), len);
}

/// Updates a hint after an encoding of `len` bytes: it becomes `len` plus a quarter when
/// `len` is above it or below a quarter of it, so sizes that vary by a few tens of percent
/// fit without rewriting the entry for every value.
#[inline]
fn update(hint: &AtomicU32, len: usize) {
    let old = hint.load(Ordering::Relaxed) as usize;
    if len > old || len < old / 4 {
        let new = len.saturating_add(len / 4).min(u32::MAX as usize) as u32;
        hint.store(new, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_follow_sizes_with_headroom() {
        let hint = AtomicU32::new(0);
        let read = || hint.load(Ordering::Relaxed);
        update(&hint, 100);
        assert_eq!(read(), 125);
        // Sizes within the hint and above a quarter of it leave it alone.
        update(&hint, 120);
        update(&hint, 40);
        assert_eq!(read(), 125);
        // Larger sizes raise it, much smaller ones lower it.
        update(&hint, 200);
        assert_eq!(read(), 250);
        update(&hint, 20);
        assert_eq!(read(), 25);
    }

    #[test]
    fn types_are_told_apart_by_fingerprint() {
        // Fingerprints in different entries keep their own hints.
        record(0x5a00_0000_0000_0031, 64);
        record(0x5a00_0000_0000_0032, 4000);
        assert_eq!(capacity(0x5a00_0000_0000_0031), 80);
        assert_eq!(capacity(0x5a00_0000_0000_0032), 5000);
    }
}
