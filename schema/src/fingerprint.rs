//! The CRC-64-AVRO (64-bit Rabin) fingerprint (Avro specification, "Schema Fingerprints").
//!
//! It is a `const fn`, so generated code can compute `AvroSchema::FINGERPRINT` from its
//! canonical form at compile time, and the schema model can call it at run time.

/// The fingerprint of the empty input; also the polynomial the table is built from.
const EMPTY: u64 = 0xc15d_213a_a4d7_a795;

/// The byte-at-a-time lookup table of the algorithm, built at compile time.
const TABLE: [u64; 256] = build_table();

const fn build_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut fp = i as u64;
        let mut bit = 0;
        while bit < 8 {
            fp = (fp >> 1) ^ (EMPTY & (fp & 1).wrapping_neg());
            bit += 1;
        }
        table[i] = fp;
        i += 1;
    }
    table
}

/// The CRC-64-AVRO fingerprint of `bytes` (normally a schema's Parsing Canonical Form).
///
/// Single-object encoding writes it as 8 little-endian bytes.
pub const fn rabin_fingerprint(bytes: &[u8]) -> u64 {
    Rabin::new().update(bytes).finish()
}

/// The CRC-64-AVRO fingerprint of a text fed in parts, so that a text assembled from pieces
/// is fingerprinted without being joined first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rabin(u64);

impl Rabin {
    /// The state before any byte.
    pub const fn new() -> Self {
        Rabin(EMPTY)
    }

    /// The state after `bytes` more.
    #[must_use]
    pub const fn update(self, bytes: &[u8]) -> Self {
        let mut fp = self.0;
        let mut i = 0;
        while i < bytes.len() {
            fp = (fp >> 8) ^ TABLE[((fp ^ bytes[i] as u64) & 0xff) as usize];
            i += 1;
        }
        Rabin(fp)
    }

    /// The fingerprint of the bytes fed so far.
    pub const fn finish(self) -> u64 {
        self.0
    }
}

impl Default for Rabin {
    fn default() -> Self {
        Rabin::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_input_gives_the_initial_value() {
        assert_eq!(rabin_fingerprint(b""), EMPTY);
    }

    #[test]
    fn usable_in_constants() {
        const FP: u64 = rabin_fingerprint(b"\"int\"");
        assert_eq!(FP, rabin_fingerprint("\"int\"".as_bytes()));
    }

    #[test]
    fn a_text_fed_in_parts_has_the_fingerprint_of_the_whole() {
        let text = br#"{"type":"fixed","name":"md5","size":16}"#;
        for cut in 0..=text.len() {
            let (a, b) = text.split_at(cut);
            assert_eq!(
                Rabin::new().update(a).update(b).finish(),
                rabin_fingerprint(text)
            );
        }
    }
}
