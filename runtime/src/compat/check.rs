//! Walks a reader and a writer schema side by side and collects every reason the reader
//! cannot read the writer's data.

use std::collections::HashSet;

use super::rules::{decimals_match, names_match, promotable, reader_branch, writer_field};
use super::{Incompatibility, IncompatibilityKind as Kind, SchemaRef};
use crate::schema::{NamedKind, NamedSchema, Schema, SchemaKind, SchemaSet};

/// The state of one check: both sets, the (reader, writer) pairs of named types already
/// entered (so recursive types terminate) and what was found.
pub(crate) struct Checker<'a> {
    reader: &'a SchemaSet,
    writer: &'a SchemaSet,
    visited: HashSet<(String, String)>,
    found: Vec<Incompatibility>,
}

impl<'a> Checker<'a> {
    pub(crate) fn run(reader: SchemaRef<'a>, writer: SchemaRef<'a>) -> Vec<Incompatibility> {
        let mut checker = Checker {
            reader: reader.set,
            writer: writer.set,
            visited: HashSet::new(),
            found: Vec::new(),
        };
        checker.check(reader.schema, writer.schema, "");
        checker.found
    }

    fn report(
        &mut self,
        kind: Kind,
        path: &str,
        reader: &Schema,
        writer: &Schema,
        message: String,
    ) {
        self.found.push(Incompatibility {
            kind,
            location: if path.is_empty() {
                "/".into()
            } else {
                path.into()
            },
            message,
            reader: self.reader.to_json(reader),
            writer: self.writer.to_json(writer),
        });
    }

    fn check(&mut self, reader: &Schema, writer: &Schema, path: &str) {
        use SchemaKind as K;
        match (&reader.kind, &writer.kind) {
            (_, K::Union(branches)) => {
                for (i, branch) in branches.iter().enumerate() {
                    self.check(reader, branch, &child(path, i));
                }
            }
            (K::Union(branches), _) => {
                match reader_branch(self.reader, branches, self.writer, writer) {
                    Some(i) => self.check(&branches[i], writer, path),
                    None => {
                        let message =
                            "no branch of the reader's union reads the writer's type".into();
                        self.report(Kind::MissingUnionBranch, path, reader, writer, message);
                    }
                }
            }
            (K::Array(r), K::Array(w)) => self.check(r, w, &child(path, "items")),
            (K::Map(r), K::Map(w)) => self.check(r, w, &child(path, "values")),
            (K::Named(_), K::Named(_)) => self.named(reader, writer, path),
            (r, w) if r.primitive_name().is_some() && promotable(w, r) => {
                if !decimals_match(reader.logical_type, writer.logical_type) {
                    let message = "the decimals' precisions or scales differ".into();
                    self.report(Kind::DecimalMismatch, path, reader, writer, message);
                }
            }
            _ => self.type_mismatch(reader, writer, path),
        }
    }

    fn type_mismatch(&mut self, reader: &Schema, writer: &Schema, path: &str) {
        let message = format!(
            "the writer's {} cannot be read as the reader's {}",
            self.describe(self.writer, writer),
            self.describe(self.reader, reader)
        );
        self.report(Kind::TypeMismatch, path, reader, writer, message);
    }

    fn describe(&self, set: &SchemaSet, schema: &Schema) -> String {
        match (&schema.kind, set.resolve(schema)) {
            (_, Some(named)) => format!("{} {}", named.kind.type_name(), named.name),
            (SchemaKind::Array(_), _) => "array".into(),
            (SchemaKind::Map(_), _) => "map".into(),
            (SchemaKind::Union(_), _) => "union".into(),
            (kind, _) => kind.primitive_name().unwrap_or("type").into(),
        }
    }

    fn named(&mut self, reader: &Schema, writer: &Schema, path: &str) {
        let (Some(r), Some(w)) = (self.reader.resolve(reader), self.writer.resolve(writer)) else {
            return self.type_mismatch(reader, writer, path);
        };
        if !self
            .visited
            .insert((r.name.full_name(), w.name.full_name()))
        {
            return;
        }
        if r.kind.type_name() != w.kind.type_name() && !both_records(r, w) {
            return self.type_mismatch(reader, writer, path);
        }
        if !names_match(r, w) {
            let message = format!(
                "the writer's {} is not the reader's {} nor one of its aliases",
                w.name, r.name
            );
            return self.report(
                Kind::NameMismatch,
                &child(path, "name"),
                reader,
                writer,
                message,
            );
        }
        match (&r.kind, &w.kind) {
            (NamedKind::Record { fields: rf, .. }, NamedKind::Record { fields: wf, .. }) => {
                for field in rf {
                    let field_path = child(&child(path, "fields"), &field.name);
                    match writer_field(field, wf) {
                        Some((_, w_field)) => {
                            self.check(&field.schema, &w_field.schema, &child(&field_path, "type"))
                        }
                        None if field.default.is_none() => {
                            let message = format!(
                                "the reader's field {:?} is not written and has no default",
                                field.name
                            );
                            self.report(
                                Kind::ReaderFieldMissingDefault,
                                &field_path,
                                reader,
                                writer,
                                message,
                            );
                        }
                        None => {}
                    }
                }
            }
            (
                NamedKind::Enum {
                    symbols: rs,
                    default,
                },
                NamedKind::Enum { symbols: ws, .. },
            ) => {
                let missing: Vec<&String> = ws.iter().filter(|s| !rs.contains(s)).collect();
                if default.is_none() && !missing.is_empty() {
                    let message = format!(
                        "the reader's enum lacks the writer's symbols {missing:?} and has no default"
                    );
                    self.report(
                        Kind::MissingEnumSymbols,
                        &child(path, "symbols"),
                        reader,
                        writer,
                        message,
                    );
                }
            }
            (NamedKind::Fixed { size: rs }, NamedKind::Fixed { size: ws }) => {
                if rs != ws {
                    let message = format!("the writer's fixed has {ws} bytes, the reader's {rs}");
                    self.report(
                        Kind::FixedSizeMismatch,
                        &child(path, "size"),
                        reader,
                        writer,
                        message,
                    );
                } else if !decimals_match(r.logical_type, w.logical_type) {
                    let message = "the decimals' precisions or scales differ".into();
                    self.report(Kind::DecimalMismatch, path, reader, writer, message);
                }
            }
            _ => self.type_mismatch(reader, writer, path),
        }
    }
}

/// Records and errors read each other: `error` only marks a record as throwable.
fn both_records(a: &NamedSchema, b: &NamedSchema) -> bool {
    matches!(
        (&a.kind, &b.kind),
        (NamedKind::Record { .. }, NamedKind::Record { .. })
    )
}

/// The JSON Pointer of `segment` inside `path`, escaped as RFC 6901 requires (the same
/// pointers the schema parser reports).
fn child(path: &str, segment: impl std::fmt::Display) -> String {
    let segment = segment.to_string().replace('~', "~0").replace('/', "~1");
    format!("{path}/{segment}")
}
