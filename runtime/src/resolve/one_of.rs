//! Reading data written under a schema id into a [`OneOf`]: the variant is the one whose
//! type's full name or aliases name the writer schema, read through that type's own
//! resolution plan; and [`Resolvable`], what a registry deserializer needs of its type, so
//! that single types and such enums take the same path.

use std::any::TypeId;
use std::sync::Arc;

use super::{read_lock, write_lock, Consumer, ResolutionPlan, ResolveError, SchemaLookup};
use crate::generic::{GenericSchema, GenericValue};
use crate::one_of::{OneOf, VisitVariant};
use crate::schema::{NamedSchema, SchemaKind, SchemaSet};
use crate::{AvroDecode, AvroEncode, AvroSchema};

/// A type that data written under a schema id can be read into through a [`Consumer`]:
/// every generated or derived type (the writer schema resolved against its own), and every
/// [`OneOf`] enum (`#[derive(AvroOneOf)]` implements it by [`Consumer::decode_one_of`]).
pub trait Resolvable: Sized {
    /// Reads `body`, written under schema `id`.
    fn decode_written<L: SchemaLookup>(
        consumer: &Consumer<L>,
        id: i32,
        body: &[u8],
    ) -> Result<Self, ResolveError>;

    /// Whether data written with the schema whose Parsing Canonical Form is `writer` is read
    /// as written (the reader's own schema, or a variant's, is that schema), so that no
    /// migration between versions takes place.
    fn reads_unchanged(writer: &str) -> bool;
}

impl<T: AvroSchema + AvroDecode> Resolvable for T {
    fn reads_unchanged(writer: &str) -> bool {
        writer == T::CANONICAL_FORM
    }

    #[inline]
    fn decode_written<L: SchemaLookup>(
        consumer: &Consumer<L>,
        id: i32,
        body: &[u8],
    ) -> Result<Self, ResolveError> {
        consumer.plan::<T>(id)?.decode(body)
    }
}

/// What the messages of one writer schema become in one [`OneOf`] enum, decided once per
/// (schema id, enum).
#[derive(Debug)]
pub(super) enum Choice {
    /// The variant at this index, read through this plan.
    Variant(usize, Arc<ResolutionPlan>),
    /// The catch-all variant, read as a generic record of the writer schema.
    Other(Arc<GenericSchema>),
    /// No variant: the writer type's full name.
    Unknown(String),
}

impl<L: SchemaLookup> Consumer<L> {
    /// Reads `body`, written under schema `id`, into the variant of `E` whose type the
    /// writer schema names (by its full name, or an alias of the variant's type), resolving
    /// that type's versions; into `E`'s catch-all variant when no variant is the writer's
    /// type; else [`ResolveError::UnknownType`].
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use avdl2rs::resolve::{Consumer, ResolveError};
    /// use avdl2rs::{Avro, AvroOneOf};
    ///
    /// #[derive(Avro, Debug, PartialEq)]
    /// struct Created { id: i64 }
    /// /// Version 2 has a note, with a default.
    /// #[derive(Avro, Debug, PartialEq)]
    /// struct Paid { id: i64, #[avro(default = "")] note: String }
    ///
    /// #[derive(AvroOneOf, Debug, PartialEq)]
    /// enum Event { Created(Created), Paid(Paid) }
    ///
    /// let paid_v1 = r#"{"type":"record","name":"Paid","fields":[{"name":"id","type":"long"}]}"#;
    /// let other = r#"{"type":"record","name":"Refunded","fields":[{"name":"id","type":"long"}]}"#;
    /// let consumer = Consumer::new(BTreeMap::from([
    ///     (1, <Created as avdl2rs::AvroSchema>::SCHEMA_JSON), (2, paid_v1), (3, other),
    /// ]));
    /// assert_eq!(consumer.decode_one_of::<Event>(1, &[4])?, Event::Created(Created { id: 2 }));
    /// assert_eq!(
    ///     consumer.decode_one_of::<Event>(2, &[6])?,
    ///     Event::Paid(Paid { id: 3, note: String::new() }),
    /// );
    /// assert!(matches!(
    ///     consumer.decode_one_of::<Event>(3, &[6]),
    ///     Err(ResolveError::UnknownType { id: 3, .. }),
    /// ));
    /// # Ok::<(), ResolveError>(())
    /// ```
    pub fn decode_one_of<E: OneOf>(&self, id: i32, body: &[u8]) -> Result<E, ResolveError> {
        match &*self.choice::<E>(id)? {
            Choice::Variant(index, plan) => E::visit_variant(*index, Decode { plan, body })
                .unwrap_or_else(|| Err(ResolveError::Plan(format!("no variant {index}")))),
            Choice::Other(schema) => other::<E>(id, schema, body),
            Choice::Unknown(full_name) => Err(ResolveError::UnknownType {
                id,
                full_name: full_name.clone(),
            }),
        }
    }

