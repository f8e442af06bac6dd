//! The emitters' output for each Avro shape, compared without whitespace so that a test reads
//! like the generated code it expects.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::{Logical, RecordField, Shape, TimeCrate, TimeKind, TypeCodec, UnionVariant, Value};

/// The impls of a type of `shape`, with named types written as their names.
fn impls(ident: &str, shape: Shape<&'static str>, nested: bool) -> String {
    let codec = TypeCodec {
        ident: format_ident!("{ident}"),
        shape,
        full_name: Some(ident.to_owned()),
        nested,
        name_field_types: false,
    };
    let path = |name: &&'static str| -> TokenStream {
        let ident = format_ident!("{name}");
        quote!(#ident)
    };
    compact(&crate::type_impls(&codec, &syn::parse_quote!(::avdl2rs), &path).to_string())
}

fn compact(code: &str) -> String {
    code.split_whitespace().collect()
}

/// A record of one field `f` of shape `value`.
fn field(value: Value<&'static str>) -> String {
    let field = RecordField {
        ident: format_ident!("f"),
        avro_name: "f".to_owned(),
        value,
    };
    impls("R", Shape::Record(vec![field]), false)
}

fn has(code: &str, expected: &str) {
    let expected = compact(expected);
    assert!(code.contains(&expected), "{expected}\nnot in\n{code}");
}

#[test]
fn primitives_call_the_codec_directly() {
    let code = field(Value::Long);
    has(&code, "__avro::codec::write_long(out, self.f);");
    has(&code, "f: reader.read_long().map_err(field_error(\"f\"))?,");
    let code = field(Value::String);
    has(&code, "__avro::codec::write_string(out, &self.f);");
    has(
        &code,
        "f: __avro::decode_string(reader).map_err(field_error(\"f\"))?,",
    );
    // `null` has nothing to write or read.
    let code = field(Value::Null);
    has(&code, "let _ = out;");
    has(&code, "f: (),");
}

