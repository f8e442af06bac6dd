//! What every part of rendering asks about the type space: the runtime's path, the Rust path
//! of a type from a given module, which types are taken from other generated code, and the
//! schema nodes of the named types. Built once per generation, before any item is written.

use std::collections::{HashMap, HashSet};

use avdl2rs_schema::SchemaSet;
use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::assembly::{Measure, NodeGraph};
use crate::nodes::TypeNode;
use crate::space::{TypeDef, TypeId, TypeSpace};
use crate::{Error, Options};

/// The module that holds the items of the root (the types of the null namespace, or all types
/// with `flat_modules`), which the root re-exports: the items of a file that is `include!`d
/// go into the including module, where no attribute can cover them, so a module of their own
/// carries the lint allowances of generated code once. Names from schemas never start with
/// `_` (see `naming`), so no namespace module takes this name.
pub(crate) const ROOT_MODULE: &str = "__root";

/// The prelude types the output names, written short where no generated type takes the name.
const PRELUDE_TYPES: [&str; 4] = ["String", "Vec", "Option", "Box"];

/// The type space being rendered, with what rendering needs to know about it.
pub(crate) struct Context<'a> {
    pub set: &'a SchemaSet,
    pub space: &'a TypeSpace,
    pub options: &'a Options,
    /// The runtime's path.
    pub runtime: syn::Path,
    /// The derives every type gets besides the usual ones.
    pub extra_derives: Vec<syn::Path>,
    /// The Avro full names or namespaces taken from elsewhere, with their Rust paths.
    extern_paths: Vec<(String, syn::Path)>,
    /// The named types with a Rust type, by full name.
    by_name: HashMap<String, TypeId>,
    /// The modules where a generated type takes the name of a prelude type the output uses
    /// (`String`, `Vec`, `Option`, `Box`), which there must be written with its full path.
    prelude_shadowed: HashSet<Vec<String>>,
    /// The schema nodes of the named types.
    nodes: NodeGraph,
    /// By type: whether its schema holds a type taken from other generated code.
    reaches_extern: Vec<bool>,
}

impl<'a> Context<'a> {
    /// The context of `space`; fails when an option is not valid Rust.
    pub fn new(
        set: &'a SchemaSet,
        space: &'a TypeSpace,
        options: &'a Options,
    ) -> Result<Self, Error> {
        let path = |text: &str, what: &str| {
            syn::parse_str::<syn::Path>(text).map_err(|e| Error::InvalidOption {
                message: format!("{what} {text:?} is not a Rust path: {e}"),
            })
        };
        let extern_paths = options
            .extern_paths
            .iter()
            .map(|(avro, rust)| Ok((avro.clone(), path(rust, "extern path")?)))
            .collect::<Result<_, Error>>()?;
        let mut cx = Context {
            set,
            space,
            options,
            runtime: path(&options.runtime_path, "runtime_path")?,
            extra_derives: options
                .extra_derives
                .iter()
                .map(|d| path(d, "extra derive"))
                .collect::<Result<_, _>>()?,
            extern_paths,
            by_name: space
                .defs
                .iter()
                .enumerate()
                .filter_map(|(id, def)| Some((def.named()?.name.full_name(), id)))
                .collect(),
            prelude_shadowed: space
                .defs
                .iter()
                .map(|def| (&def.module, &def.ident))
                .chain(space.one_ofs.iter().map(|o| (&o.module, &o.ident)))
                .filter(|(_, ident)| PRELUDE_TYPES.contains(&ident.as_str()))
                .map(|(module, _)| module.clone())
                .collect(),
            nodes: NodeGraph::new(set),
            reaches_extern: Vec::new(),
        };
        if !cx.extern_paths.is_empty() {
            let externs: Vec<bool> = space
                .defs
                .iter()
                .map(|def| cx.extern_type(def).is_some())
                .collect();
            cx.reaches_extern = crate::cycles::reaching(&space.defs, &externs);
        }
        Ok(cx)
    }

