//! The encode emitter: for each shape of the model, the expression that writes a value of it
//! to `out`, and the bodies of `AvroEncode::encode` for records, enums, fixed and unions.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::context::{decimal_literals, null_branch, Cx, ErrorContext};
use crate::{Logical, RecordField, UnionVariant, Value};

/// A Rust place holding a value to encode: either an expression of type `T` (a place such as
/// `self.id`) or of type `&T` (a closure parameter or match binding).
struct Place {
    tokens: TokenStream,
    is_ref: bool,
}

impl Place {
    /// A field of `self`.
    fn field(ident: &syn::Ident) -> Self {
        Place {
            tokens: quote!(self.#ident),
            is_ref: false,
        }
    }

    /// A reference named `name`.
    fn by_ref(name: TokenStream) -> Self {
        Place {
            tokens: name,
            is_ref: true,
        }
    }

    /// An expression of type `&T`.
    fn as_ref(&self) -> TokenStream {
        let t = &self.tokens;
        if self.is_ref {
            quote!(#t)
        } else {
            quote!(&#t)
        }
    }

    /// An expression of type `T`, for `Copy` values.
    fn as_copy(&self) -> TokenStream {
        let t = &self.tokens;
        if self.is_ref {
            quote!(*#t)
        } else {
            quote!(#t)
        }
    }
}

/// An encode expression: of type `()` when it cannot fail, else `Result<(), EncodeError>`.
pub(crate) struct Encode {
    tokens: TokenStream,
    fallible: bool,
}

impl Encode {
    fn infallible(tokens: TokenStream) -> Self {
        Encode {
            tokens,
            fallible: false,
        }
    }

    fn fallible(tokens: TokenStream) -> Self {
        Encode {
            tokens,
            fallible: true,
        }
    }

    /// The expression as a statement: a fallible one returns its error, with `on_error`
    /// applied to it when given.
    fn statement(&self, on_error: Option<TokenStream>) -> TokenStream {
        let t = &self.tokens;
        match (self.fallible, on_error) {
            (false, _) => quote!(#t;),
            (true, None) => quote!(#t?;),
            (true, Some(map)) => quote!(#t.map_err(#map)?;),
        }
    }
}

/// The expression that writes the value at `place` (Avro shape `value`) to `out`.
fn encode_value<N>(value: &Value<N>, place: &Place, cx: &Cx<'_, N>) -> Encode {
    match value {
        Value::Null => Encode::infallible(quote!(())),
        Value::Boolean => primitive_write("write_boolean", place.as_copy()),
        Value::Int => primitive_write("write_int", place.as_copy()),
        Value::Long => primitive_write("write_long", place.as_copy()),
        Value::Float => primitive_write("write_float", place.as_copy()),
        Value::Double => primitive_write("write_double", place.as_copy()),
        Value::Bytes => primitive_write("write_bytes", place.as_ref()),
        Value::String => primitive_write("write_string", place.as_ref()),
        Value::Array(item) => {
            let items = place.as_ref();
            let (write, fallible) = element_writer(item, quote!(item), cx);
            let call = quote!(__avro::write_array(out, #items, #write));
            Encode {
                tokens: call,
                fallible,
            }
        }
        Value::Map(value) => {
            let map = place.as_ref();
            let (write, _) = element_writer(value, quote!(value), cx);
            Encode::fallible(quote!(__avro::write_map(out, #map, #write)))
        }
        Value::Optional { null_index, some } => {
            let null = null_branch(*null_index);
            let option = &place.tokens;
            let (write, fallible) = element_writer(some, quote!(value), cx);
            let call = quote!(__avro::write_optional(out, #option.as_ref(), #null, #write));
            Encode {
                tokens: call,
                fallible,
            }
        }
        Value::OptionalUnion { null_index, .. } => {
            let null = null_branch(*null_index);
            let option = &place.tokens;
            Encode::fallible(quote!(__avro::encode_optional_union(out, #option.as_ref(), #null)))
        }
        // Unnamed, the type is inferred from the value (a `Box` needs the type to deref to).
        Value::Named { ty, boxed } => {
            let v = place.as_ref();
            if *boxed || cx.name_types {
                let ty = (cx.path)(ty);
                Encode::fallible(quote!(<#ty as __avro::AvroEncode>::encode(#v, out)))
            } else {
                Encode::fallible(quote!(__avro::AvroEncode::encode(#v, out)))
            }
        }
        Value::Logical(logical) => encode_logical(logical, place),
    }
}

/// The closure `|out, element| ...` that writes one array item, map value or `Option`'s
/// value, and whether it can fail.
fn element_writer<N>(
    value: &Value<N>,
    element: TokenStream,
    cx: &Cx<'_, N>,
) -> (TokenStream, bool) {
    if let Value::Null = value {
        return (quote!(|_, _| ()), false);
    }
    let write = encode_value(value, &Place::by_ref(element.clone()), cx);
    let body = &write.tokens;
    (quote!(|out, #element| #body), write.fallible)
}

fn primitive_write(function: &str, arg: TokenStream) -> Encode {
    let function = format_ident!("{function}");
    Encode::infallible(quote!(__avro::codec::#function(out, #arg)))
}

fn encode_logical(logical: &Logical, place: &Place) -> Encode {
    let v = place.as_ref();
    let p = quote!(__avro);
    Encode::fallible(match logical {
        Logical::Time { time_crate, kind } => {
            let module = format_ident!("{}", time_crate.runtime_module());
            let function = format_ident!("encode_{}", kind.helper_suffix());
            quote!(#p::#module::#function(#v, out))
        }
        Logical::UuidString => quote!(#p::encode_uuid_string(#v, out)),
        Logical::UuidFixed => quote!(#p::encode_uuid_fixed(#v, out)),
        Logical::DecimalBytes { precision, scale } => {
            let (precision, scale) = decimal_literals(*precision, *scale);
            quote!(#p::encode_decimal_bytes(#v, #precision, #scale, out))
        }
        Logical::DecimalFixed {
            size,
            precision,
            scale,
        } => {
            let size = Literal::usize_unsuffixed(*size);
            let (precision, scale) = decimal_literals(*precision, *scale);
            quote!(#p::encode_decimal_fixed(#v, #size, #precision, #scale, out))
        }
        Logical::Duration => quote!(#p::encode_duration(#v, out)),
    })
}

/// The body of a record's `encode`, and whether it calls `field_error`.
pub(crate) fn record<N>(fields: &[RecordField<N>], cx: &Cx<'_, N>) -> (TokenStream, bool) {
    let mut uses_context = false;
    let statements: Vec<TokenStream> = fields
        .iter()
        .filter(|field| !matches!(field.value, Value::Null))
        .map(|field| {
            let write = encode_value(&field.value, &Place::field(&field.ident), cx);
            uses_context |= write.fallible;
            write.statement(Some(ErrorContext::at(&field.avro_name)))
        })
        .collect();
    let silence = statements.is_empty().then(|| quote!(let _ = out;));
    let body = quote! {
        #silence
        #(#statements)*
        ::core::result::Result::Ok(())
    };
    (body, uses_context)
}

/// The body of an enum's `encode`: the symbol's index.
pub(crate) fn enumeration(variants: &[syn::Ident]) -> TokenStream {
    if variants.is_empty() {
        // An enum without symbols (the specification allows one) has no value to write.
        return quote! {
            let _ = out;
            match *self {}
        };
    }
    let arms = variants.iter().enumerate().map(|(index, variant)| {
        let index = Literal::i32_unsuffixed(index as i32);
        quote!(Self::#variant => #index,)
    });
    quote! {
        let index = match self { #(#arms)* };
        __avro::codec::write_int(out, index);
        ::core::result::Result::Ok(())
    }
}

/// The body of a fixed's `encode`: its bytes.
pub(crate) fn fixed() -> TokenStream {
    quote! {
        __avro::codec::write_fixed(out, &self.0);
        ::core::result::Result::Ok(())
    }
}

/// The body of a union enum's `encode`: the branch index, then the branch's value.
pub(crate) fn union<N>(variants: &[UnionVariant<N>], cx: &Cx<'_, N>) -> TokenStream {
    let arms = variants.iter().map(|variant| {
        let ident = &variant.ident;
        let index = Literal::i64_unsuffixed(variant.index as i64);
        let write = match variant.value {
            Value::Null => None,
            _ => {
                let write = encode_value(&variant.value, &Place::by_ref(quote!(value)), cx);
                Some(write.statement(None))
            }
        };
        let binding = write.is_some().then(|| quote!(value)).unwrap_or(quote!(_));
        quote! {
            Self::#ident(#binding) => {
                __avro::codec::write_long(out, #index);
                #write
            }
        }
    });
    quote! {
        match self { #(#arms)* }
        ::core::result::Result::Ok(())
    }
}
