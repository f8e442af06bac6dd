//! Enums of one of several named types (the runtime's `OneOf`): those the options ask for
//! ([`crate::Options::one_of`]) and one per top-level union of named types in the inputs.
//! Each holds one newtype variant per type, named as the type's Rust type, and gets the
//! impls `#[derive(AvroOneOf)]` gives, from the same emitter.
//!
//! The enums are planned with the type space, after the named types and before the union
//! enums are named, so that no generated type takes an enum's name; they are written after
//! the types, in the module of the enum name's namespace.

use std::collections::HashMap;
use std::path::Path;

use avdl2rs_emit::{one_of_impls, OneOfVariant};
use avdl2rs_schema::{Schema, SchemaKind, SchemaSet};
use proc_macro2::TokenStream;
use quote::quote;

use crate::context::{ident, Context};
use crate::docs::doc_attrs;
use crate::modules::TypeItems;
use crate::options::OneOfEnum;
use crate::space::{module_of, TypeDef, TypeId};
use crate::{naming, Error, Options};

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
    /// Per variant, in order: its name and the type it holds.
    pub variants: Vec<(String, TypeId)>,
    /// The catch-all variant's name.
    pub other: Option<String>,
}

/// The enums the options ask for, then one per top-level union that no option names (an
/// enum of the same types does), given the named types `defs`.
pub(crate) fn plan(
    set: &SchemaSet,
    defs: &[TypeDef],
    options: &Options,
    top_unions: &[TopUnion],
) -> Result<Vec<OneOfDef>, Error> {
    let by_name: HashMap<String, TypeId> = defs
        .iter()
        .enumerate()
        .filter_map(|(id, def)| Some((def.named()?.name.full_name(), id)))
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
    defs: &[TypeDef],
    by_name: &HashMap<String, TypeId>,
    options: &Options,
) -> Result<OneOfDef, Error> {
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
    let names = ids.iter().map(|&id| format!("`{}`", full_name(defs, id)));
    let doc = format!(
        "A value of one of the types {}, read from a message into the variant whose type wrote it (the runtime's `OneOf`).",
        names.collect::<Vec<_>>().join(", ")
    );
    Ok(OneOfDef {
        module: module_of(options, Some(namespace)),
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
    defs: &[TypeDef],
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
    defs: &[TypeDef],
    planned: &[OneOfDef],
    module: &[String],
    name: &str,
) -> bool {
    defs.iter().any(|d| d.module == module && d.ident == name)
        || planned
            .iter()
            .any(|p| p.module == module && p.ident == name)
}

/// Whether two lists hold the same full names, in any order.
fn same_types(a: &[String], b: &[String]) -> bool {
    a.len() == b.len() && a.iter().all(|name| b.contains(name))
}

/// The variants holding the types `ids`: each named as its type (with a number when two
/// types of different namespaces share a Rust name).
fn variants(defs: &[TypeDef], ids: &[TypeId]) -> Vec<(String, TypeId)> {
    let mut variants: Vec<(String, TypeId)> = Vec::with_capacity(ids.len());
    for &id in ids {
        let name = naming::unique(&defs[id].ident, |n| variants.iter().any(|(v, _)| v == n));
        variants.push((name, id));
    }
    variants
}

/// `Other`, or `Other2`... when a variant's type is named so.
fn catch_all_name(defs: &[TypeDef], ids: &[TypeId]) -> String {
    naming::unique("Other", |n| ids.iter().any(|&id| defs[id].ident == n))
}

fn full_name(defs: &[TypeDef], id: TypeId) -> String {
    defs[id]
        .named()
        .map(|named| named.name.full_name())
        .unwrap_or_default()
}

fn invalid(request: &OneOfEnum, why: String) -> Error {
    Error::InvalidOption {
        message: format!("one-of enum `{}`: {why}", request.name),
    }
}

/// The enum's definition and its `OneOf` impls.
pub(crate) fn items(cx: &Context<'_>, def: &OneOfDef) -> TypeItems {
    let rt = &cx.runtime;
    let name = ident(&def.ident);
    let docs = doc_attrs(Some(&def.doc));
    let typed: Vec<OneOfVariant<TokenStream>> = def
        .variants
        .iter()
        .map(|(variant, id)| OneOfVariant {
            ident: ident(variant),
            ty: cx.path_to(*id, &def.module),
        })
        .collect();
    let variants = typed.iter().zip(&def.variants).map(|(v, (_, id))| {
        let doc = format!(" A message of `{}`.", full_name(&cx.space.defs, *id));
        let (variant, ty) = (&v.ident, &v.ty);
        quote!(#[doc = #doc] #variant(#ty),)
    });
    let other = def.other.as_deref().map(ident);
    let other_variant = other.as_ref().map(|other| {
        quote! {
            #[doc = " A record of a writer type no other variant is (read, never written)."]
            #other(#rt::generic::GenericRecord),
        }
    });
    let definition = quote! {
        #docs
        #[derive(Debug, Clone, PartialEq)]
        pub enum #name { #(#variants)* #other_variant }
    };
    let one_of = avdl2rs_emit::OneOfEnum {
        ident: &name,
        typed: &typed,
        other: other.as_ref(),
    };
    TypeItems {
        definition: Some((name.clone(), definition)),
        codec: Some(one_of_impls(&one_of, rt)),
        schema: None,
    }
}
