//! The expansion: a derive input in, the `AvroSchema`, `AvroEncode` and `AvroDecode` impls
//! out (tokens in, tokens out, so it is testable without a compiler).

use std::collections::BTreeSet;

use crate::emit::{self, ItemKind, RecordField, Shape, TypeCodec, UnionVariant};
use proc_macro2::{Span, TokenStream};
use quote::{quote, ToTokens};
use serde_json::{json, Map, Value as Json};
use syn::spanned::Spanned;

use crate::attrs::{self, At, Attrs, Place};
use crate::emit::node::{self, Nested, PLACEHOLDER_NAMESPACE};
use crate::errors::Errors;
use crate::names::{is_valid_name, is_valid_namespace};
use crate::types::{Types, Value};

/// What one shape's expansion produces before the schema is assembled.
struct Output {
    json: Json,
    shape: Shape<syn::Type>,
    nested: Vec<Nested>,
    /// Field defaults: field index and value.
    defaults: Vec<(usize, Json)>,
}

/// Expands `#[derive(Avro)]` on `input`.
pub(crate) fn derive(input: &syn::DeriveInput) -> Result<TokenStream, syn::Error> {
    let mut errors = Errors::default();
    if !input.generics.params.is_empty() {
        errors.at(
            &input.generics,
            "`Avro` cannot be derived for a generic type: its schema must be one fixed schema",
        );
    }
    let container = attrs::parse(&input.attrs, Place::Container, &mut errors);
    let name = avro_name(&container, &input.ident, &mut errors);
    let namespace = container.namespace.as_ref().map(|ns| {
        if ns.value == PLACEHOLDER_NAMESPACE
            || (!ns.value.is_empty() && !is_valid_namespace(&ns.value))
        {
            errors.at_span(
                ns.span,
                format!("{:?} is not a valid Avro namespace", ns.value),
            );
        }
        ns.value.clone()
    });
    let namespace = namespace.filter(|ns| !ns.is_empty());
    let full_name = match &namespace {
        Some(ns) => format!("{ns}.{name}"),
        None => name.clone(),
    };
    let mut header = Map::new();
    header.insert("name".into(), json!(name));
    if let Some(ns) = &namespace {
        header.insert("namespace".into(), json!(ns));
    }
    if let Some(doc) = &container.doc {
        header.insert("doc".into(), json!(doc));
    }
    if !container.aliases.is_empty() {
        let aliases = checked_names(&container.aliases, &mut errors, true);
        header.insert("aliases".into(), json!(aliases));
    }
    let mut types = Types::new(&input.ident, full_name.clone(), &mut errors);
    let output = match &input.data {
        syn::Data::Struct(data) => match &data.fields {
            syn::Fields::Named(fields) => record(header, fields, &container, &mut types),
            syn::Fields::Unnamed(fields) => fixed(header, fields, &mut types),
            syn::Fields::Unit => {
                types.errors.at(
                    &input.ident,
                    "a unit struct has no Avro schema: give it named fields (a record)",
                );
                None
            }
        },
        syn::Data::Enum(data) => enumeration(header, data, &container, &mut types),
        syn::Data::Union(data) => {
            types.errors.at(
                data.union_token,
                "a Rust union has no Avro schema: use an enum of one-field tuple variants",
            );
            None
        }
    };
    let union_branches = std::mem::take(&mut types.union_branches);
    errors.finish()?;
    let output = output.ok_or_else(|| syn::Error::new(Span::call_site(), "unsupported type"))?;
    let parsed = node::parse(&output.json, output.nested.len()).map_err(|e| {
        syn::Error::new_spanned(
            &input.ident,
            format!("the Avro schema of this type is invalid: {e}"),
        )
    })?;
    let texts = parsed.texts(&output.defaults);
    let rt = container.krate.clone().unwrap_or_else(default_runtime_path);
    let branch_checks = union_branch_checks(&union_branches, &rt);
    let kind = match output.shape {
        Shape::Union { .. } => ItemKind::Union { avro_schema: true },
        _ => ItemKind::Named(None),
    };
    let schema_item = emit::schema_item(&rt, &input.ident, kind, &texts, &output.nested)
        .map_err(|e| syn::Error::new_spanned(&input.ident, format!("invalid fixed type: {e}")))?;
    let codec = TypeCodec {
        ident: input.ident.clone(),
        shape: output.shape,
        full_name: None,
        // Whether the type can hold itself is not known from one type's definition.
        nested: true,
        // A field type without `#[derive(Avro)]` is then reported at the field.
        name_field_types: true,
    };
    let codec = emit::type_impls(&codec, &rt, &|ty| ty.to_token_stream());
    Ok(emit::wrap_in_const(
        quote!(#schema_item #branch_checks #codec),
    ))
}

/// The runtime crate's path unless `#[avro(crate = "..")]` gives another.
fn default_runtime_path() -> syn::Path {
    syn::parse_quote!(::avdl2rs)
}

/// The type's Avro name: `name`/`serde(rename)`, else the Rust ident.
fn avro_name(container: &Attrs, ident: &syn::Ident, errors: &mut Errors) -> String {
    match &container.name {
        Some(name) => {
            if !is_valid_name(&name.value) {
                errors.at_span(
                    name.span,
                    format!("{:?} is not a valid Avro name", name.value),
                );
            }
            name.value.clone()
        }
        None => unraw(ident),
    }
}

fn unraw(ident: &syn::Ident) -> String {
    let text = ident.to_string();
    text.strip_prefix("r#").map(str::to_owned).unwrap_or(text)
}

/// The names of `list`, each checked to be an Avro name (with dots when `full` is allowed).
fn checked_names(list: &[At<String>], errors: &mut Errors, full: bool) -> Vec<String> {
    list.iter()
        .map(|alias| {
            let valid = if full {
                alias.value.split('.').all(is_valid_name)
            } else {
                is_valid_name(&alias.value)
            };
            if !valid {
                errors.at_span(
                    alias.span,
                    format!("{:?} is not a valid Avro name", alias.value),
                );
            }
            alias.value.clone()
        })
        .collect()
}

/// The Avro name of a field or variant: `rename`, else `rename_all` of the Rust ident.
fn member_name(
    attrs: &Attrs,
    ident: &syn::Ident,
    container: &Attrs,
    errors: &mut Errors,
) -> String {
    let (name, span) = match (&attrs.name, container.rename_all) {
        (Some(name), _) => (name.value.clone(), name.span),
        (None, Some(rule)) => (rule.apply(&unraw(ident)), ident.span()),
        (None, None) => (unraw(ident), ident.span()),
    };
    if !is_valid_name(&name) {
        errors.at_span(span, format!("{name:?} is not a valid Avro name"));
    }
    name
}

fn record(
    mut header: Map<String, Json>,
    fields: &syn::FieldsNamed,
    container: &Attrs,
    types: &mut Types<'_>,
) -> Option<Output> {
    let mut json_fields = Vec::new();
    let mut codec_fields = Vec::new();
    let mut defaults = Vec::new();
    let mut seen = BTreeSet::new();
    for (index, field) in fields.named.iter().enumerate() {
        let ident = field.ident.as_ref()?;
        let attrs = attrs::parse(&field.attrs, Place::Field, types.errors);
        let name = member_name(&attrs, ident, container, types.errors);
        if !seen.insert(name.clone()) {
            types
                .errors
                .at(ident, format!("two fields are named {name:?} in Avro"));
        }
        let Some(typed) = types.convert(&field.ty, &attrs) else {
            continue;
        };
        let mut object = Map::new();
        object.insert("name".into(), json!(name));
        object.insert("type".into(), typed.json);
        if let Some(doc) = &attrs.doc {
            object.insert("doc".into(), json!(doc));
        }
        if let Some(order) = &attrs.order {
            object.insert("order".into(), json!(order.value.name()));
        }
        if !attrs.aliases.is_empty() {
            object.insert(
                "aliases".into(),
                json!(checked_names(&attrs.aliases, types.errors, false)),
            );
        }
        let default = attrs.default.clone().or_else(|| {
            let optional_null_first = matches!(typed.value, Value::Optional { null_index: 0, .. });
            optional_null_first.then(|| At {
                value: Json::Null,
                span: field.ty.span(),
            })
        });
        if let Some(default) = default {
            if !typed.nested {
                check_default(&object, &default, types.errors);
            }
            defaults.push((index, default.value));
        }
        json_fields.push(Json::Object(object));
        codec_fields.push(RecordField {
            ident: ident.clone(),
            avro_name: name,
            value: typed.value,
        });
    }
    header.insert("fields".into(), Json::Array(json_fields));
    Some(Output {
        json: named("record", header),
        shape: Shape::Record(codec_fields),
        nested: std::mem::take(&mut types.nested),
        defaults,
    })
}

/// Checks `default` against the type of the field `field` (its JSON, without nested derived
/// types) by parsing a record of that one field; a field whose type refers to a fixed defined
/// by an earlier field is not checked.
fn check_default(field: &Map<String, Json>, default: &At<Json>, errors: &mut Errors) {
    let record = json!({"type": "record", "name": "DefaultCheck", "fields": [field]});
    if let Ok(parsed) = node::parse(&record, 0) {
        if !parsed.is_valid_default(0, &default.value) {
            errors.at_span(
                default.span,
                format!(
                    "the default {} does not fit the field's Avro type {}",
                    default.value, field["type"]
                ),
            );
        }
    }
}

/// `{"type": kind, ...header}` with `type` first.
fn named(kind: &str, header: Map<String, Json>) -> Json {
    let mut object = Map::new();
    object.insert("type".into(), json!(kind));
    object.extend(header);
    Json::Object(object)
}

fn fixed(
    mut header: Map<String, Json>,
    fields: &syn::FieldsUnnamed,
    types: &mut Types<'_>,
) -> Option<Output> {
    let size = match fields.unnamed.iter().collect::<Vec<_>>().as_slice() {
        [field] => match &field.ty {
            syn::Type::Array(array) if is_u8(&array.elem) => match &array.len {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                }) => n.base10_parse::<usize>().ok(),
                len => {
                    types
                        .errors
                        .at(len, "the size of a fixed type must be an integer literal");
                    None
                }
            },
            ty => {
                types
                    .errors
                    .at(ty, "a tuple struct is an Avro fixed only around `[u8; N]`");
                None
            }
        },
        _ => {
            types.errors.at(
                fields,
                "a tuple struct is an Avro fixed only with one `[u8; N]` field",
            );
            None
        }
    }?;
    header.insert("size".into(), json!(size));
    Some(Output {
        json: named("fixed", header),
        shape: Shape::Fixed(size),
        nested: Vec::new(),
        defaults: Vec::new(),
    })
}