    /// The Rust path of a named type taken from other generated code, if it is one: the
    /// longest matching extern path, then the modules and name below it.
    pub fn extern_type(&self, def: &TypeDef) -> Option<TokenStream> {
        let full_name = def.named()?.name.full_name();
        let (avro, rust) = self
            .extern_paths
            .iter()
            .filter(|(avro, _)| {
                full_name == *avro
                    || (full_name.starts_with(avro.as_str())
                        && full_name[avro.len()..].starts_with('.'))
            })
            .max_by_key(|(avro, _)| avro.len())?;
        if full_name == *avro {
            return Some(quote!(#rust));
        }
        let depth = avro.split('.').count();
        let modules = def
            .module
            .get(depth..)
            .unwrap_or_default()
            .iter()
            .map(|m| ident(m));
        let name = ident(&def.ident);
        Some(quote!(#rust #(::#modules)* :: #name))
    }

    /// The path of a generated type as written in the items of module `from`: up (`super::`)
    /// to the closest module the two share, then down the target's modules. Root items are
    /// written one module down ([`ROOT_MODULE`]) and re-exported by the root, so a path from
    /// a namespace module to one ends at the root.
    pub fn path_to(&self, id: TypeId, from: &[String]) -> TokenStream {
        let target = &self.space.defs[id];
        if let Some(path) = self.extern_type(target) {
            return path;
        }
        let name = ident(&target.ident);
        if from == target.module.as_slice() {
            return quote!(#name);
        }
        let from: Vec<&str> = match from {
            [] => vec![ROOT_MODULE],
            modules => modules.iter().map(String::as_str).collect(),
        };
        let shared = from
            .iter()
            .zip(&target.module)
            .take_while(|(a, b)| **a == b.as_str())
            .count();
        let supers = from[shared..].iter().map(|_| quote!(super::));
        let modules = target.module[shared..].iter().map(|m| {
            let m = ident(m);
            quote!(#m::)
        });
        quote!(#(#supers)* #(#modules)* #name)
    }

    /// Whether code in module `from` may name the prelude's types (`String`, `Option`...) by
    /// their short names: where no generated type takes one of those names (the including
    /// module, whose other items the generator cannot see, never holds generated items).
    pub fn prelude_in_scope(&self, from: &[String]) -> bool {
        !self.prelude_shadowed.contains(from)
    }

    /// The map type's path.
    pub fn map_path(&self) -> TokenStream {
        match self.options.map_type {
            crate::MapType::HashMap => quote!(::std::collections::HashMap),
            crate::MapType::BTreeMap => quote!(::std::collections::BTreeMap),
        }
    }

    /// The generated (or extern) type of the named type `full_name`; `None` for a fixed under
    /// a logical type, which has no Rust type of its own.
    pub fn named_type(&self, full_name: &str) -> Option<TypeId> {
        self.by_name.get(full_name).copied()
    }

    /// Whether the schema of `full_name` holds a type taken from other generated code, whose
    /// node may write that type's schema with other docs or defaults than the schema here:
    /// such a schema keeps the figures measured here.
    pub fn reaches_extern(&self, full_name: &str) -> bool {
        self.named_type(full_name)
            .and_then(|id| self.reaches_extern.get(id).copied())
            .unwrap_or(false)
    }

    /// The lengths, fingerprint and named-type count of the standalone schema of the named
    /// type `full_name`, from its node: no text is written.
    pub fn measure(&self, full_name: &str) -> Result<Measure, Error> {
        self.nodes
            .measure(full_name)
            .map_err(|message| Error::Unsupported { message })
    }

    /// The schema node of the named type `full_name`.
    pub fn type_node(&self, full_name: &str) -> Result<&TypeNode, Error> {
        self.nodes
            .node(full_name)
            .map_err(|message| Error::Unsupported { message })
    }
}

/// Parses a Rust identifier (raw identifiers included) made by the naming module.
pub(crate) fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}
