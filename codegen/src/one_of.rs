//! Enums of one of several named types (the runtime's `OneOf`): those the options ask for
//! ([`crate::Options::one_of`]) and one per top-level union of named types in the inputs.
//! Each holds one newtype variant per type, named as the type's Rust type, and gets the
//! impls `#[derive(AvroOneOf)]` gives, from the same emitter.
//!
//! The enums are planned with the type space, after the named types and before the union
//! enums are named, so that no generated type takes an enum's name; `one_of_items` writes
//! them after the types, in the module of the enum name's namespace.

use std::collections::HashMap;
use std::path::Path;

use avdl2rs_schema::{Schema, SchemaKind, SchemaSet};

use crate::options::OneOfEnum;
use crate::{naming, Error, Options};

/// Index of a type in the type space (`space::TypeId`).
type TypeId = usize;

/// What planning needs to know of a type already in the type space, at its index.
pub(crate) struct Registered<'a> {
    /// Its module (module idents from the root).
    pub module: &'a [String],
    /// Its Rust name.
    pub ident: &'a str,
    /// Its full Avro name; `None` for a union enum.
    pub full_name: Option<String>,
}

/// A top-level union of named types read from an input: the branches' full names, and where
/// it came from, whose file name names its enum.
#[derive(Debug)]
pub(crate) struct TopUnion {
    /// The file (or caller-given name) of the input.
    pub origin: String,
    /// The full names of the branches, in order.
    pub branches: Vec<String>,
}

