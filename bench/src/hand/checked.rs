//! The hand-written codec with the runtime's checks (see the parent module): each write
//! appends to the `Vec` with its own capacity check; each read is checked and a malformed
//! input is an [`Error`] with its offset.

use std::collections::HashMap;
use std::fmt;

use avdl2rs::chrono::DateTime;

use super::{unzigzag, zigzag, BRANCH_0, BRANCH_1, SEVERITIES};
use crate::shapes::{ClickEvent, Digest, LogLine, Metrics, OrderEvent, Page, User};

/// Why an input is not a value of the shape, and the offset where that shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The byte offset in the input.
    pub offset: usize,
    /// What is wrong there.
    pub what: &'static str,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {}", self.what, self.offset)
    }
}

impl std::error::Error for Error {}

/// A shape with the checked hand-written codec.
pub trait Checked: Sized {
    /// Appends the encoding of `self` to `out`, one capacity-checked write per value.
    fn encode_checked(&self, out: &mut Vec<u8>);
    /// Reads one value with every check the runtime makes.
    fn decode_checked(input: &mut Input<'_>) -> Result<Self, Error>;
}

#[inline]
fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

#[inline]
fn put_long(out: &mut Vec<u8>, value: i64) {
    put_varint(out, zigzag(value));
}

#[inline]
fn put_double(out: &mut Vec<u8>, value: f64) {
    out.extend_from_slice(&value.to_le_bytes());
}

#[inline]
fn put_str(out: &mut Vec<u8>, value: &str) {
    put_long(out, value.len() as i64);
    out.extend_from_slice(value.as_bytes());
}

#[inline]
fn put_optional_str(out: &mut Vec<u8>, value: Option<&str>) {
    match value {
        None => out.push(BRANCH_0),
        Some(text) => {
            out.push(BRANCH_1);
            put_str(out, text);
        }
    }
}

/// A cursor over untrusted input, with the runtime's default item budget for arrays and
/// maps (8 items a byte, at least 65,536).
pub struct Input<'a> {
    bytes: &'a [u8],
    pos: usize,
    items_left: usize,
}

impl<'a> Input<'a> {
    /// A cursor at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Input {
            bytes,
            pos: 0,
            items_left: bytes.len().saturating_mul(8).max(1 << 16),
        }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.pos == self.bytes.len()
    }

    #[cold]
    fn error(&self, what: &'static str) -> Error {
        Error {
            offset: self.pos,
            what,
        }
    }

    #[inline]
    fn take(&mut self, len: usize) -> Result<&'a [u8], Error> {
        match self.bytes[self.pos..].get(..len) {
            Some(taken) => {
                self.pos += len;
                Ok(taken)
            }
            None => Err(self.error("input ends inside a value")),
        }
    }

    #[inline]
    fn varint(&mut self) -> Result<u64, Error> {
        let mut value = 0u64;
        for (i, &byte) in self.bytes[self.pos..].iter().take(10).enumerate() {
            value |= u64::from(byte & 0x7f) << (7 * i);
            if byte < 0x80 {
                if i == 9 && byte > 1 {
                    break;
                }
                self.pos += i + 1;
                return Ok(value);
            }
        }
        Err(self.error("bad varint"))
    }

    #[inline]
    fn long(&mut self) -> Result<i64, Error> {
        self.varint().map(unzigzag)
    }

    #[inline]
    fn int(&mut self) -> Result<i32, Error> {
        let value = self.long()?;
        i32::try_from(value).map_err(|_| self.error("int out of range"))
    }

    #[inline]
    fn double(&mut self) -> Result<f64, Error> {
        let bytes = self.take(8)?;
        Ok(f64::from_le_bytes(bytes.try_into().expect("8 bytes")))
    }

    #[inline]
    fn float(&mut self) -> Result<f32, Error> {
        let bytes = self.take(4)?;
        Ok(f32::from_le_bytes(bytes.try_into().expect("4 bytes")))
    }

    #[inline]
    fn boolean(&mut self) -> Result<bool, Error> {
        match self.take(1)? {
            [0] => Ok(false),
            [1] => Ok(true),
            _ => Err(self.error("bad boolean")),
        }
    }

    #[inline]
    fn str(&mut self) -> Result<&'a str, Error> {
        let len = self.long()?;
        if len < 0 || len as u64 > (self.bytes.len() - self.pos) as u64 {
            return Err(self.error("bad length"));
        }
        let bytes = self.take(len as usize)?;
        std::str::from_utf8(bytes).map_err(|_| self.error("invalid UTF-8"))
    }

    #[inline]
    fn string(&mut self) -> Result<String, Error> {
        self.str().map(str::to_owned)
    }

    #[inline]
    fn index(&mut self, count: usize) -> Result<usize, Error> {
        let index = self.int()?;
        match usize::try_from(index) {
            Ok(index) if index < count => Ok(index),
            _ => Err(self.error("index out of range")),
        }
    }

    #[inline]
    fn optional_string(&mut self) -> Result<Option<String>, Error> {
        match self.index(2)? {
            0 => Ok(None),
            _ => self.string().map(Some),
        }
    }

    /// The item count of the next array or map block (0 at the end), taken from the budget.
    #[inline]
    fn block(&mut self) -> Result<usize, Error> {
        let mut count = self.long()?;
        if count < 0 {
            let size = self.long()?;
            if size < 0 || size as u64 > (self.bytes.len() - self.pos) as u64 {
                return Err(self.error("bad block size"));
            }
            count = count
                .checked_neg()
                .ok_or_else(|| self.error("bad block count"))?;
        }
        match usize::try_from(count) {
            Ok(count) if count <= self.items_left => {
                self.items_left -= count;
                Ok(count)
            }
            _ => Err(self.error("too many items")),
        }
    }
}

