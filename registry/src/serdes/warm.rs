//! The per-thread entries that let a thread producing to one topic find its schema id
//! without touching the serializer's shared map, whose lock every thread would write.

use std::cell::{Cell, RefCell};
use std::sync::atomic::AtomicU64;

use super::serializer::Target;

/// The target a thread used last, so that a thread producing to one topic finds it without
/// touching the shared map (whose lock's atomic counter every thread would write).
pub(super) struct Last {
    pub(super) serializer: u64,
    pub(super) topic: String,
    pub(super) target: Target,
}

/// Topic names (map keys) up to this long are kept in the per-thread [`Hot`] entry.
pub(super) const HOT_TOPIC: usize = 48;

/// The warm path's per-thread entry: the last topic of one serializer whose target writes
/// the type's own encoding for good. Plain data without `Drop`, so reading it is a few loads
/// at a fixed thread-local address: no lazy initialization, no call, no reference count.
#[derive(Clone, Copy)]
pub(super) struct Hot {
    /// The serializer's id; 0 for none.
    pub(super) serializer: u64,
    pub(super) id: i32,
    pub(super) len: usize,
    pub(super) key: [u8; HOT_TOPIC],
}

thread_local! {
    /// The type's own encoding, before translation to the latest schema's.
    pub(super) static SCRATCH: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    pub(super) static LAST: RefCell<Option<Last>> = const { RefCell::new(None) };
    pub(super) static HOT: Cell<Hot> = const {
        Cell::new(Hot { serializer: 0, id: 0, len: 0, key: [0; HOT_TOPIC] })
    };
}

/// Whether two byte strings are equal, compared inline in overlapping words: topic names are
/// short, and a call to `memcmp` cost as much as the rest of the warm path.
#[inline]
pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_ne_bytes(s[at..at + 8].try_into().expect("8"));
    let half = |s: &[u8], at: usize| u32::from_ne_bytes(s[at..at + 4].try_into().expect("4"));
    match n {
        8.. => {
            let words_equal = (0..n / 8).all(|i| word(a, i * 8) == word(b, i * 8));
            words_equal && word(a, n - 8) == word(b, n - 8)
        }
        4.. => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        _ => (0..n).all(|i| a[i] == b[i]),
    }
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
            "orders",
            "orderz",
            "bench-orders",
            "bench-orderz",
            "xench-orders",
            "orders-of-sixteen",
            "orders-of-sixteex",
            "yrders-of-sixteen",
        ];
        for a in names {
            for b in names {
                assert_eq!(same_bytes(a.as_bytes(), b.as_bytes()), a == b, "{a} {b}");
            }
        }
        let owned = "bench-orders".to_owned();
        assert!(same_bytes(b"bench-orders", owned.as_bytes()));
    }
}