fn is_u8(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.is_ident("u8"))
}

fn enumeration(
    header: Map<String, Json>,
    data: &syn::DataEnum,
    container: &Attrs,
    types: &mut Types<'_>,
) -> Option<Output> {
    if data.variants.is_empty() {
        types.errors.at(
            data.enum_token,
            "an enum without variants has no Avro schema",
        );
        return None;
    }
    let units = data
        .variants
        .iter()
        .filter(|v| matches!(v.fields, syn::Fields::Unit))
        .count();
    if units == data.variants.len() {
        return Some(symbols(header, data, container, types));
    }
    union(data, types)
}

fn symbols(
    mut header: Map<String, Json>,
    data: &syn::DataEnum,
    container: &Attrs,
    types: &mut Types<'_>,
) -> Output {
    let mut names = Vec::new();
    let mut default = None;
    for variant in &data.variants {
        let attrs = attrs::parse(&variant.attrs, Place::Variant, types.errors);
        let name = member_name(&attrs, &variant.ident, container, types.errors);
        if names.contains(&name) {
            types.errors.at(
                &variant.ident,
                format!("two symbols are named {name:?} in Avro"),
            );
        }
        if attrs.default_symbol {
            if default.is_some() {
                types
                    .errors
                    .at(&variant.ident, "only one variant can be the enum's default");
            }
            default = Some(name.clone());
        }
        names.push(name);
    }
    header.insert("symbols".into(), json!(names));
    if let Some(default) = default {
        header.insert("default".into(), json!(default));
    }
    Output {
        json: named("enum", header),
        shape: Shape::Enum(data.variants.iter().map(|v| v.ident.clone()).collect()),
        nested: Vec::new(),
        defaults: Vec::new(),
    }
}