impl Checked for OrderEvent {
    #[inline]
    fn encode_checked(&self, out: &mut Vec<u8>) {
        put_long(out, i64::from(self.id));
        put_double(out, self.amount);
        put_long(out, i64::from(self.user_id));
        put_str(out, &self.currency);
        match self.discount {
            None => out.push(BRANCH_0),
            Some(discount) => {
                out.push(BRANCH_1);
                put_double(out, discount);
            }
        }
    }

    #[inline]
    fn decode_checked(input: &mut Input<'_>) -> Result<Self, Error> {
        Ok(OrderEvent {
            id: input.int()?,
            amount: input.double()?,
            user_id: input.int()?,
            currency: input.string()?,
            discount: match input.index(2)? {
                0 => None,
                _ => Some(input.double()?),
            },
        })
    }
}

impl Checked for LogLine {
    #[inline]
    fn encode_checked(&self, out: &mut Vec<u8>) {
        put_str(out, &self.host);
        put_str(out, &self.service);
        put_str(out, &self.level);
        put_str(out, &self.message);
        put_optional_str(out, self.trace_id.as_deref());
    }

    #[inline]
    fn decode_checked(input: &mut Input<'_>) -> Result<Self, Error> {
        Ok(LogLine {
            host: input.string()?,
            service: input.string()?,
            level: input.string()?,
            message: input.string()?,
            trace_id: input.optional_string()?,
        })
    }
}

impl Checked for ClickEvent {
    #[inline]
    fn encode_checked(&self, out: &mut Vec<u8>) {
        put_str(out, &self.event_id);
        put_long(out, self.at.timestamp_millis());
        put_long(out, self.user.id);
        put_str(out, &self.user.name);
        put_optional_str(out, self.user.email.as_deref());
        put_str(out, &self.page.url);
        put_optional_str(out, self.page.referrer.as_deref());
        put_optional_str(out, self.page.title.as_deref());
        put_optional_str(out, self.session_id.as_deref());
    }

    #[inline]
    fn decode_checked(input: &mut Input<'_>) -> Result<Self, Error> {
        Ok(ClickEvent {
            event_id: input.string()?,
            at: {
                let millis = input.long()?;
                DateTime::from_timestamp_millis(millis)
                    .ok_or_else(|| input.error("timestamp out of range"))?
            },
            user: User {
                id: input.long()?,
                name: input.string()?,
                email: input.optional_string()?,
            },
            page: Page {
                url: input.string()?,
                referrer: input.optional_string()?,
                title: input.optional_string()?,
            },
            session_id: input.optional_string()?,
        })
    }
}

impl Checked for Metrics {
    #[inline]
    fn encode_checked(&self, out: &mut Vec<u8>) {
        put_long(out, self.id);
        put_str(out, &self.host);
        out.push(u8::from(self.healthy));
        out.extend_from_slice(&self.load.to_le_bytes());
        if !self.samples.is_empty() {
            put_long(out, self.samples.len() as i64);
            out.reserve(self.samples.len() * 8 + 1);
            for &sample in &self.samples {
                put_double(out, sample);
            }
        }
        out.push(0);
        if !self.counters.is_empty() {
            put_long(out, self.counters.len() as i64);
            for (key, &count) in &self.counters {
                put_str(out, key);
                put_long(out, count);
            }
        }
        out.push(0);
        out.push(zigzag(self.severity as i64) as u8);
        out.extend_from_slice(&self.digest.0);
    }

    #[inline]
    fn decode_checked(input: &mut Input<'_>) -> Result<Self, Error> {
        Ok(Metrics {
            id: input.long()?,
            host: input.string()?,
            healthy: input.boolean()?,
            load: input.float()?,
            samples: read_samples(input)?,
            counters: read_counters(input)?,
            severity: SEVERITIES[input.index(SEVERITIES.len())?],
            digest: Digest(input.take(16)?.try_into().expect("16 bytes")),
        })
    }
}

/// Reads an `array<double>`, each block's bytes taken at once and converted.
#[inline]
fn read_samples(input: &mut Input<'_>) -> Result<Vec<f64>, Error> {
    let mut samples = Vec::new();
    loop {
        let count = input.block()?;
        if count == 0 {
            return Ok(samples);
        }
        let len = count
            .checked_mul(8)
            .ok_or_else(|| input.error("block too large"))?;
        let bytes = input.take(len)?;
        let (chunks, _) = bytes.as_chunks::<8>();
        samples.extend(chunks.iter().map(|&chunk| f64::from_le_bytes(chunk)));
    }
}

/// Reads a `map<long>` into a map sized for its first block (each entry takes at least two
/// bytes, which bounds the reservation by the input).
#[inline]
fn read_counters(input: &mut Input<'_>) -> Result<HashMap<String, i64>, Error> {
    let mut counters = HashMap::new();
    loop {
        let count = input.block()?;
        if count == 0 {
            return Ok(counters);
        }
        counters.reserve(count.min((input.bytes.len() - input.pos) / 2));
        for _ in 0..count {
            let key = input.string()?;
            counters.insert(key, input.long()?);
        }
    }
}
