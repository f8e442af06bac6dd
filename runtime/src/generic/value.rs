//! The generic value types.

use std::sync::Arc;

use crate::logical::{Decimal, Duration};
use crate::schema::{Field, NamedKind, NamedSchema};

/// An Avro value of any schema. A logical type is held as its base value (a `date` as its
/// `Int`, a `decimal` as its `Bytes` or `Fixed`), as it is written on the wire; the
/// `as_decimal`, `as_duration` and `as_uuid` methods read it as the runtime's type for it
/// (dates and times are their `Int` or `Long` count of days or units since the epoch or
/// midnight, as the schema's logical type says, which `as_date_time` and
/// `GenericRecord::get_date_time` read as `chrono` or `time` values).
///
/// ```
/// use avdl2rs::generic::GenericValue;
/// let value = GenericValue::Array(vec![GenericValue::Long(1), GenericValue::Long(2)]);
/// assert!(matches!(value, GenericValue::Array(items) if items.len() == 2));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum GenericValue {
    /// `null`
    Null,
    /// `boolean`
    Boolean(bool),
    /// `int`
    Int(i32),
    /// `long`
    Long(i64),
    /// `float`
    Float(f32),
    /// `double`
    Double(f64),
    /// `bytes`
    Bytes(Vec<u8>),
    /// `string`
    String(String),
    /// A record, with its fields in schema order.
    Record(GenericRecord),
    /// An enum symbol.
    Enum(GenericEnum),
    /// A `fixed`, of the size its schema gives.
    Fixed(Vec<u8>),
    /// An array.
    Array(Vec<GenericValue>),
    /// A map, its entries in the order read (the order they are written back in).
    Map(Vec<(String, GenericValue)>),
    /// A union value: the index of its branch in the union, and the value of that branch.
    Union(u32, Box<GenericValue>),
}

impl GenericValue {
    /// The record this value is, if it is one.
    ///
    /// ```
    /// assert!(avdl2rs::generic::GenericValue::Null.as_record().is_none());
    /// ```
    pub fn as_record(&self) -> Option<&GenericRecord> {
        match self {
            GenericValue::Record(record) => Some(record),
            _ => None,
        }
    }

    /// A `bytes` or `fixed` value read as a `decimal` of `scale` (the scale its schema's
    /// `decimal` logical type gives); `None` for other values.
    ///
    /// ```
    /// use avdl2rs::generic::GenericValue;
    /// let price = GenericValue::Bytes(vec![0xfb, 0x2e]); // -1234
    /// assert_eq!(price.as_decimal(2).unwrap().to_string(), "-12.34");
    /// ```
    pub fn as_decimal(&self, scale: u32) -> Option<Decimal> {
        match self {
            GenericValue::Bytes(bytes) | GenericValue::Fixed(bytes) => {
                Some(Decimal::new(bytes.clone(), scale))
            }
            _ => None,
        }
    }

    /// A `fixed(12)` value read as a `duration`; `None` for other values.
    ///
    /// ```
    /// use avdl2rs::generic::GenericValue;
    /// let value = GenericValue::Fixed(vec![1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
    /// let duration = value.as_duration().unwrap();
    /// assert_eq!((duration.months, duration.days, duration.millis), (1, 2, 3));
    /// ```
    pub fn as_duration(&self) -> Option<Duration> {
        match self {
            GenericValue::Fixed(bytes) => {
                Some(Duration::from_bytes(bytes.as_slice().try_into().ok()?))
            }
            _ => None,
        }
    }

    /// A `uuid`: a `string` in its text form or a `fixed(16)`; `None` for other values and
    /// for a string that is not a UUID.
    ///
    /// ```
    /// use avdl2rs::generic::GenericValue;
    /// let text = GenericValue::String("67e55044-10b1-426f-9247-bb680e5fe0c8".into());
    /// let bytes = GenericValue::Fixed(text.as_uuid().unwrap().as_bytes().to_vec());
    /// assert_eq!(bytes.as_uuid(), text.as_uuid());
    /// ```
    #[cfg(feature = "uuid")]
    pub fn as_uuid(&self) -> Option<uuid::Uuid> {
        match self {
            GenericValue::String(text) => uuid::Uuid::try_parse(text).ok(),
            GenericValue::Fixed(bytes) => uuid::Uuid::from_slice(bytes).ok(),
            _ => None,
        }
    }

    /// What kind of value this is, as the Avro type is named (`"record"`, `"int"`...), for
    /// error messages.
    ///
    /// ```
    /// assert_eq!(avdl2rs::generic::GenericValue::Int(1).type_name(), "int");
    /// ```
    pub fn type_name(&self) -> &'static str {
        match self {
            GenericValue::Null => "null",
            GenericValue::Boolean(_) => "boolean",
            GenericValue::Int(_) => "int",
            GenericValue::Long(_) => "long",
            GenericValue::Float(_) => "float",
            GenericValue::Double(_) => "double",
            GenericValue::Bytes(_) => "bytes",
            GenericValue::String(_) => "string",
            GenericValue::Record(_) => "record",
            GenericValue::Enum(_) => "enum",
            GenericValue::Fixed(_) => "fixed",
            GenericValue::Array(_) => "array",
            GenericValue::Map(_) => "map",
            GenericValue::Union(..) => "union",
        }
    }
}

