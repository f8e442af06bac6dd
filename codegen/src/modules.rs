//! The module tree of the output: one module per namespace, each holding its types'
//! definitions, then their codecs, then their schema items, under one `#[allow]` per
//! top-level module. The root's items go into a module of their own ([`ROOT_MODULE`]), which
//! the root re-exports.

use std::collections::BTreeMap;

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use crate::context::{ident, ROOT_MODULE};

/// A module of the output: its items by kind and its submodules by name.
#[derive(Default)]
pub(crate) struct ModuleTree {
    /// The Avro namespace (or namespace prefix) the module stands for.
    namespace: String,
    /// The type definitions, with their constructors.
    types: Vec<TokenStream>,
    /// The codec blocks.
    codecs: Vec<TokenStream>,
    /// The schema items, and the checks of types taken from elsewhere.
    schemas: Vec<TokenStream>,
    /// The names of the types defined, which the root re-exports from [`ROOT_MODULE`].
    names: Vec<Ident>,
    children: BTreeMap<String, ModuleTree>,
}

/// The items of one type, each in its section of the type's module.
#[derive(Default)]
pub(crate) struct TypeItems {
    /// The type's name and definition; `None` for a type taken from elsewhere.
    pub definition: Option<(Ident, TokenStream)>,
    pub codec: Option<TokenStream>,
    pub schema: Option<TokenStream>,
}

impl ModuleTree {
    /// Adds the items of a type of module `module` (module idents from the root), whose
    /// namespace is `namespace`.
    pub fn add(&mut self, module: &[String], namespace: &str, items: TypeItems) {
        let parts: Vec<&str> = namespace.split('.').collect();
        let mut tree = self;
        for (depth, name) in module.iter().enumerate() {
            tree = tree.children.entry(name.clone()).or_default();
            if tree.namespace.is_empty() {
                tree.namespace = parts
                    .get(..=depth)
                    .map_or_else(|| name.clone(), |parts| parts.join("."));
            }
        }
        if let Some((name, definition)) = items.definition {
            tree.names.push(name);
            tree.types.push(definition);
        }
        tree.codecs.extend(items.codec);
        tree.schemas.extend(items.schema);
    }

    /// The whole file: the root's items in [`ROOT_MODULE`], re-exported, and each top-level
    /// namespace module, each under the lint allowances of generated code.
    pub fn file(&self) -> TokenStream {
        let allows = lint_allows();
        let root = (!self.sections().is_empty()).then(|| {
            let body = self.sections();
            let root = ident(ROOT_MODULE);
            let names = &self.names;
            // A re-export the including crate does not use is an `unused_imports` warning
            // when the file is included in a private module; the only item-level allowance.
            let export = (!names.is_empty()).then(|| {
                quote! {
                    #[allow(unused_imports)]
                    pub use self::#root::{#(#names),*};
                }
            });
            quote! {
                #export
                #[doc = " The types of the root, in a module of their own so that one attribute"]
                #[doc = " allows the lints their schema-given names and shapes raise."]
                #allows
                mod #root { #body }
            }
        });
        let children = self.children.iter().map(|(name, child)| {
            let module = child.module(name);
            quote!(#allows #module)
        });
        quote!(#root #(#children)*)
    }

    /// This module's own items, section by section.
    fn sections(&self) -> TokenStream {
        let (types, codecs, schemas) = (&self.types, &self.codecs, &self.schemas);
        quote!(#(#types)* #(#codecs)* #(#schemas)*)
    }

    /// `pub mod name { ... }` with this module's items and submodules.
    fn module(&self, name: &str) -> TokenStream {
        let name = ident(name);
        let doc = format!(" The Avro namespace `{}`.", self.namespace);
        let sections = self.sections();
        let children = self.children.iter().map(|(name, child)| child.module(name));
        quote! {
            #[doc = #doc]
            pub mod #name { #sections #(#children)* }
        }
    }
}

/// The lints generated code is exempt from, once per top-level module: names and shapes come
/// from the schema (a field `foo`, a record with twelve required fields, a module named like
/// its parent, a type the including crate does not use), not from a Rust author who could
/// change them, and the docs are the schema's.
fn lint_allows() -> TokenStream {
    quote! {
        #[allow(dead_code, missing_docs, clippy::all, clippy::pedantic, clippy::module_inception)]
    }
}

#[cfg(test)]
mod tests {
    use super::{ModuleTree, TypeItems};

    fn module_docs(tree: &ModuleTree) -> Vec<String> {
        let text = tree.file().to_string();
        text.match_indices("The Avro namespace `")
            .map(|(at, _)| {
                let rest = &text[at + "The Avro namespace `".len()..];
                rest[..rest.find('`').unwrap()].to_owned()
            })
            .collect()
    }

    #[test]
    fn each_module_is_documented_with_its_own_namespace() {
        let mut tree = ModuleTree::default();
        let path = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>();
        // The deeper namespace first: a module's doc must not come from the first type seen.
        tree.add(
            &path(&["com", "example", "orders"]),
            "com.example.orders",
            TypeItems::default(),
        );
        tree.add(
            &path(&["com", "example"]),
            "com.example",
            TypeItems::default(),
        );
        tree.add(
            &path(&["com", "example", "common"]),
            "com.example.common",
            TypeItems::default(),
        );
        assert_eq!(
            module_docs(&tree),
            [
                "com",
                "com.example",
                "com.example.common",
                "com.example.orders"
            ]
        );
    }
}
