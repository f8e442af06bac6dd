//! The expansion of `#[derive(AvroOneOf)]`: an enum of one-field tuple variants, each holding
//! a type with a schema, becomes the runtime's `OneOf` (and `Resolvable`, so a registry
//! deserializer reads it as it reads a single type). The variants' full names are the types'
//! own, known only where the types are: that no two are the same is checked by a constant
//! the compiler evaluates.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::errors::Errors;

/// A variant holding a type with a schema.
struct Typed<'a> {
    ident: &'a syn::Ident,
    ty: &'a syn::Type,
}

/// The variants of the enum: the typed ones in order, and the catch-all's name.
struct Variants<'a> {
    typed: Vec<Typed<'a>>,
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
    Ok(impls(&input.ident, &variants, &rt))
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
            found.typed.push(Typed {
                ident: &variant.ident,
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

/// The `OneOf` and `Resolvable` impls and the check of distinct full names, in one `const`.
fn impls(ident: &syn::Ident, variants: &Variants<'_>, rt: &syn::Path) -> TokenStream {
    let names = variants.typed.iter().map(|v| {
        let ty = v.ty;
        quote!(<#ty as #rt::AvroSchema>::FULL_NAME)
    });
    let visit_types = variants.typed.iter().enumerate().map(|(index, v)| {
        let (variant, ty) = (v.ident, v.ty);
        quote!(#index => ::core::option::Option::Some(visitor.visit::<#ty>(#ident::#variant)))
    });
    let visit_values = variants.typed.iter().map(|v| {
        let variant = v.ident;
        quote!(#ident::#variant(value) => ::core::option::Option::Some(visitor.visit(value)))
    });
    let indices = variants.typed.iter().enumerate().map(|(index, v)| {
        let variant = v.ident;
        quote!(#ident::#variant(_) => ::core::option::Option::Some(#index))
    });
    let catch_all = variants.other.is_some();
    let (other_arm, other_value) = match variants.other {
        Some(other) => (
            quote!(#ident::#other(_) => ::core::option::Option::None,),
            quote!(::core::option::Option::Some(#ident::#other(record))),
        ),
        None => (
            quote!(),
            quote!({
                let _ = record;
                ::core::option::Option::None
            }),
        ),
    };
    let distinct = distinct_names(ident, &variants.typed, rt);
    quote! {
        const _: () = {
            #distinct

            #[automatically_derived]
            impl #rt::OneOf for #ident {
                const VARIANTS: &'static [&'static str] = &[#(#names),*];
                const CATCH_ALL: bool = #catch_all;

                fn visit_variant<V: #rt::one_of::VisitVariant<Self>>(
                    index: usize,
                    visitor: V,
                ) -> ::core::option::Option<V::Output> {
                    match index {
                        #(#visit_types,)*
                        _ => ::core::option::Option::None,
                    }
                }

                fn visit_value<V: #rt::one_of::VisitValue>(
                    &self,
                    visitor: V,
                ) -> ::core::option::Option<V::Output> {
                    match self {
                        #(#visit_values,)*
                        #other_arm
                    }
                }

                fn variant(&self) -> ::core::option::Option<usize> {
                    match self {
                        #(#indices,)*
                        #other_arm
                    }
                }

                fn other(record: #rt::generic::GenericRecord) -> ::core::option::Option<Self> {
                    #other_value
                }
            }

            #[automatically_derived]
            impl #rt::resolve::Resolvable for #ident {
                #[inline]
                fn decode_written<L: #rt::resolve::SchemaLookup>(
                    consumer: &#rt::resolve::Consumer<L>,
                    id: i32,
                    body: &[u8],
                ) -> ::core::result::Result<Self, #rt::resolve::ResolveError> {
                    consumer.decode_one_of::<Self>(id, body)
                }

                fn reads_unchanged(writer: &str) -> bool {
                    <Self as #rt::OneOf>::has_variant_schema(writer)
                }
            }
        };
    }
}

/// A constant for each pair of variants that fails to compile when both types have one full
/// name: a reader could not tell their messages apart.
fn distinct_names(ident: &syn::Ident, typed: &[Typed<'_>], rt: &syn::Path) -> TokenStream {
    let mut checks = TokenStream::new();
    for (i, first) in typed.iter().enumerate() {
        for second in &typed[i + 1..] {
            let (a, b) = (first.ty, second.ty);
            let message = format!(
                "variants `{}` and `{}` of `{ident}` hold types of one full name: a reader could not tell their messages apart",
                first.ident, second.ident
            );
            checks.extend(quote_spanned! {second.ty.span()=>
                const _: () = ::core::assert!(
                    !#rt::__private::str_eq(
                        <#a as #rt::AvroSchema>::FULL_NAME,
                        <#b as #rt::AvroSchema>::FULL_NAME,
                    ),
                    #message
                );
            });
        }
    }
    checks
}