fn union(data: &syn::DataEnum, types: &mut Types<'_>) -> Option<Output> {
    types.self_is_union = true;
    let mut branches = Vec::new();
    let mut variants = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    for (index, variant) in data.variants.iter().enumerate() {
        let field = match &variant.fields {
            syn::Fields::Unnamed(fields) if fields.unnamed.len() == 1 => &fields.unnamed[0],
            _ => {
                types.errors.at(variant, "a union enum has one-field tuple variants only (`Null(())` for the null branch)");
                continue;
            }
        };
        let attrs = attrs::parse(&field.attrs, Place::Field, types.errors);
        let Some(typed) = types.convert(&field.ty, &attrs) else {
            continue;
        };
        if typed.json.is_array() {
            types.errors.at(&field.ty, "a union branch cannot be an `Option` (a union inside a union): add a `Null(())` variant instead");
            continue;
        }
        if keys.contains(&typed.branch_key) {
            types.errors.at(
                variant,
                format!(
                    "a union cannot hold two branches of the same Avro type `{}`",
                    typed.branch_key
                ),
            );
        }
        types.note_union_branch(&typed);
        keys.push(typed.branch_key);
        branches.push(typed.json);
        variants.push(UnionVariant {
            ident: variant.ident.clone(),
            index,
            value: typed.value,
        });
    }
    Some(Output {
        json: Json::Array(branches),
        shape: Shape::Union {
            branches: variants.len(),
            variants,
            null_index: None,
        },
        nested: std::mem::take(&mut types.nested),
        defaults: Vec::new(),
    })
}

