//! One type's `AvroEncode` and `AvroDecode` impls (and a union's `DecodeBranch`), from the
//! bodies the encode and decode emitters write for its shape.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::{Cx, ErrorContext};
use crate::{decode, encode, Shape, TypeCodec};

/// Emits the `AvroEncode` and `AvroDecode` impls of one type, after
/// `use <runtime>::__private as __avro;`: the emitted code names the runtime through that one
/// alias rather than the runtime's path in every call. Names from schemas never start with
/// `_` (see `avdl2rs-codegen`'s naming), so the alias cannot shadow or be shadowed by a
/// generated type or module. `runtime` is the path of the runtime crate, e.g. `::avdl2rs`;
/// `path` writes the path of a type the shape refers to ([`crate::Value::Named`],
/// [`crate::Value::OptionalUnion`]) as seen from where the impls go. The impls belong in a
/// block of their own ([`wrap_in_const`]), which scopes the alias.
pub fn type_impls<N>(
    codec: &TypeCodec<N>,
    runtime: &syn::Path,
    path: &dyn Fn(&N) -> TokenStream,
) -> TokenStream {
    let cx = &Cx {
        path,
        name_types: codec.name_field_types,
    };
    let ident = &codec.ident;
    let alias = quote!(use #runtime::__private as __avro;);
    let impls = match &codec.shape {
        Shape::Record(fields) => {
            let (encode, encode_context) = encode::record(fields, cx);
            let (decode, decode_context) = decode::record(fields, cx);
            let context = (encode_context || decode_context).then(|| {
                ErrorContext {
                    full_name: codec.full_name.as_deref(),
                }
                .define()
            });
            let decode = in_nesting_level(decode, codec.nested);
            let (encode, decode) = (encode_impl(ident, &encode), decode_impl(ident, &decode));
            quote!(#context #encode #decode)
        }
        Shape::Enum(variants) => {
            let encode = encode_impl(ident, &encode::enumeration(variants));
            let decode = decode_impl(ident, &decode::enumeration(variants));
            quote!(#encode #decode)
        }
        Shape::Fixed(size) => {
            let encode = encode_impl(ident, &encode::fixed());
            let decode = decode_impl(ident, &decode::fixed(*size));
            quote!(#encode #decode)
        }
        Shape::Union {
            variants,
            branches,
            null_index,
        } => {
            let encode = encode_impl(ident, &encode::union(variants, cx));
            let branches = in_nesting_level(
                decode::union_branches(variants, *branches, cx),
                codec.nested,
            );
            let decode = match null_index {
                // An `Option` of the enum reads the index and the `null` branch.
                Some(_) => decode_branch_impl(ident, &branches),
                None => decode_impl(
                    ident,
                    &quote! {
                        let at = reader.position();
                        let index = reader.read_int()?;
                        #branches
                    },
                ),
            };
            quote!(#encode #decode)
        }
    };
    quote!(#alias #impls)
}

fn encode_impl(ident: &syn::Ident, body: &TokenStream) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl __avro::AvroEncode for #ident {
            #[inline]
            fn encode(&self, out: &mut ::std::vec::Vec<u8>) -> ::core::result::Result<(), __avro::EncodeError> {
                #body
            }
        }
    }
}

fn decode_impl(ident: &syn::Ident, body: &TokenStream) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl __avro::AvroDecode for #ident {
            #[inline]
            fn decode(reader: &mut __avro::codec::Reader<'_>) -> ::core::result::Result<Self, __avro::DecodeError> {
                #body
            }
        }
    }
}

fn decode_branch_impl(ident: &syn::Ident, body: &TokenStream) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl __avro::DecodeBranch for #ident {
            fn decode_branch(
                index: i32,
                at: usize,
                reader: &mut __avro::codec::Reader<'_>,
            ) -> ::core::result::Result<Self, __avro::DecodeError> {
                #body
            }
        }
    }
}

/// `items` inside `const _: () = { ... };`, the usual scope for generated impls (it keeps
/// helper items and imports out of the surrounding module).
pub fn wrap_in_const(items: TokenStream) -> TokenStream {
    quote! { const _: () = { #items }; }
}

/// `body` run one nesting level deeper when `nested`, so that a recursive type stops at the
/// reader's depth and stack limits.
fn in_nesting_level(body: TokenStream, nested: bool) -> TokenStream {
    if nested {
        quote!(reader.nested(|reader| { #body }))
    } else {
        body
    }
}
