//! The CRC-64-AVRO (64-bit Rabin) fingerprint (Avro specification, "Schema Fingerprints").
//!
//! It is a `const fn`, so generated code can compute `AvroSchema::FINGERPRINT` from its
//! canonical form at compile time, and the schema model can call it at run time.

/// The fingerprint of the empty input; also the polynomial the table is built from.
const EMPTY: u64 = 0xc15d_213a_a4d7_a795;

/// The lookup tables of the algorithm, built at compile time: `TABLES[0]` steps one byte;
/// `TABLES[k]` gives the effect of a byte followed by `k` more, so that eight bytes take
/// eight independent lookups rather than a chain of eight dependent ones.
const TABLES: [[u64; 256]; 8] = build_tables();

const fn build_tables() -> [[u64; 256]; 8] {
    let mut tables = [[0u64; 256]; 8];
    let mut i = 0;
    while i < 256 {
        let mut fp = i as u64;
        let mut bit = 0;
        while bit < 8 {
            fp = (fp >> 1) ^ (EMPTY & (fp & 1).wrapping_neg());
            bit += 1;
        }
        tables[0][i] = fp;
        i += 1;
    }
    let mut k = 1;
    while k < 8 {
        let mut i = 0;
        while i < 256 {
            let previous = tables[k - 1][i];
            tables[k][i] = (previous >> 8) ^ tables[0][(previous & 0xff) as usize];
            i += 1;
        }
        k += 1;
    }
    tables
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
        let t = &TABLES;
        let mut fp = self.0;
        let mut i = 0;
        while i + 8 <= bytes.len() {
            let mut word = [0u8; 8];
            let mut j = 0;
            while j < 8 {
                word[j] = bytes[i + j];
                j += 1;
            }
            let x = fp ^ u64::from_le_bytes(word);
            fp = t[7][byte(x, 0)]
                ^ t[6][byte(x, 1)]
                ^ t[5][byte(x, 2)]
                ^ t[4][byte(x, 3)]
                ^ t[3][byte(x, 4)]
                ^ t[2][byte(x, 5)]
                ^ t[1][byte(x, 6)]
                ^ t[0][byte(x, 7)];
            i += 8;
        }
        while i < bytes.len() {
            fp = (fp >> 8) ^ t[0][((fp ^ bytes[i] as u64) & 0xff) as usize];
            i += 1;
        }
        Rabin(fp)
    }

    /// The fingerprint of the bytes fed so far.
    pub const fn finish(self) -> u64 {
        self.0
    }

    /// The state after the bytes fed to `self`, then those fed to `next` (from
    /// [`Rabin::new`]), `next_len` of them: a text's fingerprint from those of its parts, in
    /// time logarithmic in the length of the second.
    #[must_use]
    pub fn then(self, next: Rabin, next_len: usize) -> Self {
        // The state is linear in the bytes and the state before them: `next` is what
        // `next_len` bytes make of the initial state, so replacing that state by ours adds
        // (our state + the initial one) carried through `next_len` zero bytes.
        Rabin(times_x8n(self.0 ^ EMPTY, next_len) ^ next.0)
    }
}

/// `state` carried through `n` zero bytes: the product of the polynomial `state` stands for
/// and x^(8n), modulo the CRC's polynomial (bit 63 stands for x^0, bit 0 for x^63).
fn times_x8n(state: u64, n: usize) -> u64 {
    const ONE: u64 = 1 << 63;
    let mut power = ONE;
    let mut square = ONE >> 8; // x^8, one byte
    let mut n = n;
    while n > 0 {
        if n & 1 == 1 {
            power = multiply(power, square);
        }
        square = multiply(square, square);
        n >>= 1;
    }
    multiply(state, power)
}

/// The product of two polynomials modulo the CRC's polynomial.
fn multiply(a: u64, mut b: u64) -> u64 {
    let mut product = 0;
    for k in 0..64 {
        if a & (1 << (63 - k)) != 0 {
            product ^= b;
        }
        // b times x: one zero bit through the register.
        b = (b >> 1) ^ (EMPTY & (b & 1).wrapping_neg());
    }
    product
}

/// Byte `n` (from the least significant) of `x`, as a table index.
const fn byte(x: u64, n: u32) -> usize {
    ((x >> (8 * n)) & 0xff) as usize
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

    /// The algorithm's definition, a bit at a time.
    fn bitwise(bytes: &[u8]) -> u64 {
        let mut fp = EMPTY;
        for &byte in bytes {
            fp ^= u64::from(byte);
            for _ in 0..8 {
                fp = (fp >> 1) ^ (EMPTY & (fp & 1).wrapping_neg());
            }
        }
        fp
    }

    #[test]
    fn every_length_has_the_fingerprint_of_the_definition() {
        let text: Vec<u8> = (0..=255u8).cycle().take(300).collect();
        for len in 0..text.len() {
            assert_eq!(
                rabin_fingerprint(&text[..len]),
                bitwise(&text[..len]),
                "{len}"
            );
        }
    }

    #[test]
    fn the_fingerprints_of_parts_make_the_whole() {
        let text: Vec<u8> = (0..=255u8).rev().cycle().take(700).collect();
        for cut in [0, 1, 7, 8, 9, 64, 255, 256, 300, 699, 700] {
            let (a, b) = text.split_at(cut);
            let whole = Rabin::new().update(a).then(Rabin::new().update(b), b.len());
            assert_eq!(whole.finish(), rabin_fingerprint(&text), "{cut}");
        }
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
