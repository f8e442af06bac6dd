//! The six implementations under test, each prepared once (schemas parsed, writers and
//! readers built) and then used for every value, so that the benchmark times only the work
//! of encoding and decoding.
//!
//! The apache-avro writers and readers borrow their schema; the schema is leaked to give it
//! the `'static` lifetime, which costs one schema per implementation per shape for the life
//! of the benchmark process.

use std::fmt::Debug;

use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::writer::datum::GenericDatumWriter;
use avdl2rs::codec::Reader;
use avdl2rs::{AvroDecode, AvroEncode};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::hand::{checked, unchecked, Checked, Unchecked};
use crate::{shapes, twins};

/// Any failure of an implementation.
pub type Error = Box<dyn std::error::Error>;

/// One implementation of the Avro binary encoding of values of `T`.
pub trait Codec<T> {
    /// Appends the encoding of `value` to `out`.
    fn encode(&mut self, value: &T, out: &mut Vec<u8>) -> Result<(), Error>;
    /// Reads one value from the start of `bytes`.
    fn decode(&self, bytes: &[u8]) -> Result<T, Error>;
}

/// An apache-avro schema parsed from JSON and leaked (see the module documentation).
fn leaked_apache_schema(schema_json: &str) -> Result<&'static apache_avro::Schema, Error> {
    Ok(Box::leak(Box::new(apache_avro::Schema::parse_str(
        schema_json,
    )?)))
}

/// apache-avro's datum writer and reader for one schema, with schema validation on (as
/// `to_avro_datum` does).
struct ApacheDatum {
    writer: GenericDatumWriter<'static>,
    reader: GenericDatumReader<'static>,
}

impl ApacheDatum {
    fn new(schema_json: &str) -> Result<Self, Error> {
        let schema = leaked_apache_schema(schema_json)?;
        Ok(ApacheDatum {
            writer: GenericDatumWriter::builder(schema).build()?,
            reader: GenericDatumReader::builder(schema).build()?,
        })
    }
}

/// apache-avro through its `Value` tree: `to_value` then the datum writer (what
/// `to_avro_datum` does, without rebuilding the writer); the datum reader then `from_value`.
pub struct ApacheValue(ApacheDatum);

impl ApacheValue {
    /// Prepares the writer and reader of the schema `schema_json`.
    pub fn new(schema_json: &str) -> Result<Self, Error> {
        ApacheDatum::new(schema_json).map(ApacheValue)
    }
}

impl<T: Serialize + DeserializeOwned> Codec<T> for ApacheValue {
    fn encode(&mut self, value: &T, out: &mut Vec<u8>) -> Result<(), Error> {
        let value = apache_avro::to_value(value)?;
        self.0.writer.write_value_ref(out, &value)?;
        Ok(())
    }

    fn decode(&self, mut bytes: &[u8]) -> Result<T, Error> {
        let value = self.0.reader.read_value(&mut bytes)?;
        Ok(apache_avro::from_value(&value)?)
    }
}

/// apache-avro's schema-aware serde path, with no `Value` in between: the datum writer's
/// `write_ser` (a serde `Serializer` driven by the schema) and the datum reader's
/// `read_deser` (a serde `Deserializer` driven by the schema).
pub struct ApacheSerde(ApacheDatum);

impl ApacheSerde {
    /// Prepares the writer and reader of the schema `schema_json`.
    pub fn new(schema_json: &str) -> Result<Self, Error> {
        ApacheDatum::new(schema_json).map(ApacheSerde)
    }
}

impl<T: Serialize + DeserializeOwned> Codec<T> for ApacheSerde {
    fn encode(&mut self, value: &T, out: &mut Vec<u8>) -> Result<(), Error> {
        self.0.writer.write_ser(out, value)?;
        Ok(())
    }

    fn decode(&self, mut bytes: &[u8]) -> Result<T, Error> {
        Ok(self.0.reader.read_deser(&mut bytes)?)
    }
}

/// `serde_avro_fast` with a prepared schema and a serializer config reused across values
/// (the crate's recommended fast path).
pub struct SerdeAvroFast {
    schema: &'static serde_avro_fast::Schema,
    config: serde_avro_fast::ser::SerializerConfig<'static>,
}

impl SerdeAvroFast {
    /// Parses the schema `schema_json` (leaked, like the apache-avro ones).
    pub fn new(schema_json: &str) -> Result<Self, Error> {
        let schema: &'static serde_avro_fast::Schema = Box::leak(Box::new(schema_json.parse()?));
        Ok(SerdeAvroFast {
            schema,
            config: serde_avro_fast::ser::SerializerConfig::new(schema),
        })
    }
}

