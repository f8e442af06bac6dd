//! Reading data written under a schema id into a [`OneOf`]: the variant is the one whose
//! type's full name or aliases name the writer schema, read through that type's own
//! resolution plan; a writer schema that is a union of named types (one subject holding
//! several types, Confluent's "multiple event types in the same topic") is read branch by
//! branch, each branch into the variant its full name names. And [`Resolvable`], what a
//! registry deserializer needs of its type, so that single types and such enums take the
//! same path.

use std::any::TypeId;
use std::sync::Arc;

use super::{read_lock, write_lock, Consumer, ResolutionPlan, ResolveError, SchemaLookup};
use crate::codec::Reader;
use crate::generic::{GenericSchema, GenericValue};
use crate::one_of::{OneOf, VisitVariant};
use crate::schema::{NamedSchema, Schema, SchemaKind, SchemaSet};
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
    /// A union writer schema: the choice of each branch, by branch index, each read from
    /// the body after the branch index.
    Union(Vec<Choice>),
}

impl<L: SchemaLookup> Consumer<L> {
    /// Reads `body`, written under schema `id`, into the variant of `E` whose type the
    /// writer schema names (by its full name, or an alias of the variant's type), resolving
    /// that type's versions; into `E`'s catch-all variant when no variant is the writer's
    /// type; else [`ResolveError::UnknownType`]. A union writer schema is read by the branch
    /// written: its index, then the branch's value, read as the writer schema would be if it
    /// were that branch alone.
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
        decode_choice(&*self.choice::<E>(id)?, id, body)
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
        if let SchemaKind::Union(branches) = &root.kind {
            let branch = |branch| choose_in::<E>(&set, branch, BranchPlan { set: &set, branch });
            return Ok(Choice::Union(
                branches.iter().map(branch).collect::<Result<_, _>>()?,
            ));
        }
        choose_in::<E>(&set, &root, Plan { consumer: self, id })
    }
}

/// What the values of `writer` (the writer schema, or one branch of a union writer schema)
/// become in `E`: the variant its named type is, read through the plan `plan` builds; the
/// catch-all; or unknown.
fn choose_in<E: OneOf>(
    set: &SchemaSet,
    writer: &Schema,
    plan: impl VisitVariant<E, Output = Result<Arc<ResolutionPlan>, ResolveError>>,
) -> Result<Choice, ResolveError> {
    let Some(named) = set.resolve(writer) else {
        return Ok(Choice::Unknown(kind_name(&writer.kind)));
    };
    match variant_of::<E>(named) {
        Some(index) => {
            let plan = E::visit_variant(index, plan);
            Ok(Choice::Variant(
                index,
                plan.unwrap_or_else(|| no_variant(index))?,
            ))
        }
        None if E::CATCH_ALL => Ok(Choice::Other(Arc::new(GenericSchema::from_schema(
            set.clone(),
            writer.clone(),
        )))),
        None => Ok(Choice::Unknown(named.name.full_name())),
    }
}

/// Reads `body`, written under schema `id`, as `choice` says.
fn decode_choice<E: OneOf>(choice: &Choice, id: i32, body: &[u8]) -> Result<E, ResolveError> {
    match choice {
        Choice::Variant(index, plan) => {
            E::visit_variant(*index, Decode { plan, body }).unwrap_or_else(|| no_variant(*index))
        }
        Choice::Other(schema) => other::<E>(id, schema, body),
        Choice::Unknown(full_name) => Err(ResolveError::UnknownType {
            id,
            full_name: full_name.clone(),
        }),
        Choice::Union(branches) => {
            let mut reader = Reader::new(body);
            let branch = reader.read_union_index(branches.len());
            let branch = branch.map_err(ResolveError::Translate)?;
            decode_choice(&branches[branch], id, reader.rest())
        }
    }
}

fn no_variant<T>(index: usize) -> Result<T, ResolveError> {
    Err(ResolveError::Plan(format!("no variant {index}")))
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

/// Builds the plan of one variant's type for a branch of a union writer schema.
struct BranchPlan<'a> {
    set: &'a SchemaSet,
    branch: &'a Schema,
}

impl<E> VisitVariant<E> for BranchPlan<'_> {
    type Output = Result<Arc<ResolutionPlan>, ResolveError>;
    fn visit<T: AvroSchema + AvroEncode + AvroDecode + 'static>(
        self,
        _: fn(T) -> E,
    ) -> Self::Output {
        ResolutionPlan::reading_from::<T>(self.set, self.branch).map(Arc::new)
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
