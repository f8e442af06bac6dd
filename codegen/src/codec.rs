//! A type's codec block: its `AvroEncode` and `AvroDecode` impls from the emitter (and
//! `apache_avro::AvroSchema` where the options ask for it), in a `const _` block of their own.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::{ident, Context};
use crate::space::{DefKind, TypeDef, TypeId};
use avdl2rs_emit as emit;

/// The codec block of `def`.
pub(crate) fn codec_block(cx: &Context<'_>, def: &TypeDef) -> TokenStream {
    let codec = emit::TypeCodec {
        ident: ident(&def.ident),
        shape: shape(def),
        full_name: def.named().map(|named| named.name.full_name()),
        nested: def.recursive,
        name_field_types: false,
    };
    let path = |id: &TypeId| cx.path_to(*id, &def.module);
    let impls = emit::type_impls(&codec, &cx.runtime, &path);
    let apache = apache_avro_impl(cx, def);
    emit::wrap_in_const(quote!(#impls #apache))
}

/// The emitter's shape of `def`.
fn shape(def: &TypeDef) -> emit::Shape<TypeId> {
    match &def.kind {
        DefKind::Record { fields, .. } => emit::Shape::Record(
            fields
                .iter()
                .map(|f| emit::RecordField {
                    ident: ident(&f.ident),
                    avro_name: f.avro_name.clone(),
                    value: f.ty.clone(),
                })
                .collect(),
        ),
        DefKind::Enum { symbols, .. } => {
            emit::Shape::Enum(symbols.iter().map(|(_, rust)| ident(rust)).collect())
        }
        DefKind::Fixed { size, .. } => emit::Shape::Fixed(*size),
        DefKind::Union {
            variants,
            branches,
            null_index,
            ..
        } => emit::Shape::Union {
            variants: variants
                .iter()
                .map(|v| emit::UnionVariant {
                    ident: ident(&v.ident),
                    index: v.index,
                    value: v.ty.clone(),
                })
                .collect(),
            branches: *branches,
            null_index: *null_index,
        },
    }
}

/// `apache_avro::AvroSchema` for a named type, through the runtime's re-export, when the
/// options ask for it.
fn apache_avro_impl(cx: &Context<'_>, def: &TypeDef) -> Option<TokenStream> {
    if !cx.options.apache_avro_schema || def.named().is_none() {
        return None;
    }
    let rt = &cx.runtime;
    let name = ident(&def.ident);
    let avro = quote!(#rt::__private::apache_avro);
    Some(quote! {
        #[automatically_derived]
        impl #avro::AvroSchema for #name {
            fn get_schema() -> #avro::Schema {
                #avro::Schema::parse_str(<Self as #rt::AvroSchema>::SCHEMA_JSON)
                    .expect("the schema was validated when the code was generated")
            }
        }
    })
}