impl TopUnion {
    /// The top-level union of `schema`, read from `origin`, when every branch is a named type.
    pub fn of(schema: &Schema, origin: &str) -> Option<TopUnion> {
        let SchemaKind::Union(branches) = &schema.kind else {
            return None;
        };
        let branches = branches
            .iter()
            .map(|branch| match &branch.kind {
                SchemaKind::Named(name) if branch.logical_type.is_none() => Some(name.full_name()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(TopUnion {
            origin: origin.to_owned(),
            branches,
        })
    }
}

/// A variant of a one-of enum.
pub(crate) struct OneOfVariant {
    /// Its name.
    pub ident: String,
    /// The type it holds.
    pub ty: TypeId,
    /// That type's full Avro name.
    pub full_name: String,
}

/// One enum to generate.
pub(crate) struct OneOfDef {
    /// The module holding it (module idents from the root).
    pub module: Vec<String>,
    /// The Avro namespace of that module.
    pub namespace: String,
    /// Its Rust name.
    pub ident: String,
    /// Its doc.
    pub doc: String,
    /// The variants, in order.
    pub variants: Vec<OneOfVariant>,
    /// The catch-all variant's name.
    pub other: Option<String>,
}

/// The enums the options ask for, then one per top-level union that no option names (an
/// enum of the same types does), given the named types `defs`.
pub(crate) fn plan(
    set: &SchemaSet,
    defs: &[Registered<'_>],
    options: &Options,
    top_unions: &[TopUnion],
) -> Result<Vec<OneOfDef>, Error> {
    let by_name: HashMap<String, TypeId> = defs
        .iter()
        .enumerate()
        .filter_map(|(id, def)| Some((def.full_name.clone()?, id)))
        .collect();
    let mut planned: Vec<OneOfDef> = Vec::new();
    for request in &options.one_of_enums {
        let def = requested(request, set, defs, &by_name, options)?;
        if is_taken(defs, &planned, &def.module, &def.ident) {
            return Err(invalid(
                request,
                format!(
                    "the name `{}` is taken by another generated type",
                    def.ident
                ),
            ));
        }
        planned.push(def);
    }
    for union in top_unions {
        let named = |request: &OneOfEnum| same_types(&request.types, &union.branches);
        if options.one_of_enums.iter().any(named) {
            continue;
        }
        let Some(def) = of_top_union(union, defs, &by_name, &planned) else {
            continue;
        };
        planned.push(def);
    }
    Ok(planned)
}

/// The enum `request` asks for, its types checked.
fn requested(
    request: &OneOfEnum,
    set: &SchemaSet,
    defs: &[Registered<'_>],
    by_name: &HashMap<String, TypeId>,
    options: &Options,
) -> Result<OneOfDef, Error> {
    if request.name.split('.').any(str::is_empty) {
        let why = "the name has an empty part (a dotted name is `namespace.Name`)";
        return Err(invalid(request, why.into()));
    }
    if request.types.is_empty() {
        return Err(invalid(request, "it lists no types".into()));
    }
    let mut ids = Vec::with_capacity(request.types.len());
    for (i, full_name) in request.types.iter().enumerate() {
        if request.types[..i].contains(full_name) {
            return Err(invalid(request, format!("`{full_name}` is listed twice")));
        }
        let id = by_name
            .get(full_name)
            .copied()
            .ok_or_else(|| invalid(request, not_a_type(set, full_name)))?;
        ids.push(id);
    }
    let (namespace, simple) = match request.name.rsplit_once('.') {
        Some((namespace, simple)) => (namespace, simple),
        None => ("", request.name.as_str()),
    };
    let names = request.types.iter().map(|name| format!("`{name}`"));
    let doc = format!(
        "A value of one of the types {}, read from a message into the variant whose type wrote it (the runtime's `OneOf`).",
        names.collect::<Vec<_>>().join(", ")
    );
    Ok(OneOfDef {
        module: naming::module_path(namespace, options.flat_modules),
        namespace: namespace.to_owned(),
        ident: naming::type_name(simple),
        doc,
        variants: variants(defs, &ids),
        other: request.catch_all.then(|| catch_all_name(defs, &ids)),
    })
}

/// Why `full_name` cannot be a variant's type.
fn not_a_type(set: &SchemaSet, full_name: &str) -> String {
    if SchemaKind::primitive(full_name).is_some() {
        return format!(
            "`{full_name}` is not a named type: the variants are told apart by the full name of the record, enum or fixed that wrote each message"
        );
    }
    if set.get(full_name).is_some() {
        return format!(
            "`{full_name}` is a fixed with a logical type, which has no Rust type of its own"
        );
    }
    format!("`{full_name}` is no named type of the schemas")
}

/// The enum of a top-level union, named after its file in the root module (with a number
/// when a root type has that name); `None` when a branch has no Rust type of its own.
fn of_top_union(
    union: &TopUnion,
    defs: &[Registered<'_>],
    by_name: &HashMap<String, TypeId>,
    planned: &[OneOfDef],
) -> Option<OneOfDef> {
    let ids = union
        .branches
        .iter()
        .map(|name| by_name.get(name).copied())
        .collect::<Option<Vec<_>>>()?;
    let path = Path::new(&union.origin);
    let part = |part: Option<&std::ffi::OsStr>| {
        part.and_then(|part| part.to_str())
            .unwrap_or(&union.origin)
            .to_owned()
    };
    let (stem, file) = (part(path.file_stem()), part(path.file_name()));
    let ident = naming::unique(&naming::type_name(&stem), |name| {
        is_taken(defs, planned, &[], name)
    });
    Some(OneOfDef {
        module: Vec::new(),
        namespace: String::new(),
        ident,
        doc: format!(
            "The top-level union of `{file}`: a value of one of its branches' types, read from a message into the variant whose type wrote it (the runtime's `OneOf`)."
        ),
        variants: variants(defs, &ids),
        other: None,
    })
}

/// Whether a generated type or a planned enum of `module` is named `name`.
pub(crate) fn is_taken(
    defs: &[Registered<'_>],
    planned: &[OneOfDef],
    module: &[String],
    name: &str,
) -> bool {
    defs.iter().any(|d| d.module == module && d.ident == name) || is_planned(planned, module, name)
}

/// Whether a planned enum of `module` is named `name`.
pub(crate) fn is_planned(planned: &[OneOfDef], module: &[String], name: &str) -> bool {
    planned
        .iter()
        .any(|p| p.module == module && p.ident == name)
}

/// Whether two lists hold the same full names, in any order.
fn same_types(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().all(|name| b.contains(name))
}

/// The variants holding the types `ids`: each named as its type (with a number when two
/// types of different namespaces share a Rust name).
fn variants(defs: &[Registered<'_>], ids: &[TypeId]) -> Vec<OneOfVariant> {
    let mut variants: Vec<OneOfVariant> = Vec::with_capacity(ids.len());
    for &ty in ids {
        let ident = naming::unique(defs[ty].ident, |n| variants.iter().any(|v| v.ident == n));
        let full_name = defs[ty].full_name.clone().unwrap_or_default();
        variants.push(OneOfVariant {
            ident,
            ty,
            full_name,
        });
    }
    variants
}

/// `Other`, or `Other2`... when a variant's type is named so.
fn catch_all_name(defs: &[Registered<'_>], ids: &[TypeId]) -> String {
    naming::unique("Other", |n| ids.iter().any(|&id| defs[id].ident == n))
}

fn invalid(request: &OneOfEnum, why: String) -> Error {
    Error::InvalidOption {
        message: format!("one-of enum `{}`: {why}", request.name),
    }
}