impl<T: Serialize + DeserializeOwned> Codec<T> for SerdeAvroFast {
    fn encode(&mut self, value: &T, out: &mut Vec<u8>) -> Result<(), Error> {
        serde_avro_fast::to_datum(value, out, &mut self.config)?;
        Ok(())
    }

    fn decode(&self, bytes: &[u8]) -> Result<T, Error> {
        Ok(serde_avro_fast::from_datum_slice(bytes, self.schema)?)
    }
}

/// The hand-written codec of [`crate::hand::checked`], with the runtime's checks.
pub struct HandChecked;

impl<T: Checked> Codec<T> for HandChecked {
    fn encode(&mut self, value: &T, out: &mut Vec<u8>) -> Result<(), Error> {
        value.encode_checked(out);
        Ok(())
    }

    fn decode(&self, bytes: &[u8]) -> Result<T, Error> {
        Ok(T::decode_checked(&mut checked::Input::new(bytes))?)
    }
}

/// The straight-line hand-written codec of [`crate::hand::unchecked`].
pub struct HandUnchecked;

impl<T: Unchecked> Codec<T> for HandUnchecked {
    fn encode(&mut self, value: &T, out: &mut Vec<u8>) -> Result<(), Error> {
        value.encode_unchecked(out);
        Ok(())
    }

    fn decode(&self, bytes: &[u8]) -> Result<T, Error> {
        T::decode_unchecked(&mut unchecked::Input::new(bytes))
            .ok_or_else(|| "malformed input".into())
    }
}

/// The codec avdl2rs generated.
pub struct Generated;

impl<T: AvroEncode + AvroDecode> Codec<T> for Generated {
    fn encode(&mut self, value: &T, out: &mut Vec<u8>) -> Result<(), Error> {
        value.encode(out)?;
        Ok(())
    }

    fn decode(&self, bytes: &[u8]) -> Result<T, Error> {
        Ok(T::decode(&mut Reader::new(bytes))?)
    }
}

/// A benchmark shape: a generated type with the hand-written codecs, and the type the
/// serde-based implementations read and write for it.
pub trait Shape:
    avdl2rs::AvroSchema + AvroEncode + AvroDecode + Checked + Unchecked + PartialEq + Debug + 'static
{
    /// `Self` when its generated serde derives suit the serde-based libraries, else a plain
    /// serde struct of [`crate::twins`] with the same schema.
    type Serde: Serialize + DeserializeOwned + PartialEq + Debug + 'static;

    /// The same value as a [`Self::Serde`].
    fn to_serde(&self) -> Self::Serde;
}

/// Implements [`Shape`] for generated types whose own serde derives are used.
macro_rules! serde_itself {
    ($($ty:ty),*) => {$(
        impl Shape for $ty {
            type Serde = Self;
            fn to_serde(&self) -> Self {
                self.clone()
            }
        }
    )*};
}

serde_itself!(shapes::OrderEvent, shapes::LogLine);

/// Implements [`Shape`] for generated types that need a twin.
macro_rules! serde_twin {
    ($($ty:ident),*) => {$(
        impl Shape for shapes::$ty {
            type Serde = twins::$ty;
            fn to_serde(&self) -> twins::$ty {
                twins::$ty::from(self)
            }
        }
    )*};
}

serde_twin!(Metrics, ClickEvent);

/// Receives each implementation by its concrete type, so that a benchmark calls it without
/// dynamic dispatch, together with the sample value in the type the implementation takes.
pub trait Visitor {
    /// Called once per implementation, with the name it is reported under.
    fn visit<V, C>(&mut self, name: &'static str, codec: C, value: &V)
    where
        V: PartialEq + Debug + 'static,
        C: Codec<V>;
}

/// Prepares every implementation for `T`'s schema and hands each to `visitor` with `value`
/// (converted for the serde-based ones), in the order the benchmark reports them.
pub fn visit_all<T: Shape>(value: &T, visitor: &mut impl Visitor) -> Result<(), Error> {
    let schema = T::SCHEMA_JSON;
    let serde_value = value.to_serde();
    visitor.visit("apache_value", ApacheValue::new(schema)?, &serde_value);
    visitor.visit("apache_serde", ApacheSerde::new(schema)?, &serde_value);
    visitor.visit("serde_avro_fast", SerdeAvroFast::new(schema)?, &serde_value);
    visitor.visit("hand_checked", HandChecked, value);
    visitor.visit("hand_unchecked", HandUnchecked, value);
    visitor.visit("generated", Generated, value);
    Ok(())
}
