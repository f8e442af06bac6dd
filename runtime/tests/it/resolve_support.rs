//! Hand-written reader types for the resolving-decode tests and benchmark: each has its
//! schema consts and an `AvroDecode` written with the runtime codec, as generated code would
//! have.
#![allow(dead_code)] // each test file uses its own part of the support module

use apache_avro::types::Value;
use avdl2rs::codec::Reader;
use avdl2rs::fingerprint::rabin_fingerprint;
use avdl2rs::{AvroDecode, AvroSchema, DecodeError};

/// Defines a reader type holding one value of a simple type, with its schema consts.
macro_rules! single_value_type {
    ($name:ident, $ty:ty, $json:expr, $canonical:expr, |$reader:ident| $decode:expr) => {
        #[derive(Debug, Clone, PartialEq)]
        pub struct $name(pub $ty);

        impl avdl2rs::AvroSchema for $name {
            const SCHEMA_JSON: &'static str = $json;
            const CANONICAL_FORM: &'static str = $canonical;
            const FINGERPRINT: u64 =
                avdl2rs::fingerprint::rabin_fingerprint(Self::CANONICAL_FORM.as_bytes());
            const FULL_NAME: &'static str = "value";
        }

        impl avdl2rs::AvroDecode for $name {
            fn decode(
                $reader: &mut avdl2rs::codec::Reader<'_>,
            ) -> Result<Self, avdl2rs::DecodeError> {
                Ok($name($decode))
            }
        }
    };
}

/// The first version of the payment record, as a producer wrote it.
pub const PAYMENT_V1: &str = r#"{"type":"record","name":"Payment","namespace":"shop","fields":[
    {"name":"id","type":"string"},
    {"name":"amount","type":"int"},
    {"name":"legacy","type":"string"},
    {"name":"status","type":{"type":"enum","name":"Status","symbols":["NEW","PAID","REFUNDED"]}},
    {"name":"note","type":"string"},
    {"name":"tags","type":{"type":"array","items":"int"}}]}"#;

/// The second version: `amount` promoted to double, `legacy` dropped, `currency` added with
/// a default, `REFUNDED` gone from `Status` (which gained a default), `note` made optional,
/// `tags` widened to long.
#[derive(Debug, Clone, PartialEq)]
pub struct PaymentV2 {
    pub id: String,
    pub amount: f64,
    pub currency: String,
    pub status: Status,
    pub note: Option<String>,
    pub tags: Vec<i64>,
}

/// The reader's enum, with `UNKNOWN` as the fallback for symbols it does not know.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Status {
    Unknown,
    New,
    Paid,
}

impl AvroSchema for PaymentV2 {
    const SCHEMA_JSON: &'static str = r#"{"type":"record","name":"Payment","namespace":"shop","fields":[
        {"name":"id","type":"string"},
        {"name":"amount","type":"double"},
        {"name":"currency","type":"string","default":"EUR"},
        {"name":"status","type":{"type":"enum","name":"Status","symbols":["UNKNOWN","NEW","PAID"],"default":"UNKNOWN"}},
        {"name":"note","type":["null","string"],"default":null},
        {"name":"tags","type":{"type":"array","items":"long"}}]}"#;
    const CANONICAL_FORM: &'static str = r#"{"name":"shop.Payment","type":"record","fields":[{"name":"id","type":"string"},{"name":"amount","type":"double"},{"name":"currency","type":"string"},{"name":"status","type":{"name":"shop.Status","type":"enum","symbols":["UNKNOWN","NEW","PAID"]}},{"name":"note","type":["null","string"]},{"name":"tags","type":{"type":"array","items":"long"}}]}"#;
    const FINGERPRINT: u64 = rabin_fingerprint(Self::CANONICAL_FORM.as_bytes());
    const FULL_NAME: &'static str = "shop.Payment";
}

impl AvroDecode for PaymentV2 {
    fn decode(reader: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok(PaymentV2 {
            id: reader.read_string()?.to_owned(),
            amount: reader.read_double()?,
            currency: reader.read_string()?.to_owned(),
            status: match reader.read_enum_index(3)? {
                0 => Status::Unknown,
                1 => Status::New,
                _ => Status::Paid,
            },
            note: match reader.read_union_index(2)? {
                0 => None,
                _ => Some(reader.read_string()?.to_owned()),
            },
            tags: reader.read_array(|r| r.read_long())?,
        })
    }
}

impl PaymentV2 {
    /// The apache-avro value of the same datum, to compare with apache-avro's resolution.
    pub fn to_value(&self) -> Value {
        let status = ["UNKNOWN", "NEW", "PAID"][self.status as usize];
        Value::Record(vec![
            ("id".into(), Value::String(self.id.clone())),
            ("amount".into(), Value::Double(self.amount)),
            ("currency".into(), Value::String(self.currency.clone())),
            (
                "status".into(),
                Value::Enum(self.status as u32, status.into()),
            ),
            (
                "note".into(),
                match &self.note {
                    None => Value::Union(0, Box::new(Value::Null)),
                    Some(s) => Value::Union(1, Box::new(Value::String(s.clone()))),
                },
            ),
            (
                "tags".into(),
                Value::Array(self.tags.iter().map(|&t| Value::Long(t)).collect()),
            ),
        ])
    }
}

/// A v1 payment as an apache-avro value.
pub fn payment_v1(id: &str, amount: i32, status: u32, note: &str, tags: &[i32]) -> Value {
    let symbol = ["NEW", "PAID", "REFUNDED"][status as usize];
    Value::Record(vec![
        ("id".into(), Value::String(id.into())),
        ("amount".into(), Value::Int(amount)),
        ("legacy".into(), Value::String("old column".into())),
        ("status".into(), Value::Enum(status, symbol.into())),
        ("note".into(), Value::String(note.into())),
        (
            "tags".into(),
            Value::Array(tags.iter().map(|&t| Value::Int(t)).collect()),
        ),
    ])
}

/// apache-avro's binary encoding of `value` under the schema `json`.
pub fn apache_bytes(json: &str, value: Value) -> Vec<u8> {
    let schema = apache_avro::Schema::parse_str(json).unwrap();
    apache_avro::writer::datum::GenericDatumWriter::builder(&schema)
        .build()
        .unwrap()
        .write_value_to_vec(value)
        .unwrap()
}

/// apache-avro's own resolution of `bytes` written with `writer` read as `reader`.
pub fn apache_resolved(writer: &str, reader: &str, bytes: &[u8]) -> Value {
    let writer = apache_avro::Schema::parse_str(writer).unwrap();
    let reader = apache_avro::Schema::parse_str(reader).unwrap();
    let mut input = bytes;
    apache_avro::reader::datum::GenericDatumReader::builder(&writer)
        .reader_schema(&reader)
        .build()
        .unwrap()
        .read_value(&mut input)
        .unwrap()
}

single_value_type!(
    OptString,
    Option<String>,
    r#"["null","string"]"#,
    r#"["null","string"]"#,
    |r| match r.read_union_index(2)? {
        0 => None,
        _ => Some(r.read_string()?.to_owned()),
    }
);

single_value_type!(
    OptLong,
    Option<i64>,
    r#"["null","long"]"#,
    r#"["null","long"]"#,
    |r| match r.read_union_index(2)? {
        0 => None,
        _ => Some(r.read_long()?),
    }
);
