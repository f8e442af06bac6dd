//! The expansion: a derive input in, the `AvroSchema`, `AvroEncode` and `AvroDecode` impls
//! out (tokens in, tokens out, so it is testable without a compiler).

use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use syn::spanned::Spanned;

use crate::attrs::{self, Attrs, Place};
use crate::emit::node::{self, PLACEHOLDER_NAMESPACE};
use crate::emit::{self, ItemKind, Shape, TypeCodec};
use crate::errors::Errors;
use crate::names::{avro_name, checked_names, is_valid_namespace};
use crate::shapes::{self, Header, Output};
use crate::types::Types;

/// Expands `#[derive(Avro)]` on `input`: every error of the input at once, or the impls.
pub(crate) fn derive(input: &syn::DeriveInput) -> Result<TokenStream, syn::Error> {
    let mut errors = Errors::default();
    if !input.generics.params.is_empty() {
        errors.at(
            &input.generics,
            "`Avro` cannot be derived for a generic type: its schema must be one fixed schema",
        );
    }
    let container = attrs::parse(&input.attrs, Place::Container, &mut errors);
    let header = header(&container, &input.ident, &mut errors);
    let mut types = Types::new(&input.ident, header.full_name(), &mut errors);
    let output = shape(input, &header, &container, &mut types);
    let union_branches = std::mem::take(&mut types.union_branches);
    errors.finish()?;
    let output = output.ok_or_else(|| syn::Error::new(Span::call_site(), "unsupported type"))?;
    let rt = container.krate.clone().unwrap_or_else(default_runtime_path);
    impls(&input.ident, output, &union_branches, &rt)
}

/// The type's name, namespace, doc and aliases, each checked.
fn header(container: &Attrs, ident: &syn::Ident, errors: &mut Errors) -> Header {
    let name = avro_name(container, ident, errors);
    let namespace = container.namespace.as_ref().map(|ns| {
        if ns.value == PLACEHOLDER_NAMESPACE
            || (!ns.value.is_empty() && !is_valid_namespace(&ns.value))
        {
            errors.at_span(
                ns.span,
                format!("{:?} is not a valid Avro namespace", ns.value),
            );
        }
        ns.value.clone()
    });
    Header {
        name,
        namespace: namespace.filter(|ns| !ns.is_empty()),
        doc: container.doc.clone(),
        aliases: checked_names(&container.aliases, errors, true),
    }
}

/// The Avro shape of the item, `None` after reporting why it has none.
fn shape(
    input: &syn::DeriveInput,
    header: &Header,
    container: &Attrs,
    types: &mut Types<'_>,
) -> Option<Output> {
    match &input.data {
        syn::Data::Struct(data) => match &data.fields {
            syn::Fields::Named(fields) => shapes::record(header, fields, container, types),
            syn::Fields::Unnamed(fields) => shapes::fixed(header, fields, types),
            syn::Fields::Unit => {
                types.errors.at(
                    &input.ident,
                    "a unit struct has no Avro schema: give it named fields (a record)",
                );
                None
            }
        },
        syn::Data::Enum(data) => shapes::enumeration(header, data, container, types),
        syn::Data::Union(data) => {
            types.errors.at(
                data.union_token,
                "a Rust union has no Avro schema: use an enum of one-field tuple variants",
            );
            None
        }
    }
}

