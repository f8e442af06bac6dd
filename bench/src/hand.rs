//! The hand-written codec of the benchmark shapes: what a careful engineer writes with the
//! runtime's codec primitives for these exact structs, and so the practical limit for the
//! generated code. It skips what the generated code adds for users — error paths naming the
//! field — and writes union indexes and block ends as the literal bytes they are.

use std::collections::HashMap;

use avdl2rs::chrono::{DateTime, Utc};
use avdl2rs::codec::{
    write_boolean, write_double, write_fixed, write_float, write_int, write_long, write_string,
    Reader,
};
use avdl2rs::DecodeError;

use crate::shapes::{ClickEvent, Digest, LogLine, Metrics, OrderEvent, Page, Severity, User};

/// A type with a hand-written Avro binary codec.
pub trait HandCodec: Sized {
    /// Appends the Avro binary encoding of `self` to `out`.
    fn hand_encode(&self, out: &mut Vec<u8>);
    /// Reads one value.
    fn hand_decode(reader: &mut Reader<'_>) -> Result<Self, DecodeError>;
}

/// The zig-zag varint bytes of union branch indexes 0 and 1.
const BRANCH_0: u8 = 0;
const BRANCH_1: u8 = 2;

/// Writes a `["null", "string"]` union.
#[inline]
fn write_optional_string(out: &mut Vec<u8>, value: Option<&str>) {
    match value {
        None => out.push(BRANCH_0),
        Some(text) => {
            out.push(BRANCH_1);
            write_string(out, text);
        }
    }
}

/// Reads a `string` into an owned `String`.
#[inline]
fn read_owned(reader: &mut Reader<'_>) -> Result<String, DecodeError> {
    reader.read_string().map(str::to_owned)
}

/// Reads a `["null", "string"]` union.
#[inline]
fn read_optional_string(reader: &mut Reader<'_>) -> Result<Option<String>, DecodeError> {
    match reader.read_union_index(2)? {
        0 => Ok(None),
        _ => read_owned(reader).map(Some),
    }
}

impl HandCodec for OrderEvent {
    #[inline]
    fn hand_encode(&self, out: &mut Vec<u8>) {
        write_int(out, self.id);
        write_double(out, self.amount);
        write_int(out, self.user_id);
        write_string(out, &self.currency);
        match self.discount {
            None => out.push(BRANCH_0),
            Some(discount) => {
                out.push(BRANCH_1);
                write_double(out, discount);
            }
        }
    }

    #[inline]
    fn hand_decode(reader: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(OrderEvent {
            id: reader.read_int()?,
            amount: reader.read_double()?,
            user_id: reader.read_int()?,
            currency: read_owned(reader)?,
            discount: match reader.read_union_index(2)? {
                0 => None,
                _ => Some(reader.read_double()?),
            },
        })
    }
}

impl HandCodec for LogLine {
    #[inline]
    fn hand_encode(&self, out: &mut Vec<u8>) {
        write_string(out, &self.host);
        write_string(out, &self.service);
        write_string(out, &self.level);
        write_string(out, &self.message);
        write_optional_string(out, self.trace_id.as_deref());
    }

    #[inline]
    fn hand_decode(reader: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(LogLine {
            host: read_owned(reader)?,
            service: read_owned(reader)?,
            level: read_owned(reader)?,
            message: read_owned(reader)?,
            trace_id: read_optional_string(reader)?,
        })
    }
}

impl HandCodec for ClickEvent {
    #[inline]
    fn hand_encode(&self, out: &mut Vec<u8>) {
        write_string(out, &self.event_id);
        write_long(out, self.at.timestamp_millis());
        write_long(out, self.user.id);
        write_string(out, &self.user.name);
        write_optional_string(out, self.user.email.as_deref());
        write_string(out, &self.page.url);
        write_optional_string(out, self.page.referrer.as_deref());
        write_optional_string(out, self.page.title.as_deref());
        write_optional_string(out, self.session_id.as_deref());
    }

    #[inline]
    fn hand_decode(reader: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(ClickEvent {
            event_id: read_owned(reader)?,
            at: read_timestamp_millis(reader)?,
            user: User {
                id: reader.read_long()?,
                name: read_owned(reader)?,
                email: read_optional_string(reader)?,
            },
            page: Page {
                url: read_owned(reader)?,
                referrer: read_optional_string(reader)?,
                title: read_optional_string(reader)?,
            },
            session_id: read_optional_string(reader)?,
        })
    }
}

/// Reads a `timestamp-millis` as a UTC instant.
#[inline]
fn read_timestamp_millis(reader: &mut Reader<'_>) -> Result<DateTime<Utc>, DecodeError> {
    let start = reader.position();
    let millis = reader.read_long()?;
    DateTime::from_timestamp_millis(millis).ok_or_else(|| {
        DecodeError::invalid_logical("timestamp-millis", format!("{millis} out of range"), start)
    })
}

impl HandCodec for Metrics {
    #[inline]
    fn hand_encode(&self, out: &mut Vec<u8>) {
        write_long(out, self.id);
        write_string(out, &self.host);
        write_boolean(out, self.healthy);
        write_float(out, self.load);
        if !self.samples.is_empty() {
            out.reserve(self.samples.len() * 8 + 2);
            write_long(out, self.samples.len() as i64);
            for &sample in &self.samples {
                write_double(out, sample);
            }
        }
        out.push(0);
        if !self.counters.is_empty() {
            write_long(out, self.counters.len() as i64);
            for (key, &count) in &self.counters {
                write_string(out, key);
                write_long(out, count);
            }
        }
        out.push(0);
        write_int(out, self.severity as i32);
        write_fixed(out, &self.digest.0);
    }

    #[inline]
    fn hand_decode(reader: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(Metrics {
            id: reader.read_long()?,
            host: read_owned(reader)?,
            healthy: reader.read_boolean()?,
            load: reader.read_float()?,
            samples: reader.read_array(Reader::read_double)?,
            counters: read_counters(reader)?,
            severity: read_severity(reader)?,
            digest: Digest(reader.read_fixed::<16>()?),
        })
    }
}

/// Reads a `map<long>` into a `HashMap`, inserting each entry directly.
#[inline]
fn read_counters(reader: &mut Reader<'_>) -> Result<HashMap<String, i64>, DecodeError> {
    let mut counters = HashMap::new();
    reader.read_blocks(|reader, _| {
        let key = read_owned(reader)?;
        counters.insert(key, reader.read_long()?);
        Ok(())
    })?;
    Ok(counters)
}

/// Reads the `Severity` enum.
#[inline]
fn read_severity(reader: &mut Reader<'_>) -> Result<Severity, DecodeError> {
    Ok(match reader.read_enum_index(4)? {
        0 => Severity::Low,
        1 => Severity::Medium,
        2 => Severity::High,
        _ => Severity::Critical,
    })
}
