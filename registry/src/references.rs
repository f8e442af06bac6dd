//! Turning a schema with `references` into one self-contained schema: the referenced
//! subjects' schemas (and theirs, depth first) are parsed before it into one set of named
//! types, and the whole is written back with each named type defined at its first use.

use std::collections::HashSet;

use avdl2rs::schema::SchemaSet;

use crate::error::{RegistryError, Result};
use crate::types::{Schema, SchemaReference};

/// References deeper than this are refused rather than followed (a cycle, or abuse).
const MAX_DEPTH: usize = 32;

/// The self-contained JSON of `schema`, fetching referenced schemas with `fetch`.
pub(crate) fn assemble(
    schema: &Schema,
    fetch: &mut dyn FnMut(&SchemaReference) -> Result<Schema>,
) -> Result<String> {
    if schema.references.is_empty() {
        return Ok(schema.schema.clone());
    }
    let mut set = SchemaSet::new();
    let mut done = HashSet::new();
    for reference in &schema.references {
        add(&mut set, reference, fetch, &mut done, 1)?;
    }
    let main = parse(&mut set, &schema.schema, "the schema")?;
    Ok(set.to_json(&main).to_string())
}

fn add(
    set: &mut SchemaSet,
    reference: &SchemaReference,
    fetch: &mut dyn FnMut(&SchemaReference) -> Result<Schema>,
    done: &mut HashSet<(String, i32)>,
    depth: usize,
) -> Result<()> {
    if !done.insert((reference.subject.clone(), reference.version)) {
        return Ok(());
    }
    if depth > MAX_DEPTH {
        return Err(invalid(
            reference,
            format!("references nest deeper than {MAX_DEPTH}"),
        ));
    }
    let referenced = fetch(reference)?;
    for inner in &referenced.references {
        add(set, inner, fetch, done, depth + 1)?;
    }
    if set.get(&reference.name).is_none() {
        let what = format!("reference {}", reference.name);
        parse(set, &referenced.schema, &what)?;
    }
    Ok(())
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
            schema_type: Default::default(),
            references: vec![reference("shop.Money", "money")],
        };
        let mut asked = Vec::new();
        let json = assemble(&order, &mut |r| {
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
        let e = assemble(&looping, &mut |_| {
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
        let e = assemble(&broken, &mut |_| Ok(Schema::avro("{not json"))).unwrap_err();
        assert!(matches!(e, RegistryError::InvalidReply { .. }), "{e}");
    }
}
