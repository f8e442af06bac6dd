//! `unused-type` and `unused-import`.
//!
//! A named type is unused when it is defined in the file and nothing the file is for reaches
//! it: in a protocol with messages, no message's parameters, response or errors, directly or
//! through other types; in a schema file with a `schema` declaration, not the schema nor
//! anything in it. A protocol without messages, or a file of named types only, is a library
//! of types, all of them its interface: no type there is unused.
//!
//! An import is unused when none of the named types it brings in is used by a declaration of
//! the importing file (a field, a message, the `schema`, a type nested in them).

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use super::Context;
use crate::document::{simple_name, Shape};
use crate::finding::Subject;
use crate::rule::Rule;

/// What an IDL source declares beyond what its JSON shows.
#[derive(Debug, Default)]
pub(crate) struct Declared<'t> {
    /// The full names of the named types the file itself defines; `None` for JSON sources,
    /// which define exactly what their JSON holds.
    pub types: Option<Vec<String>>,
    /// The file's imports, in order, each with the full names of the types it brings in.
    pub imports: Vec<Vec<String>>,
    /// The type names the file's own declarations refer to, as written (simple or full),
    /// borrowed from its text.
    pub used: HashSet<Cow<'t, str>>,
}

pub(super) fn check(context: &mut Context<'_, '_>, declared: &Declared<'_>) {
    unused_types(context, declared);
    for (index, types) in declared.imports.iter().enumerate() {
        let used = |full: &String| {
            declared.used.contains(full.as_str()) || declared.used.contains(simple_name(full))
        };
        if !types.is_empty() && !types.iter().any(used) {
            context.report_with_help(
                Rule::UnusedImport,
                String::new(),
                Subject::Import(index),
                format!(
                    "nothing in this file uses the types this import brings in ({})",
                    types.join(", ")
                ),
                Some("remove the import".into()),
            );
        }
    }
}

fn unused_types(context: &mut Context<'_, '_>, declared: &Declared<'_>) {
    let doc = context.doc;
    let has_roots = match doc.shape {
        Shape::Protocol { has_messages } => has_messages,
        Shape::Schema => true,
        Shape::Types => false,
    };
    if !has_roots || !context.runs(Rule::UnusedType) {
        return;
    }
    let reached = reachable(context);
    let defined: Vec<&str> = match &declared.types {
        Some(types) => types.iter().map(String::as_str).collect(),
        None => doc
            .definitions
            .iter()
            .map(|d| d.full_name.as_str())
            .collect(),
    };
    for name in defined.into_iter().filter(|name| !reached.contains(name)) {
        let path = doc
            .definition(name)
            .map(|d| doc.pointers.child_text(d.path, "name"))
            .unwrap_or_default();
        let used_by = match doc.shape {
            Shape::Schema => "the file's schema",
            _ => "any message",
        };
        context.report_with_help(
            Rule::UnusedType,
            path,
            Subject::Type(name.to_owned()),
            format!("`{name}` is not used by {used_by}"),
            Some("remove it, or move it to a file of shared types".into()),
        );
    }
}

/// The full names reachable from the messages or the main schema.
fn reachable<'a>(context: &Context<'a, '_>) -> HashSet<&'a str> {
    let doc = context.doc;
    let mut edges: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut pending: Vec<&str> = Vec::new();
    for reference in &doc.references {
        match reference.owner {
            Some(owner) => edges
                .entry(doc.definitions[owner].full_name.as_str())
                .or_default()
                .push(&reference.full_name),
            None if reference.root => pending.push(&reference.full_name),
            None => {}
        }
    }
    let mut reached = HashSet::new();
    while let Some(name) = pending.pop() {
        if reached.insert(name) {
            pending.extend(edges.get(name).into_iter().flatten());
        }
    }
    reached
}
