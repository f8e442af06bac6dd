//! # avdl2rs-derive
//!
//! The `Avro` derive macro, re-exported by the `avdl2rs` runtime crate.

use proc_macro::TokenStream;

/// Derives the Avro schema and binary codec traits of the `avdl2rs` runtime.
#[proc_macro_derive(Avro, attributes(avro))]
pub fn derive_avro(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    syn::Error::new_spanned(&input.ident, "the Avro derive is not available yet")
        .to_compile_error()
        .into()
}