/// The schema item, the union-branch checks and the codec impls of `ident`, in one `const`
/// block.
fn impls(
    ident: &syn::Ident,
    output: Output,
    union_branches: &[syn::Type],
    rt: &syn::Path,
) -> Result<TokenStream, syn::Error> {
    let parsed = node::parse(&output.json, output.nested.len()).map_err(|e| {
        syn::Error::new_spanned(
            ident,
            format!("the Avro schema of this type is invalid: {e}"),
        )
    })?;
    let texts = parsed.texts(&output.defaults);
    let kind = match output.shape {
        Shape::Union { .. } => ItemKind::Union { avro_schema: true },
        _ => ItemKind::Named(None),
    };
    let schema_item = emit::schema_item(rt, ident, kind, &texts, &output.nested)
        .map_err(|e| syn::Error::new_spanned(ident, format!("invalid fixed type: {e}")))?;
    let branch_checks = union_branch_checks(union_branches, rt);
    let codec = TypeCodec {
        ident: ident.clone(),
        shape: output.shape,
        full_name: None,
        // Whether the type can hold itself is not known from one type's definition.
        nested: true,
        // A field type without `#[derive(Avro)]` is then reported at the field.
        name_field_types: true,
    };
    let codec = emit::type_impls(&codec, rt, &|ty| ty.to_token_stream());
    Ok(emit::wrap_in_const(
        quote!(#schema_item #branch_checks #codec),
    ))
}

/// The runtime crate's path unless `#[avro(crate = "..")]` gives another.
fn default_runtime_path() -> syn::Path {
    syn::parse_quote!(::avdl2rs)
}

/// Compile-time checks that the derived types used as union branches are not unions (whose
/// branches would nest in the enclosing union, which Avro forbids).
fn union_branch_checks(branches: &[syn::Type], rt: &syn::Path) -> TokenStream {
    let checks = branches.iter().map(|ty| {
        quote::quote_spanned! {ty.span()=>
            const _: () = ::core::assert!(
                !#rt::__private::NodeRef::of::<#ty>().is_union(),
                "a union enum cannot be a branch of another union or of an `Option`: put all branches in one union enum (with a `Null(())` variant for null)"
            );
        }
    });
    quote!(#(#checks)*)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(input: TokenStream) -> Result<TokenStream, syn::Error> {
        derive(&syn::parse2(input).unwrap())
    }

    #[test]
    fn a_record_gets_the_three_impls_inside_one_const_block() {
        let tokens = expand(quote!(
            struct Point {
                x: i32,
                y: ::std::option::Option<Point2>,
            }
        ))
        .unwrap()
        .to_string();
        assert!(tokens.starts_with("const _ : () ="), "{tokens}");
        // The runtime's `schema!` gives the `AvroSchema` impl.
        for item in [
            "__private :: schema ! (Point ,",
            "AvroEncode for Point",
            "AvroDecode for Point",
        ] {
            assert!(tokens.contains(item), "no {item}: {tokens}");
        }
        assert!(tokens.contains("NodeRef :: of :: < Point2 >"), "{tokens}");
    }

    #[test]
    fn every_error_of_an_input_is_reported() {
        let error = expand(quote!(
            struct Bad<T> {
                a: u16,
                #[avro(order = "up")]
                b: i32,
                c: ::std::collections::HashMap<i32, i32>,
                t: T,
            }
        ))
        .unwrap_err();
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), 4, "{messages:#?}");
        assert!(messages[0].contains("generic"));
        assert!(messages[1].contains("`u16` has no Avro type"));
        assert!(messages[2].contains("`order`"));
        assert!(messages[3].contains("map keys"));
    }

    #[test]
    fn the_crate_attribute_replaces_every_runtime_path() {
        let tokens = expand(quote!(
            #[avro(crate = "::renamed::rt")]
            enum Choice {
                Number(i64),
                Point(Point),
            }
        ))
        .unwrap()
        .to_string();
        assert!(
            tokens.contains(":: renamed :: rt :: __private :: schema !"),
            "{tokens}"
        );
        // The codec names the runtime through one alias of its `__private` module.
        assert!(
            tokens.contains("use :: renamed :: rt :: __private as __avro"),
            "{tokens}"
        );
        assert!(!tokens.contains(":: avdl2rs"), "{tokens}");
    }

    #[test]
    fn a_union_gets_no_inherent_method() {
        let tokens = expand(quote!(
            enum Choice {
                Number(i64),
                Text(::std::string::String),
            }
        ))
        .unwrap()
        .to_string();
        assert!(!tokens.contains("impl Choice"), "{tokens}");
        // It cannot be held in an `Option` (that would be a union in a union), so it reads
        // its own index.
        assert!(tokens.contains("AvroDecode for Choice"), "{tokens}");
    }

    #[test]
    fn a_repeated_key_is_an_error_at_the_repetition() {
        let error = expand(quote!(
            struct Repeated {
                #[avro(order = "ascending", order = "descending")]
                a: i32,
                #[avro(default = 1)]
                #[avro(default_json = "2")]
                b: i32,
                #[avro(alias = "x", alias = "y")]
                c: i32,
            }
        ))
        .unwrap_err();
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(
            messages,
            [
                "duplicate avro attribute `order`",
                "`default_json` sets what `default` set already"
            ]
        );
    }

    #[test]
    fn doc_comments_become_docs_of_fixed_and_enum_types() {
        for input in [
            quote!(
                /// Sixteen bytes.
                struct Md5([u8; 16]);
            ),
            quote!(
                /// A colour.
                enum Colour {
                    Red,
                    #[avro(default)]
                    Green,
                }
            ),
        ] {
            let tokens = expand(input).unwrap().to_string();
            assert!(tokens.contains(r#""doc":""#), "{tokens}");
        }
    }
}