    /// The cached [`Choice`] of `E` for writer schema `id`, made on first use.
    fn choice<E: OneOf>(&self, id: i32) -> Result<Arc<Choice>, ResolveError> {
        let key = (id, TypeId::of::<E>());
        if let Some(choice) = read_lock(&self.choices).get(&key) {
            return Ok(Arc::clone(choice));
        }
        let json = self
            .lookup
            .schema_by_id(id)
            .map_err(|source| ResolveError::Lookup { id, source })?;
        let choice = Arc::new(self.choose::<E>(id, &json)?);
        write_lock(&self.choices).insert(key, Arc::clone(&choice));
        Ok(choice)
    }

    fn choose<E: OneOf>(&self, id: i32, json: &str) -> Result<Choice, ResolveError> {
        let mut set = SchemaSet::new();
        let root = set.parse_str(json).map_err(ResolveError::WriterSchema)?;
        let writer = match set.resolve(&root) {
            Some(named) => named,
            None => return Ok(Choice::Unknown(kind_name(&root.kind))),
        };
        match variant_of::<E>(writer) {
            Some(index) => {
                let plan = E::visit_variant(index, Plan { consumer: self, id });
                let plan =
                    plan.unwrap_or_else(|| Err(ResolveError::Plan(format!("no variant {index}"))))?;
                Ok(Choice::Variant(index, plan))
            }
            None if E::CATCH_ALL => Ok(Choice::Other(Arc::new(GenericSchema::from_schema(
                set, root,
            )))),
            None => Ok(Choice::Unknown(writer.name.full_name())),
        }
    }
}

/// The index of the variant of `E` whose type is `writer`: the same full name, or the
/// writer's full name among the variant type's aliases (the reader's aliases, as the
/// specification's resolution rules read them).
fn variant_of<E: OneOf>(writer: &NamedSchema) -> Option<usize> {
    let full_name = writer.name.full_name();
    if let Some(index) = E::VARIANTS.iter().position(|name| *name == full_name) {
        return Some(index);
    }
    (0..E::VARIANTS.len()).find(|&index| {
        E::visit_variant(index, Aliases)
            .unwrap_or_default()
            .contains(&full_name)
    })
}

fn other<E: OneOf>(id: i32, schema: &GenericSchema, body: &[u8]) -> Result<E, ResolveError> {
    let value = schema.decode(body).map_err(ResolveError::Translate)?;
    let GenericValue::Record(record) = value else {
        return Err(ResolveError::Plan(format!(
            "the writer schema of id {id} is not a record"
        )));
    };
    E::other(record).ok_or_else(|| ResolveError::Plan("no catch-all variant".to_owned()))
}

/// The name of a writer schema that is not a named type (`"long"`, `"array"`, `"union"`).
fn kind_name(kind: &SchemaKind) -> String {
    match kind {
        SchemaKind::Array(_) => "array".to_owned(),
        SchemaKind::Map(_) => "map".to_owned(),
        SchemaKind::Union(_) => "union".to_owned(),
        other => other.primitive_name().unwrap_or("schema").to_owned(),
    }
}

/// Builds (or finds) the plan of one variant's type for a writer schema id.
struct Plan<'a, L> {
    consumer: &'a Consumer<L>,
    id: i32,
}

impl<E, L: SchemaLookup> VisitVariant<E> for Plan<'_, L> {
    type Output = Result<Arc<ResolutionPlan>, ResolveError>;
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
        self,
        _: fn(T) -> E,
    ) -> Self::Output {
        self.consumer.plan::<T>(self.id)
    }
}

/// Decodes a body as one variant's type, through its plan.
struct Decode<'a> {
    plan: &'a ResolutionPlan,
    body: &'a [u8],
}

impl<E> VisitVariant<E> for Decode<'_> {
    type Output = Result<E, ResolveError>;
    #[inline]
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
        self,
        wrap: fn(T) -> E,
    ) -> Self::Output {
        self.plan.decode::<T>(self.body).map(wrap)
    }
}

/// The aliases of one variant's type, as full names.
struct Aliases;

impl<E> VisitVariant<E> for Aliases {
    type Output = Vec<String>;
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
        self,
        _: fn(T) -> E,
    ) -> Self::Output {
        let mut set = SchemaSet::new();
        let Ok(root) = set.parse_str(T::SCHEMA_JSON) else {
            return Vec::new();
        };
        let named = set.resolve(&root);
        named.map_or_else(Vec::new, |named| {
            named
                .aliases
                .iter()
                .map(|alias| alias.full_name())
                .collect()
        })
    }
}