#[test]
fn a_record_writes_its_fields_in_order_and_names_them_in_errors() {
    let fields = ["a", "b"]
        .map(|name| RecordField {
            ident: format_ident!("{name}"),
            avro_name: name.to_owned(),
            value: Value::Named {
                ty: "T",
                boxed: false,
            },
        })
        .to_vec();
    let code = impls("R", Shape::Record(fields), false);
    has(&code, "move |e| e.in_field(field).in_type(\"R\")");
    has(
        &code,
        "__avro::AvroEncode::encode(&self.a, out).map_err(field_error(\"a\"))?;
         __avro::AvroEncode::encode(&self.b, out).map_err(field_error(\"b\"))?;",
    );
    has(
        &code,
        "a: __avro::AvroDecode::decode(reader).map_err(field_error(\"a\"))?,",
    );
}

#[test]
fn an_enum_reads_each_index_and_refuses_the_rest() {
    let code = impls(
        "E",
        Shape::Enum(vec![format_ident!("A"), format_ident!("B")]),
        false,
    );
    has(
        &code,
        "let index = match self { Self::A => 0, Self::B => 1, };",
    );
    has(
        &code,
        "0 => Self::A, 1 => Self::B,
         index => return ::core::result::Result::Err(__avro::enum_index_error(index, 2, at)),",
    );
}

#[test]
fn a_fixed_is_its_bytes() {
    let code = impls("F", Shape::Fixed(16), false);
    has(&code, "__avro::codec::write_fixed(out, &self.0);");
    has(&code, "reader.read_fixed::<16>().map(Self)");
}

#[test]
fn arrays_and_maps_go_through_one_helper_each() {
    let code = field(Value::Array(Box::new(Value::Double)));
    has(
        &code,
        "__avro::write_array(out, &self.f, |out, item| __avro::codec::write_double(out, *item));",
    );
    has(
        &code,
        "__avro::read_array(reader, |reader| reader.read_double())",
    );
    let code = field(Value::Map(Box::new(Value::Int)));
    has(&code, "__avro::write_map(out, &self.f, |out, value| __avro::codec::write_int(out, *value)).map_err(field_error(\"f\"))?;");
    has(&code, "reader.read_map(|reader| reader.read_int())");
}

#[test]
fn an_optional_names_the_null_branch() {
    let code = field(Value::Optional {
        null_index: 1,
        some: Box::new(Value::String),
    });
    has(&code, "__avro::write_optional(out, self.f.as_ref(), __avro::NullBranch(1), |out, value| __avro::codec::write_string(out, value));");
    has(
        &code,
        "__avro::decode_optional(reader, __avro::NullBranch(1), __avro::decode_string)",
    );
    let code = field(Value::OptionalUnion {
        null_index: 0,
        branches: 3,
        ty: "U",
    });
    has(
        &code,
        "__avro::encode_optional_union(out, self.f.as_ref(), __avro::NullBranch(0))",
    );
    has(
        &code,
        "__avro::decode_optional_union(reader, __avro::NullBranch(0))",
    );
}

fn union(null_index: Option<usize>) -> String {
    let offset = usize::from(null_index == Some(0));
    let variants = vec![
        UnionVariant {
            ident: format_ident!("Int"),
            index: offset,
            value: Value::Int,
        },
        UnionVariant {
            ident: format_ident!("T"),
            index: offset + 1,
            value: Value::Named {
                ty: "T",
                boxed: false,
            },
        },
    ];
    let shape = Shape::Union {
        variants,
        branches: 2 + usize::from(null_index.is_some()),
        null_index,
    };
    impls("U", shape, false)
}

#[test]
fn a_union_writes_the_branch_index_then_the_value() {
    let code = union(None);
    has(
        &code,
        "Self::Int(value) => { __avro::codec::write_long(out, 0); __avro::codec::write_int(out, *value); }
         Self::T(value) => { __avro::codec::write_long(out, 1); __avro::AvroEncode::encode(value, out)?; }",
    );
    has(
        &code,
        "let index = reader.read_int()?;
         match index {
             0 => reader.read_int().map(Self::Int),
             1 => __avro::AvroDecode::decode(reader).map(Self::T),
             index => ::core::result::Result::Err(__avro::union_index_error(index, 2, at)),
         }",
    );
}

#[test]
fn a_union_with_null_decodes_only_its_other_branches() {
    let code = union(Some(0));
    has(&code, "impl __avro::DecodeBranch for U");
    has(&code, "1 => reader.read_int().map(Self::Int), 2 =>");
    has(&code, "__avro::union_index_error(index, 3, at)");
}

#[test]
fn logical_types_go_through_the_runtime_helpers() {
    let code = field(Value::Logical(Logical::Time {
        time_crate: TimeCrate::Chrono,
        kind: TimeKind::TimestampMillis,
    }));
    has(
        &code,
        "__avro::logical_chrono::encode_timestamp_millis(&self.f, out)",
    );
    has(
        &code,
        "__avro::logical_chrono::decode_timestamp_millis(reader)",
    );
    let code = field(Value::Logical(Logical::DecimalBytes {
        precision: 10,
        scale: 2,
    }));
    has(&code, "__avro::encode_decimal_bytes(&self.f, 10, 2, out)");
    let code = field(Value::Logical(Logical::UuidString));
    has(&code, "__avro::encode_uuid_string(&self.f, out)");
}

#[test]
fn a_recursive_reference_is_boxed_and_names_its_type() {
    let code = field(Value::Optional {
        null_index: 0,
        some: Box::new(Value::Named {
            ty: "R",
            boxed: true,
        }),
    });
    has(
        &code,
        "|out, value| <R as __avro::AvroEncode>::encode(value, out)",
    );
    has(
        &code,
        "__avro::AvroDecode::decode(reader).map(::std::boxed::Box::new)",
    );
    // A type that can hold itself counts a nesting level when decoded.
    let nested = impls("R", Shape::Record(Vec::new()), true);
    let flat = impls("R", Shape::Record(Vec::new()), false);
    assert_ne!(nested, flat);
}
