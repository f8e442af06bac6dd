//! The Avro shape of a derive input: its schema JSON (the types of derived fields as
//! placeholders, see [`Nested`]) and the codec model the emitter writes impls from, for each
//! kind of Rust item that has an Avro counterpart.
//!
//! The JSON is only an input to the schema model (`node::parse`), which checks it and writes
//! the texts, so its key order does not matter; each object is written as one `json!` literal
//! whose optional keys are dropped when absent.

use std::collections::BTreeSet;

use serde_json::{json, Value as Json};
use syn::spanned::Spanned;

use crate::attrs::{self, At, Attrs, Place};
use crate::emit::node::{self, Nested};
use crate::emit::{RecordField, RenameRule, Shape, UnionVariant};
use crate::names::{checked_names, member_name};
use crate::types::{merge, Types, Value};

/// What one shape's expansion produces before the schema is assembled.
pub(crate) struct Output {
    pub json: Json,
    pub shape: Shape<syn::Type>,
    pub nested: Vec<Nested>,
    /// Field defaults: field index and value.
    pub defaults: Vec<(usize, Json)>,
}

/// What every named type's schema says of its name: from the container's attributes.
pub(crate) struct Header {
    pub name: String,
    pub namespace: Option<String>,
    pub doc: Option<String>,
    pub aliases: Vec<String>,
}

impl Header {
    /// The full name: the namespace, a dot and the name; the name alone in the null
    /// namespace.
    pub fn full_name(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{ns}.{}", self.name),
            None => self.name.clone(),
        }
    }

    /// The schema of a named type of `kind`: `type`, the header, then `body`'s keys.
    fn named(&self, kind: &str, body: Json) -> Json {
        let mut json = present(json!({
            "type": kind,
            "name": self.name,
            "namespace": self.namespace,
            "doc": self.doc,
            "aliases": self.aliases,
        }));
        merge(&mut json, body);
        json
    }
}

/// `object` without its keys whose value is absent: `null` (an unset `Option`) or an empty
/// list (no aliases). Only for objects without a `default`, where `null` is a value.
fn present(mut object: Json) -> Json {
    if let Json::Object(map) = &mut object {
        map.retain(|_, value| !value.is_null() && value.as_array().is_none_or(|a| !a.is_empty()));
    }
    object
}

/// A struct with named fields: a record.
pub(crate) fn record(
    header: &Header,
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
        let name = member_name(
            &attrs,
            ident,
            container,
            RenameRule::apply_to_field,
            types.errors,
        );
        if !seen.insert(name.clone()) {
            types
                .errors
                .at(ident, format!("two fields are named {name:?} in Avro"));
        }
        let Some(typed) = types.convert(&field.ty, &attrs) else {
            continue;
        };
        let json = present(json!({
            "name": name,
            "type": typed.json,
            "doc": attrs.doc,
            "order": attrs.order.as_ref().map(|order| order.value.as_str()),
            "aliases": checked_names(&attrs.aliases, types.errors, false),
        }));
        if let Some(default) = field_default(&attrs, &typed.value, field) {
            if !typed.nested {
                check_default(&json, &default, types.errors);
            }
            defaults.push((index, default.value));
        }
        json_fields.push(json);
        codec_fields.push(RecordField {
            ident: ident.clone(),
            avro_name: name,
            value: typed.value,
        });
    }
    Some(Output {
        json: header.named("record", json!({ "fields": json_fields })),
        shape: Shape::Record(codec_fields),
        nested: std::mem::take(&mut types.nested),
        defaults,
    })
}

/// The field's default: the attribute's, else `null` for an `Option` written null first.
fn field_default(attrs: &Attrs, value: &Value, field: &syn::Field) -> Option<At<Json>> {
    attrs.default.clone().or_else(|| {
        let optional_null_first = matches!(value, Value::Optional { null_index: 0, .. });
        optional_null_first.then(|| At {
            value: Json::Null,
            span: field.ty.span(),
        })
    })
}

/// Checks `default` against the type of the field `field` (its JSON, without nested derived
/// types) by parsing a record of that one field; a field whose type refers to a fixed defined
/// by an earlier field is not checked.
fn check_default(field: &Json, default: &At<Json>, errors: &mut crate::errors::Errors) {
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

/// A tuple struct around `[u8; N]`: a fixed of `N` bytes.
pub(crate) fn fixed(
    header: &Header,
    fields: &syn::FieldsUnnamed,
    types: &mut Types<'_>,
) -> Option<Output> {
    let size = fixed_size(fields, types)?;
    Some(Output {
        json: header.named("fixed", json!({ "size": size })),
        shape: Shape::Fixed(size),
        nested: Vec::new(),
        defaults: Vec::new(),
    })
}

/// The `N` of the one `[u8; N]` field, or an error at what is not that.
fn fixed_size(fields: &syn::FieldsUnnamed, types: &mut Types<'_>) -> Option<usize> {
    let [field] = fields.unnamed.iter().collect::<Vec<_>>()[..] else {
        types.errors.at(
            fields,
            "a tuple struct is an Avro fixed only with one `[u8; N]` field",
        );
        return None;
    };
    let syn::Type::Array(array) = &field.ty else {
        types.errors.at(
            &field.ty,
            "a tuple struct is an Avro fixed only around `[u8; N]`",
        );
        return None;
    };
    if !matches!(&*array.elem, syn::Type::Path(p) if p.path.is_ident("u8")) {
        types.errors.at(
            &field.ty,
            "a tuple struct is an Avro fixed only around `[u8; N]`",
        );
        return None;
    }
    match &array.len {
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
    }
}

/// An enum: an Avro enum when every variant is a unit, else a union of one-field variants.
pub(crate) fn enumeration(
    header: &Header,
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
    if data
        .variants
        .iter()
        .all(|v| matches!(v.fields, syn::Fields::Unit))
    {
        return Some(symbols(header, data, container, types));
    }
    union(data, types)
}

fn symbols(
    header: &Header,
    data: &syn::DataEnum,
    container: &Attrs,
    types: &mut Types<'_>,
) -> Output {
    let mut names = Vec::new();
    let mut default = None;
    for variant in &data.variants {
        let attrs = attrs::parse(&variant.attrs, Place::Variant, types.errors);
        let name = member_name(
            &attrs,
            &variant.ident,
            container,
            RenameRule::apply_to_variant,
            types.errors,
        );
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
    Output {
        json: header.named(
            "enum",
            present(json!({ "symbols": names, "default": default })),
        ),
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
