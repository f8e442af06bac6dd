//! Two hand-written codecs of the benchmark shapes, written for these exact structs without
//! any of the runtime's functions, so that they measure what the generated code could reach
//! rather than share its costs:
//!
//! * [`checked`]: what a careful engineer writes with the checks the runtime makes. It
//!   appends each value to a `Vec` (a capacity check per write) and reads through a cursor
//!   that reports every malformed input as an error with its offset: lengths and block
//!   counts against the input left, UTF-8, varint length, `int` range, union and enum
//!   indexes, and an item budget for arrays and maps.
//! * [`unchecked`]: the straight-line limit. It reserves room for the largest encoding once,
//!   writes into that slice with no capacity check per value, and reads assuming the input
//!   is well formed: a malformed input is refused as `None` (safe code still checks bounds
//!   and UTF-8), without position, budget or range checks.
//!
//! Both write union indexes, block ends and enum indexes as the literal bytes they are.

pub mod checked;
pub mod unchecked;

pub use checked::Checked;
pub use unchecked::Unchecked;

/// The zig-zag varint bytes of union branch indexes 0 and 1.
const BRANCH_0: u8 = 0;
const BRANCH_1: u8 = 2;

/// Maps signed integers to the unsigned ones Avro writes as varints.
#[inline(always)]
fn zigzag(value: i64) -> u64 {
    ((value << 1) ^ (value >> 63)) as u64
}

/// Maps a varint back to the signed integer.
#[inline(always)]
fn unzigzag(value: u64) -> i64 {
    ((value >> 1) as i64) ^ -((value & 1) as i64)
}

/// The `Severity` symbols in schema order.
const SEVERITIES: [crate::shapes::Severity; 4] = [
    crate::shapes::Severity::Low,
    crate::shapes::Severity::Medium,
    crate::shapes::Severity::High,
    crate::shapes::Severity::Critical,
];
