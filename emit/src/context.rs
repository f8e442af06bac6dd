//! What the encode and decode emitters share, below both of them and below the impls that
//! join them: the emitters' context, a record's error-path step, a decimal's literals and the
//! name of a union's null branch.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

/// What the emitters need besides the model: for each type `N` names, its path as written
/// where the impls go, and whether to write it in calls (see [`crate::TypeCodec::name_field_types`]).
pub(crate) struct Cx<'a, N> {
    pub path: &'a dyn Fn(&N) -> TokenStream,
    pub name_types: bool,
}

/// The error-path step a record adds around a failing field: the field, then the record's
/// full name (which the runtime shows only when no enclosing field follows). A record's
/// codec defines it once, as the local function `field_error` of the field name generic
/// over both error types, so each field costs one call rather than its own closure
/// repeating the type name, and encode and decode share it.
pub(crate) struct ErrorContext<'a> {
    pub(crate) full_name: Option<&'a str>,
}

impl ErrorContext<'_> {
    /// The `fn field_error` item.
    pub(crate) fn define(&self) -> TokenStream {
        let in_type = self.full_name.map(|name| quote!(.in_type(#name)));
        quote! {
            fn field_error<E: __avro::ErrorPath>(field: &'static str) -> impl ::core::ops::FnOnce(E) -> E {
                move |e| e.in_field(field) #in_type
            }
        }
    }

    /// The `map_err` argument for field `name`.
    pub(crate) fn at(name: &str) -> TokenStream {
        quote!(field_error(#name))
    }
}

/// A decimal's precision and scale as literals.
pub(crate) fn decimal_literals(precision: u32, scale: u32) -> (Literal, Literal) {
    (
        Literal::u32_unsuffixed(precision),
        Literal::u32_unsuffixed(scale),
    )
}

/// `__avro::NullBranch(i)`: the index of a union's `null` branch, named.
pub(crate) fn null_branch(index: usize) -> TokenStream {
    let index = Literal::usize_unsuffixed(index);
    quote!(__avro::NullBranch(#index))
}
