//! The items of a one-of enum (planned by `one_of`): its definition, a newtype variant per
//! type and the optional catch-all, and its `OneOf` and `Resolvable` impls from the emitter,
//! which writes those of `#[derive(AvroOneOf)]` too.

use avdl2rs_emit::{one_of_impls, OneOfVariant};
use proc_macro2::TokenStream;
use quote::quote;

use crate::context::{ident, Context};
use crate::docs::doc_attrs;
use crate::modules::TypeItems;
use crate::one_of::OneOfDef;

/// The enum's definition and its `OneOf` impls.
pub(crate) fn items(cx: &Context<'_>, def: &OneOfDef) -> TypeItems {
    let rt = &cx.runtime;
    let name = ident(&def.ident);
    let docs = doc_attrs(Some(&def.doc));
    let typed: Vec<OneOfVariant<TokenStream>> = def
        .variants
        .iter()
        .map(|variant| OneOfVariant {
            ident: ident(&variant.ident),
            ty: cx.path_to(variant.ty, &def.module),
        })
        .collect();
    let variants = typed.iter().zip(&def.variants).map(|(v, planned)| {
        let doc = format!(" A message of `{}`.", planned.full_name);
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
        // The types are distinct named types of the schemas: their full names differ.
        check_names: false,
    };
    TypeItems {
        definition: Some((name.clone(), definition)),
        codec: Some(one_of_impls(&one_of, rt)),
        schema: None,
    }
}
