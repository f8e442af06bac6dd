//! Avro binary codec primitives.

/// A cursor over untrusted input bytes.
pub struct Reader<'a> {
    /// The bytes not read yet.
    pub rest: &'a [u8],
}
