//! Errors of encoding and decoding.

/// A value could not be written in its schema's binary encoding.
#[derive(Debug, thiserror::Error)]
#[error("cannot encode: {0}")]
pub struct EncodeError(pub String);

/// Bytes could not be read as a value of the schema.
#[derive(Debug, thiserror::Error)]
#[error("cannot decode: {0}")]
pub struct DecodeError(pub String);
