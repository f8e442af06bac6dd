//! The module tree of the output: one module per namespace, each holding its types in the
//! order they were added, each type's definition, codec and schema item together, under one
//! `#[allow]` per top-level module. The root's items go into a module of their own ([`ROOT_MODULE`]), which
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
    /// Each type's definition (with its constructor), codec block and schema item (or the
    /// checks of a type taken from elsewhere), one type after the other: a reader finds
    /// everything about a type in one place.
    items: Vec<TokenStream>,
    /// The names of the types defined, which the root re-exports from [`ROOT_MODULE`].
    names: Vec<Ident>,
    children: BTreeMap<String, ModuleTree>,
}

/// The items of one type, written together in the type's module.
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
            tree.items.push(definition);
        }
        tree.items.extend(items.codec);
        tree.items.extend(items.schema);
    }

    /// The whole file: the root's items in [`ROOT_MODULE`], re-exported, and each top-level
    /// namespace module, each under the lint allowances of generated code.
    pub fn file(&self) -> TokenStream {
        let allows = lint_allows();
        let root = (!self.items.is_empty()).then(|| {
            let body = &self.items;
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
                mod #root { #(#body)* }
            }
        });
        let children = self
            .children
            .iter()
            .map(|(name, child)| child.module(name, &allows));
        quote!(#root #(#children)*)
    }

    /// `pub mod name { ... }` with this module's items and submodules, its doc first, then
    /// `attrs` (the lint allowances of a top-level module, else nothing).
    fn module(&self, name: &str, attrs: &TokenStream) -> TokenStream {
        let name = ident(name);
        let doc = format!(" The Avro namespace `{}`.", self.namespace);
        let items = &self.items;
        let children = self
            .children
            .iter()
            .map(|(name, child)| child.module(name, &TokenStream::new()));
        quote! {
            #[doc = #doc]
            #attrs
            pub mod #name { #(#items)* #(#children)* }
        }
    }
}

/// The lints generated code is exempt from, once per top-level module: names and shapes come
/// from the schema (a field `foo`, a record with twelve required fields, a module named like
/// its parent, which `clippy::all` covers, a type the including crate does not use), not
/// from a Rust author who could change them, and the docs are the schema's.
fn lint_allows() -> TokenStream {
    quote! {
        #[allow(dead_code, missing_docs, clippy::all, clippy::pedantic)]
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
