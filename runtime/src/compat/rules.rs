//! The matching rules of schema resolution (Avro specification, "Schema Resolution") that
//! both the compatibility checker and the resolving decoder apply, so that they never
//! disagree about which writer field or union branch feeds which reader one.

use crate::schema::{Field, LogicalType, NamedSchema, Schema, SchemaKind, SchemaSet};

/// Whether a writer value of primitive kind `writer` can be read as primitive kind `reader`:
/// the same kind, or one of the promotions int→long/float/double, long→float/double,
/// float→double, string↔bytes.
pub(crate) fn promotable(writer: &SchemaKind, reader: &SchemaKind) -> bool {
    use SchemaKind as K;
    matches!(
        (writer, reader),
        (K::Null, K::Null)
            | (K::Boolean, K::Boolean)
            | (K::Int, K::Int | K::Long | K::Float | K::Double)
            | (K::Long, K::Long | K::Float | K::Double)
            | (K::Float, K::Float | K::Double)
            | (K::Double, K::Double)
            | (K::String | K::Bytes, K::String | K::Bytes)
    )
}

/// Whether the writer's named type may be read as the reader's: the unqualified names are
/// equal, or one of the reader's aliases names the writer's type (by full name, or by simple
/// name, since names are compared unqualified).
pub(crate) fn names_match(reader: &NamedSchema, writer: &NamedSchema) -> bool {
    reader.name.name == writer.name.name
        || reader
            .aliases
            .iter()
            .any(|alias| *alias == writer.name || alias.name == writer.name.name)
}

/// The writer field that feeds `reader_field`: the one with the same name, else the first
/// one named by one of the reader field's aliases.
pub(crate) fn writer_field<'w>(
    reader_field: &Field,
    writer_fields: &'w [Field],
) -> Option<(usize, &'w Field)> {
    std::iter::once(&reader_field.name)
        .chain(&reader_field.aliases)
        .find_map(|name| {
            writer_fields
                .iter()
                .enumerate()
                .find(|(_, w)| w.name == *name)
        })
}

/// Two decimals match when their precisions and scales do; a decimal and a non-decimal are
/// read through their underlying types.
pub(crate) fn decimals_match(reader: Option<LogicalType>, writer: Option<LogicalType>) -> bool {
    match (reader, writer) {
        (Some(r @ LogicalType::Decimal { .. }), Some(w @ LogicalType::Decimal { .. })) => r == w,
        _ => true,
    }
}

/// The reader union branch that reads a (non-union) writer schema, as the Java reference
/// chooses it: first a branch of the same type (same full name for named types), then a named
/// branch whose name or alias matches, then the first branch the writer promotes to. The
/// specification says "the first schema that matches"; preferring the exact type first means
/// an `int` is read as the `int` of `["long","int"]`, not converted to `long`.
pub(crate) fn reader_branch(
    reader_set: &SchemaSet,
    branches: &[Schema],
    writer_set: &SchemaSet,
    writer: &Schema,
) -> Option<usize> {
    let exact = branches.iter().position(|b| same_type(b, writer));
    exact
        .or_else(|| {
            let writer_named = writer_set.resolve(writer)?;
            branches.iter().position(|b| {
                reader_set.resolve(b).is_some_and(|r| {
                    r.kind.type_name() == writer_named.kind.type_name()
                        && names_match(r, writer_named)
                })
            })
        })
        .or_else(|| {
            branches.iter().position(|b| {
                is_primitive(&b.kind)
                    && is_primitive(&writer.kind)
                    && promotable(&writer.kind, &b.kind)
            })
        })
}

fn is_primitive(kind: &SchemaKind) -> bool {
    kind.primitive_name().is_some()
}

fn same_type(a: &Schema, b: &Schema) -> bool {
    use SchemaKind as K;
    match (&a.kind, &b.kind) {
        (K::Array(_), K::Array(_)) | (K::Map(_), K::Map(_)) => true,
        (K::Named(a), K::Named(b)) => a == b,
        (a, b) => is_primitive(a) && a == b,
    }
}
