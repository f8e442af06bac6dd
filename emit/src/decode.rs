//! The decode emitter: for each shape of the model, the expression that reads a value of it
//! from `reader`, and the bodies of `AvroDecode::decode` for records, enums, fixed and unions.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::context::{decimal_literals, null_branch, Cx, ErrorContext};
use crate::{Logical, RecordField, UnionVariant, Value};

/// The expression of type `Result<T, DecodeError>` that reads a value of shape `value`
/// from a `&mut Reader` named `reader`.
fn decode_value<N>(value: &Value<N>, cx: &Cx<'_, N>) -> TokenStream {
    match value {
        Value::Null => quote!(::core::result::Result::Ok(())),
        Value::Boolean => quote!(reader.read_boolean()),
        Value::Int => quote!(reader.read_int()),
        Value::Long => quote!(reader.read_long()),
        Value::Float => quote!(reader.read_float()),
        Value::Double => quote!(reader.read_double()),
        Value::Bytes => quote!(__avro::decode_bytes(reader)),
        Value::String => quote!(__avro::decode_string(reader)),
        Value::Array(item) => {
            let read = element_reader(item, cx);
            quote!(__avro::read_array(reader, #read))
        }
        Value::Map(value) => {
            let read = element_reader(value, cx);
            quote!(reader.read_map(#read))
        }
        Value::Optional { null_index, some } => {
            let null = null_branch(*null_index);
            let some = element_reader(some, cx);
            quote!(__avro::decode_optional(reader, #null, #some))
        }
        // The union enum is the field's type: the call needs no path of it.
        Value::OptionalUnion { null_index, .. } => {
            let null = null_branch(*null_index);
            quote!(__avro::decode_optional_union(reader, #null))
        }
        // Unnamed, the type is inferred from the field or variant the value goes to.
        Value::Named { ty, boxed } => {
            let decode = if cx.name_types {
                let ty = (cx.path)(ty);
                quote!(<#ty as __avro::AvroDecode>::decode(reader))
            } else {
                quote!(__avro::AvroDecode::decode(reader))
            };
            if *boxed {
                quote!(#decode.map(::std::boxed::Box::new))
            } else {
                decode
            }
        }
        Value::Logical(logical) => decode_logical(logical),
    }
}

/// What reads one array item, map value or optional's value: the decoding function itself
/// where a closure would only pass the reader on, else a closure `|reader| ...`.
fn element_reader<N>(value: &Value<N>, cx: &Cx<'_, N>) -> TokenStream {
    if let Value::Null = value {
        return quote!(|_| ::core::result::Result::Ok(()));
    }
    if let Some(function) = decoding_function(value, cx) {
        return function;
    }
    let read = decode_value(value, cx);
    quote!(|reader| #read)
}

/// The path of the function that decodes `value` from the reader alone, when there is one.
/// (The reader's own methods stay calls in a closure: their lifetime is the `Reader`'s, not
/// one of the call.)
fn decoding_function<N>(value: &Value<N>, cx: &Cx<'_, N>) -> Option<TokenStream> {
    match value {
        Value::Bytes => Some(quote!(__avro::decode_bytes)),
        Value::String => Some(quote!(__avro::decode_string)),
        Value::Named { ty, boxed: false } => Some(if cx.name_types {
            let ty = (cx.path)(ty);
            quote!(<#ty as __avro::AvroDecode>::decode)
        } else {
            quote!(__avro::AvroDecode::decode)
        }),
        Value::Logical(logical) => logical_decoder(logical).ok(),
        _ => None,
    }
}

/// The expression of type `Result<T, DecodeError>` that reads a logical type's value from a
/// `&mut Reader` named `reader`, through the runtime alias `__avro` (see
/// [`crate::type_impls`]).
fn decode_logical(logical: &Logical) -> TokenStream {
    match logical_decoder(logical) {
        Ok(function) => quote!(#function(reader)),
        Err(call) => call,
    }
}

/// The runtime function that decodes a logical type from the reader alone; for a decimal,
/// which also takes its precision and scale, the whole call as the error.
fn logical_decoder(logical: &Logical) -> Result<TokenStream, TokenStream> {
    let p = quote!(__avro);
    match logical {
        Logical::Time { time_crate, kind } => {
            let module = format_ident!("{}", time_crate.runtime_module());
            let function = format_ident!("decode_{}", kind.helper_suffix());
            Ok(quote!(#p::#module::#function))
        }
        Logical::UuidString => Ok(quote!(#p::decode_uuid_string)),
        Logical::UuidFixed => Ok(quote!(#p::decode_uuid_fixed)),
        Logical::Duration => Ok(quote!(#p::decode_duration)),
        Logical::DecimalBytes { precision, scale } => {
            let (precision, scale) = decimal_literals(*precision, *scale);
            Err(quote!(#p::decode_decimal_bytes(reader, #precision, #scale)))
        }
        Logical::DecimalFixed {
            size,
            precision,
            scale,
        } => {
            let size = Literal::usize_unsuffixed(*size);
            let (precision, scale) = decimal_literals(*precision, *scale);
            Err(quote!(#p::decode_decimal_fixed(reader, #size, #precision, #scale)))
        }
    }
}

/// The body of a record's `decode`, and whether it calls `field_error`.
pub(crate) fn record<N>(fields: &[RecordField<N>], cx: &Cx<'_, N>) -> (TokenStream, bool) {
    let inits = fields.iter().map(|field| {
        let ident = &field.ident;
        match &field.value {
            Value::Null => quote!(#ident: (),),
            value => {
                let decode = decode_value(value, cx);
                let at = ErrorContext::at(&field.avro_name);
                quote!(#ident: #decode.map_err(#at)?,)
            }
        }
    });
    let reader_unused = fields.iter().all(|f| matches!(f.value, Value::Null));
    let silence = reader_unused.then(|| quote!(let _ = reader;));
    let body = quote! {
        #silence
        ::core::result::Result::Ok(Self { #(#inits)* })
    };
    (body, !reader_unused)
}

/// The body of an enum's `decode`: a symbol for each index below the number of symbols, an
/// error for any other.
pub(crate) fn enumeration(variants: &[syn::Ident]) -> TokenStream {
    let count = Literal::usize_unsuffixed(variants.len());
    let error = quote!(__avro::enum_index_error(index, #count, at));
    if variants.is_empty() {
        // No index is below 0: the read always fails.
        return quote! {
            let at = reader.position();
            let index = reader.read_int()?;
            ::core::result::Result::Err(#error)
        };
    }
    let arms = variants.iter().enumerate().map(|(index, variant)| {
        let index = Literal::i32_unsuffixed(index as i32);
        quote!(#index => Self::#variant,)
    });
    quote! {
        let at = reader.position();
        let symbol = match reader.read_int()? {
            #(#arms)*
            index => return ::core::result::Result::Err(#error),
        };
        ::core::result::Result::Ok(symbol)
    }
}

/// The body of a fixed's `decode`: its bytes.
pub(crate) fn fixed(size: usize) -> TokenStream {
    let size = Literal::usize_unsuffixed(size);
    quote!(reader.read_fixed::<#size>().map(Self))
}

/// A `match` of the union branch `index`, read at byte `at`: each branch's value for its
/// index, an error for any other (the `null` branch's, which the caller reads, included).
pub(crate) fn union_branches<N>(
    variants: &[UnionVariant<N>],
    branches: usize,
    cx: &Cx<'_, N>,
) -> TokenStream {
    let arms = variants.iter().map(|variant| {
        let ident = &variant.ident;
        let index = Literal::i32_unsuffixed(variant.index as i32);
        let read = decode_value(&variant.value, cx);
        quote!(#index => #read.map(Self::#ident),)
    });
    let branches = Literal::usize_unsuffixed(branches);
    quote! {
        match index {
            #(#arms)*
            index => ::core::result::Result::Err(__avro::union_index_error(index, #branches, at)),
        }
    }
}
