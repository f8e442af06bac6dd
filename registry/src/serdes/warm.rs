//! The per-thread entries that let a thread producing to one topic find its schema id
//! without touching the serializer's shared map, whose lock every thread would write.

use std::cell::{Cell, RefCell};
use std::sync::atomic::AtomicU64;

use super::target::Target;

/// The target a thread used last, so that a thread producing to one topic finds it without
/// touching the shared map (whose lock's atomic counter every thread would write).
pub(super) struct Last {
    pub(super) serializer: u64,
    pub(super) topic: String,
    pub(super) target: Target,
}

/// Topic names (map keys) up to this many 8-byte words are kept in the per-thread [`Hot`]
/// entry; longer ones take the [`Last`] path.
const HOT_WORDS: usize = 6;

/// The warm path's per-thread entry: the last topic of one serializer whose target writes
/// the type's own encoding for good. Cells of plain numbers, without `Drop`, so reading it is
/// a few loads at a fixed thread-local address: no lazy initialization, no call, no borrow
/// flag, no copy through the stack, and the topic is compared in words, without `memcmp`
/// (each of those cost as much as the framing itself).
pub(super) struct Hot {
    /// The serializer's id; 0 for none.
    serializer: Cell<u64>,
    id: Cell<i32>,
    len: Cell<usize>,
    /// The topic's whole 8-byte words.
    words: [Cell<u64>; HOT_WORDS],
    /// The topic's [`tail`].
    tail: Cell<u64>,
}

impl Hot {
    const fn empty() -> Hot {
        Hot {
            serializer: Cell::new(0),
            id: Cell::new(0),
            len: Cell::new(0),
            words: [const { Cell::new(0) }; HOT_WORDS],
            tail: Cell::new(0),
        }
    }

    /// The schema id kept for `key` of `serializer`, if this entry is theirs.
    #[inline]
    pub(super) fn id_of(&self, serializer: u64, key: &[u8]) -> Option<i32> {
        let same = self.serializer.get() == serializer
            && self.len.get() == key.len()
            && self.tail.get() == tail(key)
            && words(key).zip(&self.words).all(|(w, kept)| w == kept.get());
        same.then(|| self.id.get())
    }

    /// Keeps `id` for `key` of `serializer`, when the key fits.
    pub(super) fn keep(&self, serializer: u64, key: &[u8], id: i32) {
        if key.len() > HOT_WORDS * 8 {
            return;
        }
        self.serializer.set(serializer);
        self.id.set(id);
        self.len.set(key.len());
        self.tail.set(tail(key));
        for (w, kept) in words(key).zip(&self.words) {
            kept.set(w);
        }
    }
}

/// The whole 8-byte words of `key`.
#[inline]
fn words(key: &[u8]) -> impl Iterator<Item = u64> + '_ {
    key.chunks_exact(8)
        .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
}

/// The bytes [`words`] leaves out, with overlap, as one number: the last 8 bytes; for
/// shorter keys the first and last 4, or the bytes themselves. With the lengths equal, equal
/// words and tails are equal keys.
#[inline]
fn tail(key: &[u8]) -> u64 {
    let n = key.len();
    let four = |at: usize| u64::from(u32::from_le_bytes(key[at..at + 4].try_into().expect("4")));
    match n {
        8.. => u64::from_le_bytes(key[n - 8..].try_into().expect("8 bytes")),
        4.. => four(0) | four(n - 4) << 32,
        _ => key.iter().fold(0, |w, &b| (w << 8) | u64::from(b)),
    }
}

thread_local! {
    /// The type's own encoding, before translation to the latest schema's.
    pub(super) static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    pub(super) static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
    pub(super) static HOT: Hot = const { Hot::empty() };
}

/// Tells serializers apart in [`LAST`] and [`HOT`]; 0 is no serializer.
pub(super) static NEXT_SERIALIZER: AtomicU64 = AtomicU64::new(1);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_compare_by_content() {
        let names = [
            "",
            "a",
            "b",
            "ab",
            "abc",
            "abd",
            "a\0",
            "orders",
            "orderz",
            "bench-orders",
            "bench-orderz",
            "xench-orders",
            "orders-of-sixteen",
            "orders-of-sixteex",
            "yrders-of-sixteen",
        ];
        let hot = Hot::empty();
        for (n, a) in names.iter().enumerate() {
            hot.keep(7, a.as_bytes(), n as i32);
            for b in names {
                let found = hot.id_of(7, b.as_bytes());
                assert_eq!(found, (*a == b).then_some(n as i32), "{a} {b}");
            }
            assert_eq!(hot.id_of(8, a.as_bytes()), None, "another serializer");
        }
        let long = "t".repeat(HOT_WORDS * 8 + 1);
        hot.keep(7, long.as_bytes(), 99);
        assert_eq!(hot.id_of(7, long.as_bytes()), None, "too long to keep");
    }
}
