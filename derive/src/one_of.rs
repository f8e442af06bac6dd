//! The parsing of `#[derive(AvroOneOf)]`: an enum of one-field tuple variants, each holding
//! a type with a schema, becomes the runtime's `OneOf` (and `Resolvable`, so a registry
//! deserializer reads it as it reads a single type). Here the enum and its attributes are
//! read and checked; the impls come from `avdl2rs_emit::one_of_impls`, which writes the
//! generator's one-of enums too.

use avdl2rs_emit::{one_of_impls, OneOfEnum, OneOfVariant};
use proc_macro2::TokenStream;

use crate::errors::Errors;

/// The variants of the enum: the typed ones in order, and the catch-all's name.
struct Variants<'a> {
    typed: Vec<OneOfVariant<&'a syn::Type>>,
    other: Option<&'a syn::Ident>,
}

/// Expands `#[derive(AvroOneOf)]` on `input`: every error at once, or the impls.
pub(crate) fn derive(input: &syn::DeriveInput) -> Result<TokenStream, syn::Error> {
    let mut errors = Errors::default();
    if !input.generics.params.is_empty() {
        errors.at(
            &input.generics,
            "`AvroOneOf` cannot be derived for a generic type",
        );
    }
    let rt = runtime_path(&input.attrs, &mut errors);
    let variants = match &input.data {
        syn::Data::Enum(data) => variants(data, &mut errors),
        _ => {
            errors.at(
                &input.ident,
                "`AvroOneOf` is derived for an enum of one-field tuple variants, one per type",
            );
            None
        }
    };
    errors.finish()?;
    let variants = variants.ok_or_else(|| syn::Error::new_spanned(&input.ident, "no variants"))?;
    let one_of = OneOfEnum {
        ident: &input.ident,
        typed: &variants.typed,
        other: variants.other,
        check_names: true,
    };
    Ok(one_of_impls(&one_of, &rt))
}

/// The runtime crate's path: `#[avro(crate = "..")]`, else `::avdl2rs`.
fn runtime_path(attrs: &[syn::Attribute], errors: &mut Errors) -> syn::Path {
    let mut path = syn::parse_quote!(::avdl2rs);
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("avro")) {
        let parsed = attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident("crate") {
                return Err(meta.error("`AvroOneOf` takes only `crate = \"..\"` on the enum"));
            }
            let text: syn::LitStr = meta.value()?.parse()?;
            path = text.parse()?;
            Ok(())
        });
        if let Err(e) = parsed {
            errors.push(e);
        }
    }
    path
}

/// Whether a variant is marked `#[avro(other)]`, the catch-all.
fn is_other(variant: &syn::Variant, errors: &mut Errors) -> bool {
    let mut other = false;
    for attr in variant
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("avro"))
    {
        let parsed = attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident("other") {
                return Err(meta.error("a variant of `AvroOneOf` takes only `other`"));
            }
            other = true;
            Ok(())
        });
        if let Err(e) = parsed {
            errors.push(e);
        }
    }
    other
}

/// The variants, each checked to hold one value; `None` after reporting why not.
fn variants<'a>(data: &'a syn::DataEnum, errors: &mut Errors) -> Option<Variants<'a>> {
    let mut found = Variants {
        typed: Vec::new(),
        other: None,
    };
    for variant in &data.variants {
        let ty = match &variant.fields {
            syn::Fields::Unnamed(fields) if fields.unnamed.len() == 1 => &fields.unnamed[0].ty,
            _ => {
                errors.at(
                    variant,
                    "each variant of `AvroOneOf` holds one value, of a type with a schema: `Created(OrderCreated)`",
                );
                continue;
            }
        };
        if !is_other(variant, errors) {
            found.typed.push(OneOfVariant {
                ident: variant.ident.clone(),
                ty,
            });
        } else if found.other.is_some() {
            errors.at(
                variant,
                "only one variant can be the catch-all `#[avro(other)]`",
            );
        } else {
            found.other = Some(&variant.ident);
        }
    }
    if found.typed.is_empty() {
        errors.at(
            data.enum_token,
            "`AvroOneOf` needs at least one variant holding a type",
        );
        return None;
    }
    Some(found)
}
