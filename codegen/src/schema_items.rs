//! Each type's schema item: a call of the runtime's `schema!` with the type's node, which
//! gives a named type its `AvroSchema` impl and every named type and union enum the node
//! through which the types holding it assemble their schemas. In place of a type taken from
//! other generated code, a check that it has the schema it stands for.

use proc_macro2::TokenStream;
use quote::quote;

use crate::context::{ident, Context};
use crate::nodes::node_texts;
use crate::space::{DefKind, TypeDef};
use crate::Error;
use avdl2rs_emit::node::Nested;
use avdl2rs_emit::{self as emit, ItemKind, Measured};

/// The most named types a schema may define for the compiler to compute the lengths of its
/// texts from the nodes. That walks the whole schema in every build, which for each record
/// of a chain is the chain below it: beyond a few named types the item is given the lengths
/// (and fingerprint) the generator measured, whose walk over all types is linear.
const COMPUTED_NAMED_TYPES: usize = 64;

/// The longest text whose fingerprint the compiler computes, byte by byte, when it is read;
/// a longer one's is given.
const COMPUTED_TEXT_BYTES: usize = 64 * 1024;

/// The schema item of `def`: of every named type, and of the union enums without a `null`
/// branch (with one, the enum is held in an `Option` and has no codec of its own to hold it
/// by).
pub(crate) fn schema_item(cx: &Context<'_>, def: &TypeDef) -> Result<Option<TokenStream>, Error> {
    let invalid = |message: String| Error::Unsupported {
        message: format!("the schema node of {}: {message}", def.ident),
    };
    let union_node;
    let (texts, used, kind) = match (&def.kind, def.named()) {
        (_, Some(named)) => {
            let full_name = named.name.full_name();
            let node = cx.type_node(&full_name)?;
            let kind = ItemKind::Named(measured(cx, &full_name)?);
            (&node.texts, &node.nested, kind)
        }
        (
            DefKind::Union {
                null_index: None,
                schema,
                ..
            },
            None,
        ) => {
            union_node = node_texts(cx.set.to_json_by_name(schema), None).map_err(invalid)?;
            let kind = ItemKind::Union { avro_schema: false };
            (&union_node.0, &union_node.1, kind)
        }
        _ => return Ok(None),
    };
    let nested: Vec<Nested> = used
        .iter()
        .map(|name| match cx.named_type(name) {
            Some(id) => Ok(Nested::Type(cx.path_to(id, &def.module))),
            // A fixed under a logical type has no Rust type of its own.
            None => cx
                .set
                .named_to_json(name)
                .map(Nested::Fixed)
                .ok_or_else(|| invalid(format!("{name} is not registered"))),
        })
        .collect::<Result<_, _>>()?;
    emit::schema_item(&cx.runtime, &ident(&def.ident), kind, texts, &nested)
        .map(Some)
        .map_err(invalid)
}

/// The figures given to the schema item of `full_name`: none for a schema small enough for
/// the compiler to compute them (see [`COMPUTED_NAMED_TYPES`]), and none where the schema
/// holds a type taken from other generated code, whose node may give that type other docs
/// or defaults than the schema here (the compiler then computes the lengths of the texts the
/// nodes assemble).
fn measured(cx: &Context<'_>, full_name: &str) -> Result<Option<Measured>, Error> {
    if cx.reaches_extern(full_name) {
        return Ok(None);
    }
    let measure = cx.measure(full_name)?;
    let longest = measure.json_len.max(measure.canonical_len);
    let small = measure.named_types <= COMPUTED_NAMED_TYPES && longest <= COMPUTED_TEXT_BYTES;
    Ok((!small).then_some(Measured {
        json_len: measure.json_len,
        canonical_len: measure.canonical_len,
        fingerprint: measure.fingerprint,
    }))
}

/// In place of a type taken from elsewhere: a compile-time check that it has the
/// fingerprint of the schema it stands for.
pub(crate) fn extern_check(
    cx: &Context<'_>,
    def: &TypeDef,
    path: &TokenStream,
) -> Result<TokenStream, Error> {
    let rt = &cx.runtime;
    let full_name = def
        .named()
        .expect("extern types are named")
        .name
        .full_name();
    let fingerprint = proc_macro2::Literal::u64_suffixed(cx.measure(&full_name)?.fingerprint);
    let message = format!("the extern type for {full_name} has another schema");
    Ok(quote! {
        const _: () = ::core::assert!(<#path as #rt::AvroSchema>::FINGERPRINT == #fingerprint, #message);
    })
}