/// Compile-time checks that the derived types used as union branches are not unions (whose
/// branches would nest in the enclosing union, which Avro forbids).
fn union_branch_checks(branches: &[syn::Type], rt: &syn::Path) -> TokenStream {
    let checks = branches.iter().map(|ty| {
        quote::quote_spanned! {ty.span()=>
            const _: () = ::core::assert!(
                !#rt::__private::NodeRef::of::<#ty>().is_union(),
                "a union enum cannot be a branch of another union or of an `Option`: put all branches in one union enum (with a `Null(())` variant for null)"
            );
        }
    });
    quote!(#(#checks)*)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(input: TokenStream) -> Result<TokenStream, syn::Error> {
        derive(&syn::parse2(input).unwrap())
    }

    #[test]
    fn a_record_gets_the_three_impls_inside_one_const_block() {
        let tokens = expand(quote!(
            struct Point {
                x: i32,
                y: ::std::option::Option<Point2>,
            }
        ))
        .unwrap()
        .to_string();
        assert!(tokens.starts_with("const _ : () ="), "{tokens}");
        // The runtime's `schema!` gives the `AvroSchema` impl.
        for item in [
            "__private :: schema ! (Point ,",
            "AvroEncode for Point",
            "AvroDecode for Point",
        ] {
            assert!(tokens.contains(item), "no {item}: {tokens}");
        }
        assert!(tokens.contains("NodeRef :: of :: < Point2 >"), "{tokens}");
    }

    #[test]
    fn every_error_of_an_input_is_reported() {
        let error = expand(quote!(
            struct Bad<T> {
                a: u16,
                #[avro(order = "up")]
                b: i32,
                c: ::std::collections::HashMap<i32, i32>,
                t: T,
            }
        ))
        .unwrap_err();
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages.len(), 4, "{messages:#?}");
        assert!(messages[0].contains("generic"));
        assert!(messages[1].contains("`u16` has no Avro type"));
        assert!(messages[2].contains("`order`"));
        assert!(messages[3].contains("map keys"));
    }

    #[test]
    fn the_crate_attribute_replaces_every_runtime_path() {
        let tokens = expand(quote!(
            #[avro(crate = "::renamed::rt")]
            enum Choice {
                Number(i64),
                Point(Point),
            }
        ))
        .unwrap()
        .to_string();
        assert!(
            tokens.contains(":: renamed :: rt :: __private :: schema !"),
            "{tokens}"
        );
        // The codec names the runtime through one alias of its `__private` module.
        assert!(
            tokens.contains("use :: renamed :: rt :: __private as __avro"),
            "{tokens}"
        );
        assert!(!tokens.contains(":: avdl2rs"), "{tokens}");
    }

    #[test]
    fn a_union_gets_no_inherent_method() {
        let tokens = expand(quote!(
            enum Choice {
                Number(i64),
                Text(::std::string::String),
            }
        ))
        .unwrap()
        .to_string();
        assert!(!tokens.contains("impl Choice"), "{tokens}");
        // It cannot be held in an `Option` (that would be a union in a union), so it reads
        // its own index.
        assert!(tokens.contains("AvroDecode for Choice"), "{tokens}");
    }

    #[test]
    fn a_repeated_key_is_an_error_at_the_repetition() {
        let error = expand(quote!(
            struct Repeated {
                #[avro(order = "ascending", order = "descending")]
                a: i32,
                #[avro(default = 1)]
                #[avro(default_json = "2")]
                b: i32,
                #[avro(alias = "x", alias = "y")]
                c: i32,
            }
        ))
        .unwrap_err();
        let messages: Vec<String> = error.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(
            messages,
            [
                "duplicate avro attribute `order`",
                "`default_json` sets what `default` set already"
            ]
        );
    }

    #[test]
    fn doc_comments_become_docs_of_fixed_and_enum_types() {
        for input in [
            quote!(
                /// Sixteen bytes.
                struct Md5([u8; 16]);
            ),
            quote!(
                /// A colour.
                enum Colour {
                    Red,
                    #[avro(default)]
                    Green,
                }
            ),
        ] {
            let tokens = expand(input).unwrap().to_string();
            assert!(tokens.contains(r#""doc":""#), "{tokens}");
        }
    }
}
