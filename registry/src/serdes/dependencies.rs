//! A type's schema split into its named types, for registering them as references: each
//! named type under its own full name (the RecordNameStrategy subject), dependencies first,
//! its text naming the types it uses instead of defining them.

use serde_json::Value;

use avdl2rs::schema::SchemaSet;

/// One schema to register.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Part {
    /// The full name of the named type (the type's own name for the last part).
    pub(crate) name: String,
    /// The schema text, naming the types of `uses` instead of defining them.
    pub(crate) schema: String,
    /// The full names of the named types the text uses, each an earlier part.
    pub(crate) uses: Vec<String>,
}

/// The parts of the schema `json` whose own full name is `full_name`: its named types,
/// each before the types that use it, then the schema itself last.
pub(crate) fn split(json: &str, full_name: &str) -> Result<Vec<Part>, String> {
    let mut set = SchemaSet::new();
    let root = set.parse_str(json).map_err(|e| e.to_string())?;
    let mut parts = Vec::new();
    for named in set.iter() {
        let name = named.name.full_name();
        if name == full_name {
            continue;
        }
        let definition = set.named_to_json(&name).expect("a type of the set");
        parts.push(part(&set, name, definition, &parts)?);
    }
    let own = part(&set, full_name.to_owned(), set.to_json(&root), &parts)?;
    parts.push(own);
    Ok(parts)
}

/// The part of the named type `name` defined by `definition`, given the parts before it.
fn part(
    set: &SchemaSet,
    name: String,
    mut definition: Value,
    before: &[Part],
) -> Result<Part, String> {
    let mut walk = Walk {
        set,
        own: &name,
        uses: Vec::new(),
    };
    walk.type_position(&mut definition, "", true);
    if let Some(later) = walk
        .uses
        .iter()
        .find(|u| !before.iter().any(|p| &&p.name == u))
    {
        return Err(format!(
            "{name} and {later} use each other, so they cannot be registered as references"
        ));
    }
    Ok(Part {
        schema: definition.to_string(),
        uses: walk.uses,
        name,
    })
}

/// Replaces the named types defined inside a definition by their full names.
struct Walk<'a> {
    set: &'a SchemaSet,
    /// The type whose definition is walked (its own name is a recursion, not a use).
    own: &'a str,
    uses: Vec<String>,
}

impl Walk<'_> {
    /// The schema at a place where a type is expected, in namespace `namespace`; `root`
    /// for the definition itself, which stays.
    fn type_position(&mut self, value: &mut Value, namespace: &str, root: bool) {
        match value {
            Value::String(name) => {
                if let Some(full) = self.named(name, namespace) {
                    self.used(full);
                }
            }
            Value::Array(branches) => {
                for branch in branches {
                    self.type_position(branch, namespace, false);
                }
            }
            Value::Object(object) => match object.get("type").and_then(Value::as_str) {
                Some("record" | "error" | "enum" | "fixed") => {
                    let full = full_name(object, namespace);
                    // A name in the null namespace cannot be written inside another one:
                    // such a type stays defined where it is used.
                    let nameable = full.contains('.') || namespace.is_empty();
                    if !root && nameable && self.set.get(&full).is_some() {
                        self.used(full.clone());
                        *value = Value::String(full);
                        return;
                    }
                    let inner = full.rsplit_once('.').map_or("", |(ns, _)| ns).to_owned();
                    let fields = object.get_mut("fields").and_then(Value::as_array_mut);
                    for field in fields.into_iter().flatten() {
                        if let Some(field_type) = field.get_mut("type") {
                            self.type_position(field_type, &inner, false);
                        }
                    }
                }
                Some("array") => self.inner(object.get_mut("items"), namespace),
                Some("map") => self.inner(object.get_mut("values"), namespace),
                _ => {}
            },
            _ => {}
        }
    }

    fn inner(&mut self, value: Option<&mut Value>, namespace: &str) {
        if let Some(value) = value {
            self.type_position(value, namespace, false);
        }
    }

    /// The full name of the named type `name` written in `namespace`, if it is one.
    fn named(&self, name: &str, namespace: &str) -> Option<String> {
        let full = match name.contains('.') || namespace.is_empty() {
            true => name.to_owned(),
            false => format!("{namespace}.{name}"),
        };
        self.set.get(&full).map(|_| full)
    }

    fn used(&mut self, full: String) {
        if full != self.own && !self.uses.contains(&full) {
            self.uses.push(full);
        }
    }
}

/// The full name a definition object declares inside `namespace`.
fn full_name(object: &serde_json::Map<String, Value>, namespace: &str) -> String {
    let name = object
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if name.contains('.') {
        return name.to_owned();
    }
    let namespace = object
        .get("namespace")
        .and_then(Value::as_str)
        .unwrap_or(namespace);
    match namespace {
        "" => name.to_owned(),
        ns => format!("{ns}.{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parsed(part: &Part) -> Value {
        serde_json::from_str(&part.schema).unwrap()
    }

    #[test]
    fn named_types_become_parts_dependencies_first() {
        let order = json!({"type": "record", "name": "Order", "namespace": "shop", "fields": [
            {"name": "total", "type": {"type": "record", "name": "Money", "fields": [
                {"name": "currency", "type": {"type": "enum", "name": "Currency", "symbols": ["EUR"]}},
                {"name": "cents", "type": "long"}]}},
            {"name": "refunds", "type": {"type": "array", "items": "Money"}},
            {"name": "tag", "type": ["null", {"type": "fixed", "name": "Tag", "namespace": "meta", "size": 2}]},
            {"name": "next", "type": ["null", "Order"]}
        ]});
        let parts = split(&order.to_string(), "shop.Order").unwrap();
        let names: Vec<_> = parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["shop.Currency", "shop.Money", "meta.Tag", "shop.Order"]
        );
        assert_eq!(parts[1].uses, ["shop.Currency"]);
        assert_eq!(parsed(&parts[1])["fields"][0]["type"], "shop.Currency");
        let top = &parts[3];
        assert_eq!(top.uses, ["shop.Money", "meta.Tag"]);
        let text = parsed(top);
        assert_eq!(text["fields"][0]["type"], "shop.Money");
        assert_eq!(text["fields"][1]["type"]["items"], "Money");
        assert_eq!(text["fields"][2]["type"][1], "meta.Tag");
        // Each part alone, with the earlier parts, is a valid schema set again.
        let mut set = SchemaSet::new();
        for part in &parts {
            set.parse_str(&part.schema).unwrap();
        }
        assert_eq!(set.len(), 4);
    }

    #[test]
    fn a_schema_without_named_dependencies_is_one_part() {
        let json = r#"{"type":"record","name":"Ping","fields":[{"name":"id","type":"long"}]}"#;
        let parts = split(json, "Ping").unwrap();
        assert_eq!(parts.len(), 1);
        assert!(parts[0].uses.is_empty());
        assert_eq!(
            parsed(&parts[0]),
            serde_json::from_str::<Value>(json).unwrap()
        );
    }
}
