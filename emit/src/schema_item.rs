//! The schema item of a type: one call of the runtime's `schema!` macro with the type's node
//! texts, which writes its node, its `SchemaNode` impl and, for a named type, its
//! `AvroSchema` impl.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};
use serde_json::Value as Json;

use crate::node::{self, Nested, NodeText, Piece};

/// What a schema item gives its type besides the node.
#[derive(Debug, Clone, Copy)]
pub enum ItemKind {
    /// A named type's `AvroSchema` impl, its texts' lengths and fingerprint computed by the
    /// compiler from the nodes (`None`), or measured by the caller.
    Named(Option<Measured>),
    /// A union enum's node, which has no schema of its own name, with the `AvroSchema` impl
    /// of schema `union` when `avro_schema` (the derive's unions).
    Union {
        /// Whether the union gets an `AvroSchema` impl.
        avro_schema: bool,
    },
}

/// The figures of a standalone schema, measured by the code generator for a schema of many
/// named types (see the runtime's `schema!`).
#[derive(Debug, Clone, Copy)]
pub struct Measured {
    /// The length in bytes of the full JSON.
    pub json_len: usize,
    /// The length in bytes of the Parsing Canonical Form.
    pub canonical_len: usize,
    /// The CRC-64-AVRO fingerprint of the Parsing Canonical Form.
    pub fingerprint: u64,
}

/// The `schema!` item of the type `ident` with the node `texts`, whose placeholders stand
/// for the types `nested`, in order; `runtime` is the path of the runtime crate. The item
/// names the runtime by that path, so it goes anywhere the type is in scope by `ident`.
pub fn schema_item(
    runtime: &syn::Path,
    ident: &syn::Ident,
    kind: ItemKind,
    texts: &NodeText,
    nested: &[Nested],
) -> Result<TokenStream, String> {
    let (fixed, references) = nested_references(nested)?;
    let pieces = |pieces: &[Piece]| -> Vec<TokenStream> {
        pieces
            .iter()
            .map(|piece| match piece {
                Piece::Text(text) => raw_str(text).into_token_stream(),
                Piece::Nested(n) => references[*n].clone(),
            })
            .collect()
    };
    let (json, canonical) = (pieces(&texts.json), pieces(&texts.canonical));
    let schema = quote!(#runtime::__private::schema!);
    let arguments = match kind {
        ItemKind::Named(measured) if nested.is_empty() => {
            let ([json], [canonical]) = (json.as_slice(), canonical.as_slice()) else {
                return Err("a type holding no other has one text of each form".into());
            };
            let fingerprint = measured.map(|m| {
                let fingerprint = Literal::u64_unsuffixed(m.fingerprint);
                quote!(, fingerprint = #fingerprint)
            });
            quote!(#ident, #json, #canonical #fingerprint)
        }
        ItemKind::Named(measured) => {
            let measured = measured.map(|m| {
                let fingerprint = Literal::u64_unsuffixed(m.fingerprint);
                let (json_len, canonical_len) = (
                    Literal::usize_unsuffixed(m.json_len),
                    Literal::usize_unsuffixed(m.canonical_len),
                );
                quote!(, json_len = #json_len, canonical_len = #canonical_len, fingerprint = #fingerprint)
            });
            quote!(#ident, #(#fixed)* [#(#json),*], [#(#canonical),*] #measured)
        }
        ItemKind::Union { avro_schema } => {
            let with = avro_schema.then(|| quote!(with AvroSchema));
            // A union's canonical form is its JSON unless a branch has attributes.
            let canonical = (texts.canonical != texts.json).then(|| quote!(, [#(#canonical),*]));
            quote!(union #ident #with, #(#fixed)* [#(#json),*] #canonical)
        }
    };
    Ok(quote!(#schema(#arguments);))
}

/// The declarations `fixed Name = (json, canonical),` of the logical fixed types among
/// `nested`, which have no Rust type, and the piece that refers to each nested type.
fn nested_references(nested: &[Nested]) -> Result<(Vec<TokenStream>, Vec<TokenStream>), String> {
    let mut fixed = Vec::new();
    let mut names = Vec::new();
    let references = nested
        .iter()
        .map(|nested| match nested {
            Nested::Type(path) => Ok(quote!((#path))),
            Nested::Fixed(json) => {
                let texts = node::parse(json, 0)?.texts(&[]);
                let (json_text, canonical_text) = match (&texts.json[..], &texts.canonical[..]) {
                    ([Piece::Text(json)], [Piece::Text(canonical)]) => (json, canonical),
                    _ => return Err("a fixed has one text of each form".into()),
                };
                let name = fixed_name(json, &names);
                names.push(name.clone());
                let (json_text, canonical_text) = (raw_str(json_text), raw_str(canonical_text));
                fixed.push(quote!(fixed #name = (#json_text, #canonical_text),));
                Ok(quote!((fixed #name)))
            }
        })
        .collect::<Result<_, String>>()?;
    Ok((fixed, references))
}

/// The name of a logical fixed type's node within one schema item: its Avro name where that
/// is an identifier not taken by another, else a numbered one.
fn fixed_name(json: &Json, taken: &[syn::Ident]) -> syn::Ident {
    let simple = json["name"].as_str().unwrap_or_default();
    let mut name = syn::parse_str::<syn::Ident>(simple).unwrap_or_else(|_| format_ident!("Fixed"));
    let mut n = taken.len();
    while taken.contains(&name) {
        name = format_ident!("Fixed{n}");
        n += 1;
    }
    name
}

/// `text` as a raw string literal, so that JSON reads as JSON (no `\"` escapes); as an
/// escaped literal when it holds what rustc refuses unescaped in a literal (a carriage
/// return, a text-direction control).
pub(crate) fn raw_str(text: &str) -> Literal {
    if text.contains(|c| c == '\r' || crate::changes_text_direction(c)) {
        return Literal::string(text);
    }
    // One `#` more than the longest run of them after a quote closes no string early.
    let longest = text
        .split('"')
        .skip(1)
        .map(|after| after.len() - after.trim_start_matches('#').len())
        .max()
        .unwrap_or(0);
    let hashes = "#".repeat(longest + 1);
    format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .expect("a raw string literal parses")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_strings_hold_quotes_and_hashes_unchanged() {
        for text in [
            r#"{"a":1}"#,
            "",
            r###"{"doc":"a "# b "## c"}"###,
            "#\"#",
            "{\"doc\":\"l\u{202e}r\u{2066}\"}\r",
        ] {
            let literal: syn::LitStr = syn::parse2(raw_str(text).into_token_stream()).unwrap();
            assert_eq!(literal.value(), text);
            let written = raw_str(text).to_string();
            assert!(
                !written.contains(['\r', '\u{202e}', '\u{2066}']),
                "{written}"
            );
        }
    }
}
