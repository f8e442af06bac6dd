//! The Rust type of each member of the type space, as written in a given module.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::Context;
use crate::space::TypeRef;
use avdl2rs_emit::Logical;

/// The Rust type of `ty` as written in module `from`.
pub(crate) fn rust_type(cx: &Context<'_>, ty: &TypeRef, from: &[String]) -> TokenStream {
    let short = cx.prelude_in_scope(from);
    let vec = prelude(short, quote!(Vec), quote!(::std::vec::Vec));
    let string = prelude(short, quote!(String), quote!(::std::string::String));
    let option = prelude(short, quote!(Option), quote!(::core::option::Option));
    match ty {
        TypeRef::Null => quote!(()),
        TypeRef::Boolean => quote!(bool),
        TypeRef::Int => quote!(i32),
        TypeRef::Long => quote!(i64),
        TypeRef::Float => quote!(f32),
        TypeRef::Double => quote!(f64),
        TypeRef::Bytes => quote!(#vec<u8>),
        TypeRef::String => string,
        TypeRef::Array(item) => {
            let item = rust_type(cx, item, from);
            quote!(#vec<#item>)
        }
        TypeRef::Map(value) => {
            let value = rust_type(cx, value, from);
            let map = cx.map_path();
            quote!(#map<#string, #value>)
        }
        TypeRef::Optional { some, .. } => {
            let some = rust_type(cx, some, from);
            quote!(#option<#some>)
        }
        TypeRef::OptionalUnion { ty: id, .. } => {
            let path = cx.path_to(*id, from);
            quote!(#option<#path>)
        }
        TypeRef::Named { ty: id, boxed } => {
            let path = cx.path_to(*id, from);
            if *boxed {
                let boxed = prelude(short, quote!(Box), quote!(::std::boxed::Box));
                quote!(#boxed<#path>)
            } else {
                path
            }
        }
        TypeRef::Logical(logical) => logical_type(logical, &cx.runtime),
    }
}

/// `short` where the prelude is in scope, else `full`.
fn prelude(short: bool, name: TokenStream, full: TokenStream) -> TokenStream {
    if short {
        name
    } else {
        full
    }
}

/// The Rust type of a logical type, from the time crate the options chose or the runtime.
fn logical_type(logical: &Logical, rt: &syn::Path) -> TokenStream {
    match logical {
        Logical::Time { time_crate, kind } => time_crate.rust_type(*kind, rt),
        Logical::UuidString | Logical::UuidFixed => quote!(#rt::uuid::Uuid),
        Logical::DecimalBytes { .. } | Logical::DecimalFixed { .. } => {
            quote!(#rt::logical::Decimal)
        }
        Logical::Duration => quote!(#rt::logical::Duration),
    }
}