/// A record value: its named type, shared with every other value of it, and its fields'
/// values in schema order.
///
/// ```
/// let schema = avdl2rs::generic::GenericSchema::new(
///     r#"{"type":"record","name":"P","fields":[{"name":"x","type":"int"}]}"#)?;
/// let value = schema.decode(&[4])?;
/// let record = value.as_record().unwrap();
/// assert_eq!(record.schema().name.name, "P");
/// assert_eq!(record.get("x"), record.field(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GenericRecord {
    schema: Arc<NamedSchema>,
    fields: Vec<GenericValue>,
}

impl GenericRecord {
    /// A record of the named type `schema` with `fields` in its schema order. The number and
    /// types of the fields are checked when the record is encoded.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use avdl2rs::generic::{GenericRecord, GenericSchema, GenericValue};
    /// let schema = GenericSchema::new(
    ///     r#"{"type":"record","name":"P","fields":[{"name":"x","type":"int"}]}"#)?;
    /// let named = schema.decode(&[0])?.as_record().unwrap().schema().clone();
    /// let record = GenericRecord::new(named, vec![GenericValue::Int(2)]);
    /// assert_eq!(schema.encode(&GenericValue::Record(record))?, [4]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(schema: Arc<NamedSchema>, fields: Vec<GenericValue>) -> Self {
        GenericRecord { schema, fields }
    }

    /// The record's named type.
    pub fn schema(&self) -> &Arc<NamedSchema> {
        &self.schema
    }

    /// The value of the field named `name`, if the record has one.
    pub fn get(&self, name: &str) -> Option<&GenericValue> {
        self.field_named(name).map(|(_, value)| value)
    }

    /// The schema and the value of the field named `name`, if the record has one.
    pub(super) fn field_named(&self, name: &str) -> Option<(&Field, &GenericValue)> {
        let NamedKind::Record { fields, .. } = &self.schema.kind else {
            return None;
        };
        let index = fields.iter().position(|field| field.name == name)?;
        Some((&fields[index], self.fields.get(index)?))
    }

    /// The value of the field at `index` in schema order.
    pub fn field(&self, index: usize) -> Option<&GenericValue> {
        self.fields.get(index)
    }

    /// The values of all fields, in schema order.
    pub fn fields(&self) -> &[GenericValue] {
        &self.fields
    }

    /// The values of all fields, for a decode into them.
    pub(super) fn fields_mut(&mut self) -> &mut [GenericValue] {
        &mut self.fields
    }
}

/// An enum value: its named type and the index of its symbol.
///
/// ```
/// let schema = avdl2rs::generic::GenericSchema::new(
///     r#"{"type":"enum","name":"Suit","symbols":["HEARTS","SPADES"]}"#)?;
/// let avdl2rs::generic::GenericValue::Enum(suit) = schema.decode(&[2])? else { panic!() };
/// assert_eq!((suit.index(), suit.symbol()), (1, "SPADES"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GenericEnum {
    schema: Arc<NamedSchema>,
    index: usize,
}

impl GenericEnum {
    /// The symbol at `index` of the enum `schema`; `None` when `schema` is not an enum or has
    /// no symbol there.
    ///
    /// ```
    /// # let schema = avdl2rs::generic::GenericSchema::new(
    /// #     r#"{"type":"enum","name":"Suit","symbols":["HEARTS","SPADES"]}"#)?;
    /// # let avdl2rs::generic::GenericValue::Enum(suit) = schema.decode(&[2])? else { panic!() };
    /// let named = suit.schema().clone();
    /// assert!(avdl2rs::generic::GenericEnum::new(named, 2).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(schema: Arc<NamedSchema>, index: usize) -> Option<Self> {
        match &schema.kind {
            NamedKind::Enum { symbols, .. } if index < symbols.len() => {
                Some(GenericEnum { schema, index })
            }
            _ => None,
        }
    }

    /// The enum's named type.
    pub fn schema(&self) -> &Arc<NamedSchema> {
        &self.schema
    }

    /// The symbol's index, its encoding.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The symbol.
    pub fn symbol(&self) -> &str {
        match &self.schema.kind {
            NamedKind::Enum { symbols, .. } => &symbols[self.index],
            // `new` and the decoder make enums of enum schemas only.
            _ => unreachable!("a GenericEnum of a type that is not an enum"),
        }
    }
}

impl GenericEnum {
    /// An enum value of a symbol index the decoder has checked against `schema`.
    pub(super) fn from_parts(schema: Arc<NamedSchema>, index: usize) -> Self {
        GenericEnum { schema, index }
    }
}
