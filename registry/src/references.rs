//! Turning a schema with `references` into one self-contained schema: the referenced
//! subjects' schemas (and theirs, depth first) are parsed before it into one set of named
//! types, and the whole is written back with each named type defined at its first use.
//!
//! [`Assembly`] does no I/O: it names the next reference to fetch and is handed its schema,
//! so the blocking and the async client drive the same walk.

use std::collections::HashSet;

use avdl2rs::schema::SchemaSet;

use crate::error::{RegistryError, Result};
use crate::types::{Schema, SchemaReference};

/// References deeper than this are refused rather than followed (a cycle, or abuse).
const MAX_DEPTH: usize = 32;

/// A schema being assembled: the references still to visit, depth first.
pub(crate) struct Assembly {
    set: SchemaSet,
    /// The schemas whose references are being visited; the first is the one assembled.
    open: Vec<Open>,
    /// The (subject, version) pairs already visited.
    done: HashSet<(String, i32)>,
    /// The reference handed out by [`Self::next`] and not yet provided.
    asked: Option<SchemaReference>,
}

/// A schema whose references are being visited.
struct Open {
    schema: Schema,
    /// The reference it came from (`None` for the schema assembled).
    from: Option<SchemaReference>,
    next: usize,
}

impl Assembly {
    /// The assembly of `schema`.
    pub(crate) fn new(schema: &Schema) -> Self {
        Assembly {
            set: SchemaSet::new(),
            open: vec![Open {
                schema: schema.clone(),
                from: None,
                next: 0,
            }],
            done: HashSet::new(),
            asked: None,
        }
    }

    /// The next referenced schema to fetch and [`Self::provide`]; `None` when all are in.
    pub(crate) fn next(&mut self) -> Result<Option<SchemaReference>> {
        while let Some(top) = self.open.last_mut() {
            if let Some(reference) = top.schema.references.get(top.next) {
                top.next += 1;
                let reference = reference.clone();
                if !self
                    .done
                    .insert((reference.subject.clone(), reference.version))
                {
                    continue;
                }
                if self.open.len() > MAX_DEPTH {
                    return Err(invalid(
                        &reference,
                        format!("references nest deeper than {MAX_DEPTH}"),
                    ));
                }
                self.asked = Some(reference.clone());
                return Ok(Some(reference));
            }
            if self.open.len() == 1 {
                return Ok(None);
            }
            let closed = self.open.pop().expect("more than one open");
            if let Some(from) = closed.from.filter(|f| self.set.get(&f.name).is_none()) {
                parse(
                    &mut self.set,
                    &closed.schema.schema,
                    &format!("reference {}", from.name),
                )?;
            }
        }
        Ok(None)
    }

    /// The schema of the reference [`Self::next`] named last.
    pub(crate) fn provide(&mut self, schema: Schema) {
        self.open.push(Open {
            schema,
            from: self.asked.take(),
            next: 0,
        });
    }

    /// The self-contained JSON, once [`Self::next`] answered `None`.
    pub(crate) fn finish(mut self) -> Result<String> {
        let main = self.open.swap_remove(0).schema;
        if main.references.is_empty() {
            return Ok(main.schema);
        }
        let parsed = parse(&mut self.set, &main.schema, "the schema")?;
        Ok(self.set.to_json(&parsed).to_string())
    }
}

fn parse(set: &mut SchemaSet, json: &str, what: &str) -> Result<avdl2rs::schema::Schema> {
    set.parse_str(json)
        .map_err(|e| RegistryError::InvalidReply {
            what: what.to_owned(),
            message: e.to_string(),
        })
}

fn invalid(reference: &SchemaReference, message: String) -> RegistryError {
    RegistryError::InvalidReply {
        what: format!(
            "reference {} ({} version {})",
            reference.name, reference.subject, reference.version
        ),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Assembles `schema`, fetching references with `fetch`.
    fn assemble(
        schema: &Schema,
        mut fetch: impl FnMut(&SchemaReference) -> Result<Schema>,
    ) -> Result<String> {
        let mut assembly = Assembly::new(schema);
        while let Some(reference) = assembly.next()? {
            assembly.provide(fetch(&reference)?);
        }
        assembly.finish()
    }

    fn reference(name: &str, subject: &str) -> SchemaReference {
        SchemaReference {
            name: name.into(),
            subject: subject.into(),
            version: 1,
        }
    }

    #[test]
    fn references_are_inlined_depth_first() {
        let money = r#"{"type":"record","name":"Money","namespace":"shop","fields":[{"name":"currency","type":"Currency"}]}"#;
        let currency =
            r#"{"type":"enum","name":"Currency","namespace":"shop","symbols":["EUR","CNY"]}"#;
        let order = Schema {
            schema: r#"{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"total","type":"Money"}]}"#.into(),
            references: vec![reference("shop.Money", "money")],
            ..Schema::avro("")
        };
        let mut asked = Vec::new();
        let json = assemble(&order, |r| {
            asked.push(r.subject.clone());
            Ok(match r.subject.as_str() {
                "money" => Schema {
                    references: vec![reference("shop.Currency", "currency")],
                    ..Schema::avro(money)
                },
                _ => Schema::avro(currency),
            })
        })
        .unwrap();
        assert_eq!(asked, ["money", "currency"]);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["fields"][0]["type"]["name"], "Money");
        assert_eq!(
            value["fields"][0]["type"]["fields"][0]["type"]["symbols"][1],
            "CNY"
        );
    }

    #[test]
    fn cycles_and_bad_references_are_errors() {
        let looping = Schema {
            references: vec![reference("a.A", "a")],
            ..Schema::avro(r#""int""#)
        };
        let mut depth = 0;
        let e = assemble(&looping, |_| {
            depth += 1;
            Ok(Schema {
                references: vec![reference("a.A", &format!("a{depth}"))],
                ..Schema::avro(r#""int""#)
            })
        })
        .unwrap_err();
        assert!(e.to_string().contains("deeper than"), "{e}");
        let broken = Schema {
            references: vec![reference("a.A", "a")],
            ..Schema::avro(r#""int""#)
        };
        let e = assemble(&broken, |_| Ok(Schema::avro("{not json"))).unwrap_err();
        assert!(matches!(e, RegistryError::InvalidReply { .. }), "{e}");
    }
}
