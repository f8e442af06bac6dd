//! The byte stream a file is read from: buffered, counting its offset for error messages,
//! and reading the varints and length-prefixed strings of headers and block headers without
//! trusting a length before the bytes are there.

use std::io::{self, BufRead, BufReader, Read};

/// The most [`Input::read_up_to`] reserves before any of the bytes have arrived.
const FIRST_CHUNK: usize = 64 << 10;

/// A buffered stream that knows how many bytes it has consumed.
#[derive(Debug)]
pub(crate) struct Input<R> {
    inner: BufReader<R>,
    offset: u64,
}

/// Why a varint could not be read.
#[derive(Debug)]
pub(crate) enum VarintError {
    /// The stream ended inside it (or, for [`Input::read_long`], before it).
    Eof,
    /// More than 10 bytes, or bits beyond the 64th.
    TooLong,
    /// Reading failed.
    Io(io::Error),
}

impl<R: Read> Input<R> {
    /// Buffers `inner`, whose first byte is at `offset` of the file.
    pub(crate) fn new(inner: R, offset: u64) -> Self {
        Input {
            inner: BufReader::with_capacity(1 << 16, inner),
            offset,
        }
    }

    /// The offset of the next byte in the file.
    pub(crate) fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether the stream has no byte left.
    pub(crate) fn at_end(&mut self) -> io::Result<bool> {
        Ok(self.inner.fill_buf()?.is_empty())
    }

    /// Reads up to `buf.len()` bytes, fewer only at the end of the stream; returns how many.
    pub(crate) fn read_full(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.inner.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.offset += filled as u64;
        Ok(filled)
    }

    /// Replaces the contents of `out` with up to `len` bytes, fewer only at the end of the
    /// stream; returns how many. `out` grows only as bytes arrive, at most doubling what has
    /// arrived, so a hostile length costs nothing before the data is really there; a buffer
    /// reused from block to block is neither zeroed again nor filled through the buffer of
    /// this stream (a large read goes straight to it).
    pub(crate) fn read_up_to(&mut self, len: u64, out: &mut Vec<u8>) -> io::Result<usize> {
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        let mut filled = 0;
        while filled < len {
            let end = len.min(filled.saturating_mul(2).max(out.len()).max(FIRST_CHUNK));
            if out.len() < end {
                out.resize(end, 0);
            }
            filled += self.read_full(&mut out[filled..end])?;
            if filled < end {
                break;
            }
        }
        out.truncate(filled);
        Ok(filled)
    }

    /// Reads one byte, `None` at the end of the stream.
    fn read_byte(&mut self) -> io::Result<Option<u8>> {
        let byte = self.inner.fill_buf()?.first().copied();
        if byte.is_some() {
            self.inner.consume(1);
            self.offset += 1;
        }
        Ok(byte)
    }

    /// Reads a zig-zag `long`.
    pub(crate) fn read_long(&mut self) -> Result<i64, VarintError> {
        let mut value = 0u64;
        for i in 0..10 {
            let byte = self
                .read_byte()
                .map_err(VarintError::Io)?
                .ok_or(VarintError::Eof)?;
            if i == 9 && byte > 1 {
                return Err(VarintError::TooLong);
            }
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                return Ok(((value >> 1) as i64) ^ -((value & 1) as i64));
            }
        }
        Err(VarintError::TooLong)
    }
}

impl std::fmt::Display for VarintError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VarintError::Eof => f.write_str("the file ends inside a number"),
            VarintError::TooLong => f.write_str("a number longer than 10 bytes"),
            VarintError::Io(e) => write!(f, "{e}"),
        }
    }
}
