//! The straight-line hand-written codec (see the parent module). Encoding grows the output
//! once by the most bytes the value can take and writes into that slice; decoding assumes
//! well-formed input and refuses anything else as `None`, with no position, budget or range
//! checks.

use std::collections::HashMap;

use avdl2rs::chrono::DateTime;

use super::{unzigzag, zigzag, BRANCH_0, BRANCH_1, SEVERITIES};
use crate::shapes::{ClickEvent, Digest, LogLine, Metrics, OrderEvent, Page, User};

/// The most bytes of a varint.
const VARINT: usize = 10;

/// A shape with the straight-line hand-written codec.
pub trait Unchecked: Sized {
    /// The most bytes the encoding of `self` can take.
    fn max_len(&self) -> usize;
    /// Writes the encoding of `self`; `out` has room for [`Unchecked::max_len`] bytes.
    fn write(&self, out: &mut Output<'_>);
    /// Reads one value from well-formed input.
    fn decode_unchecked(input: &mut Input<'_>) -> Option<Self>;

    /// Appends the encoding of `self` to `out`: one reservation (the output grown by
    /// [`Unchecked::max_len`] bytes), the writes, then the output cut to what was written.
    #[inline]
    fn encode_unchecked(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.resize(start + self.max_len(), 0);
        let mut output = Output {
            buffer: &mut out[start..],
            pos: 0,
        };
        self.write(&mut output);
        let end = start + output.pos;
        out.truncate(end);
    }
}

/// A slice with room for a whole value, written front to back.
pub struct Output<'a> {
    buffer: &'a mut [u8],
    pos: usize,
}

impl Output<'_> {
    #[inline(always)]
    fn byte(&mut self, byte: u8) {
        self.buffer[self.pos] = byte;
        self.pos += 1;
    }

    #[inline(always)]
    fn bytes(&mut self, bytes: &[u8]) {
        self.buffer[self.pos..self.pos + bytes.len()].copy_from_slice(bytes);
        self.pos += bytes.len();
    }

    #[inline(always)]
    fn long(&mut self, value: i64) {
        let mut value = zigzag(value);
        while value >= 0x80 {
            self.byte((value as u8) | 0x80);
            value >>= 7;
        }
        self.byte(value as u8);
    }

    #[inline(always)]
    fn double(&mut self, value: f64) {
        self.bytes(&value.to_le_bytes());
    }

    #[inline(always)]
    fn str(&mut self, value: &str) {
        self.long(value.len() as i64);
        self.bytes(value.as_bytes());
    }

    #[inline(always)]
    fn optional_str(&mut self, value: Option<&str>) {
        match value {
            None => self.byte(BRANCH_0),
            Some(text) => {
                self.byte(BRANCH_1);
                self.str(text);
            }
        }
    }
}

/// The most bytes of a `string`.
#[inline(always)]
fn str_len(value: &str) -> usize {
    VARINT + value.len()
}

/// The most bytes of a `["null", "string"]` union.
#[inline(always)]
fn optional_str_len(value: Option<&str>) -> usize {
    1 + value.map_or(0, str_len)
}

/// The input not read yet.
pub struct Input<'a> {
    rest: &'a [u8],
}

impl<'a> Input<'a> {
    /// A cursor at the start of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Input { rest: bytes }
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    #[inline(always)]
    fn byte(&mut self) -> Option<u8> {
        let (&byte, rest) = self.rest.split_first()?;
        self.rest = rest;
        Some(byte)
    }

    #[inline(always)]
    fn take(&mut self, len: usize) -> Option<&'a [u8]> {
        let (taken, rest) = self.rest.split_at_checked(len)?;
        self.rest = rest;
        Some(taken)
    }

    #[inline(always)]
    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (array, rest) = self.rest.split_first_chunk::<N>()?;
        self.rest = rest;
        Some(*array)
    }

    #[inline(always)]
    fn long(&mut self) -> Option<i64> {
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f).wrapping_shl(shift);
            if byte < 0x80 {
                return Some(unzigzag(value));
            }
            shift += 7;
        }
    }

    #[inline(always)]
    fn int(&mut self) -> Option<i32> {
        self.long().map(|value| value as i32)
    }

    #[inline(always)]
    fn double(&mut self) -> Option<f64> {
        self.array().map(f64::from_le_bytes)
    }

    #[inline(always)]
    fn string(&mut self) -> Option<String> {
        let len = self.long()?;
        let bytes = self.take(len as usize)?;
        std::str::from_utf8(bytes).ok().map(str::to_owned)
    }

    #[inline(always)]
    fn optional_string(&mut self) -> Option<Option<String>> {
        match self.byte()? {
            BRANCH_0 => Some(None),
            _ => self.string().map(Some),
        }
    }

    /// The item count of the next array or map block (0 at the end).
    #[inline(always)]
    fn block(&mut self) -> Option<usize> {
        let count = self.long()?;
        if count < 0 {
            self.long()?;
        }
        Some(count.unsigned_abs() as usize)
    }
}

impl Unchecked for OrderEvent {
    #[inline]
    fn max_len(&self) -> usize {
        VARINT + 8 + VARINT + str_len(&self.currency) + 1 + 8
    }

    #[inline]
    fn write(&self, out: &mut Output<'_>) {
        out.long(i64::from(self.id));
        out.double(self.amount);
        out.long(i64::from(self.user_id));
        out.str(&self.currency);
        match self.discount {
            None => out.byte(BRANCH_0),
            Some(discount) => {
                out.byte(BRANCH_1);
                out.double(discount);
            }
        }
    }

    #[inline]
    fn decode_unchecked(input: &mut Input<'_>) -> Option<Self> {
        Some(OrderEvent {
            id: input.int()?,
            amount: input.double()?,
            user_id: input.int()?,
            currency: input.string()?,
            discount: match input.byte()? {
                BRANCH_0 => None,
                _ => Some(input.double()?),
            },
        })
    }
}

impl Unchecked for LogLine {
    #[inline]
    fn max_len(&self) -> usize {
        str_len(&self.host)
            + str_len(&self.service)
            + str_len(&self.level)
            + str_len(&self.message)
            + optional_str_len(self.trace_id.as_deref())
    }

    #[inline]
    fn write(&self, out: &mut Output<'_>) {
        out.str(&self.host);
        out.str(&self.service);
        out.str(&self.level);
        out.str(&self.message);
        out.optional_str(self.trace_id.as_deref());
    }

    #[inline]
    fn decode_unchecked(input: &mut Input<'_>) -> Option<Self> {
        Some(LogLine {
            host: input.string()?,
            service: input.string()?,
            level: input.string()?,
            message: input.string()?,
            trace_id: input.optional_string()?,
        })
    }
}

impl Unchecked for ClickEvent {
    #[inline]
    fn max_len(&self) -> usize {
        str_len(&self.event_id)
            + 2 * VARINT
            + str_len(&self.user.name)
            + optional_str_len(self.user.email.as_deref())
            + str_len(&self.page.url)
            + optional_str_len(self.page.referrer.as_deref())
            + optional_str_len(self.page.title.as_deref())
            + optional_str_len(self.session_id.as_deref())
    }

    #[inline]
    fn write(&self, out: &mut Output<'_>) {
        out.str(&self.event_id);
        out.long(self.at.timestamp_millis());
        out.long(self.user.id);
        out.str(&self.user.name);
        out.optional_str(self.user.email.as_deref());
        out.str(&self.page.url);
        out.optional_str(self.page.referrer.as_deref());
        out.optional_str(self.page.title.as_deref());
        out.optional_str(self.session_id.as_deref());
    }

    #[inline]
    fn decode_unchecked(input: &mut Input<'_>) -> Option<Self> {
        Some(ClickEvent {
            event_id: input.string()?,
            at: DateTime::from_timestamp_millis(input.long()?)?,
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

impl Unchecked for Metrics {
    #[inline]
    fn max_len(&self) -> usize {
        let counters: usize = self.counters.keys().map(|key| str_len(key) + VARINT).sum();
        VARINT
            + str_len(&self.host)
            + 1
            + 4
            + VARINT
            + self.samples.len() * 8
            + 1
            + VARINT
            + counters
            + 1
            + 1
            + 16
    }

    #[inline]
    fn write(&self, out: &mut Output<'_>) {
        out.long(self.id);
        out.str(&self.host);
        out.byte(u8::from(self.healthy));
        out.bytes(&self.load.to_le_bytes());
        if !self.samples.is_empty() {
            out.long(self.samples.len() as i64);
            let end = out.pos + self.samples.len() * 8;
            let (slots, _) = out.buffer[out.pos..end].as_chunks_mut::<8>();
            for (slot, &sample) in slots.iter_mut().zip(&self.samples) {
                *slot = sample.to_le_bytes();
            }
            out.pos = end;
        }
        out.byte(0);
        if !self.counters.is_empty() {
            out.long(self.counters.len() as i64);
            for (key, &count) in &self.counters {
                out.str(key);
                out.long(count);
            }
        }
        out.byte(0);
        out.byte(zigzag(self.severity as i64) as u8);
        out.bytes(&self.digest.0);
    }

    #[inline]
    fn decode_unchecked(input: &mut Input<'_>) -> Option<Self> {
        Some(Metrics {
            id: input.long()?,
            host: input.string()?,
            healthy: input.byte()? != 0,
            load: input.array().map(f32::from_le_bytes)?,
            samples: read_samples(input)?,
            counters: read_counters(input)?,
            severity: *SEVERITIES.get(input.int()? as usize)?,
            digest: Digest(input.array()?),
        })
    }
}

/// Reads an `array<double>`, each block's bytes converted at once.
#[inline(always)]
fn read_samples(input: &mut Input<'_>) -> Option<Vec<f64>> {
    let mut samples = Vec::new();
    loop {
        let count = input.block()?;
        if count == 0 {
            return Some(samples);
        }
        let (chunks, _) = input.take(count.checked_mul(8)?)?.as_chunks::<8>();
        samples.extend(chunks.iter().map(|&chunk| f64::from_le_bytes(chunk)));
    }
}

/// Reads a `map<long>` into a map sized for its first block (each entry takes at least two
/// bytes, which bounds the reservation by the input).
#[inline(always)]
fn read_counters(input: &mut Input<'_>) -> Option<HashMap<String, i64>> {
    let mut counters = HashMap::new();
    loop {
        let count = input.block()?;
        if count == 0 {
            return Some(counters);
        }
        counters.reserve(count.min(input.rest.len() / 2));
        for _ in 0..count {
            let key = input.string()?;
            counters.insert(key, input.long()?);
        }
    }
}
