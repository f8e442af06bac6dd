//! Rust field types → Avro: the schema JSON of the type and the emitter's [`Value`] for its
//! codec.
//!
//! The schema of a derived type used inside another is only known at its own expansion, so
//! it is written as a placeholder name (one per use) that the schema node later replaces by
//! a reference to that type's schema node.

use crate::emit::node::{placeholder, Nested, PLACEHOLDER_NAMESPACE};
use crate::emit::{Logical, TimeCrate, TimeKind};
use quote::ToTokens;
use serde_json::{json, Value as Json};

use crate::attrs::{At, Attrs, LogicalAttr};
use crate::errors::Errors;

/// The codec model of a field type: references to other types are the types as written.
pub(crate) type Value = crate::emit::Value<syn::Type>;

/// A field type, converted.
pub(crate) struct Typed {
    /// The codec shape.
    pub value: Value,
    /// The schema JSON (placeholders for other derived types).
    pub json: Json,
    /// Whether the schema holds a placeholder (so defaults cannot be checked here).
    pub nested: bool,
    /// What makes two union branches the same Avro type.
    pub branch_key: String,
}

/// Converts the field types of one derive input.
pub(crate) struct Types<'a> {
    /// The derived type's ident (references to it, or to `Self`, are recursion).
    pub self_ident: &'a syn::Ident,
    /// The derived type's full Avro name.
    pub self_full_name: String,
    /// Whether the derived type is a union (which has no name to recurse through).
    pub self_is_union: bool,
    /// The derived types used directly as a branch of a union (`Option<T>` or a variant),
    /// which must not be unions themselves.
    pub union_branches: Vec<syn::Type>,
    /// The types written as placeholders, in placeholder order.
    pub nested: Vec<Nested>,
    /// Where errors go.
    pub errors: &'a mut Errors,
}

/// The date and time kinds the chrono type named `rust` carries, the default first: the one
/// kind it holds, or among a time's or timestamp's precisions, microseconds. Empty when
/// `rust` is no chrono date or time type.
fn chrono_kinds(rust: &str) -> Vec<TimeKind> {
    let mut kinds: Vec<TimeKind> = TimeKind::ALL
        .into_iter()
        .filter(|&kind| TimeCrate::Chrono.type_name(kind) == rust)
        .collect();
    kinds.sort_by_key(|kind| !kind.name().ends_with("-micros"));
    kinds
}

impl<'a> Types<'a> {
    /// A converter for the type `self_ident` named `self_full_name`.
    pub fn new(self_ident: &'a syn::Ident, self_full_name: String, errors: &'a mut Errors) -> Self {
        Types {
            self_ident,
            self_full_name,
            self_is_union: false,
            union_branches: Vec::new(),
            nested: Vec::new(),
            errors,
        }
    }

    /// Converts `ty`, with the field's attributes applying to its innermost type.
    pub fn convert(&mut self, ty: &syn::Type, attrs: &Attrs) -> Option<Typed> {
        match ty {
            syn::Type::Tuple(t) if t.elems.is_empty() => Some(leaf(Value::Null, json!("null"))),
            syn::Type::Paren(p) => self.convert(&p.elem, attrs),
            syn::Type::Group(g) => self.convert(&g.elem, attrs),
            syn::Type::Path(p) if p.qself.is_none() => self.path(ty, &p.path, attrs),
            _ => {
                self.errors.at(ty, "this type has no Avro schema: use a primitive, String, Vec, a String-keyed map, Option, Box or a derived type");
                None
            }
        }
    }

    fn path(&mut self, ty: &syn::Type, path: &syn::Path, attrs: &Attrs) -> Option<Typed> {
        let last = path.segments.last()?;
        let name = last.ident.to_string();
        let args = generic_args(&last.arguments);
        let primitive = |value, avro: &str| Some(leaf(value, json!(avro)));
        if let Some(logical) = &attrs.logical {
            if let Some(base) = raw_logical_base(&name) {
                return self.raw_logical(ty, base, primitive_value(&name), logical);
            }
        }
        match (name.as_str(), args.as_slice()) {
            ("bool", []) => primitive(Value::Boolean, "boolean"),
            ("i32", []) => primitive(Value::Int, "int"),
            ("i64", []) => primitive(Value::Long, "long"),
            ("f32", []) => primitive(Value::Float, "float"),
            ("f64", []) => primitive(Value::Double, "double"),
            ("String", []) => primitive(Value::String, "string"),
            ("Vec", [item]) if is_named(item, "u8") => primitive(Value::Bytes, "bytes"),
            ("Vec", [item]) => {
                let item = self.convert(item, attrs)?;
                Some(Typed {
                    value: Value::Array(Box::new(item.value)),
                    json: json!({"type": "array", "items": item.json}),
                    nested: item.nested,
                    branch_key: "array".into(),
                })
            }
            ("HashMap" | "BTreeMap", [key, value]) => {
                if !is_named(key, "String") {
                    self.errors.at(
                        key,
                        "Avro map keys are strings: the key type must be `String`",
                    );
                }
                let value = self.convert(value, attrs)?;
                Some(Typed {
                    value: Value::Map(Box::new(value.value)),
                    json: json!({"type": "map", "values": value.json}),
                    nested: value.nested,
                    branch_key: "map".into(),
                })
            }
            ("Option", [some]) => self.option(some, attrs),
            ("Box", [inner]) => self.boxed(inner, attrs),
            ("Decimal", []) => self.decimal(ty, attrs),
            ("Duration", []) => {
                let name = self.fixed_name(attrs, "Duration");
                let logical = json!({"logicalType": "duration"});
                Some(self.fixed(Value::Logical(Logical::Duration), &name, 12, logical))
            }
            ("Uuid", []) => Some(self.uuid(attrs)),
            (chrono, [] | [_]) if !chrono_kinds(chrono).is_empty() => self.chrono(chrono, attrs),
            (
                "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i128" | "isize"
                | "char" | "str",
                [],
            ) => {
                self.errors.at(ty, format!("`{name}` has no Avro type: Avro has `int` (i32), `long` (i64), `float` (f32) and `double` (f64)"));
                None
            }
            _ if path.is_ident("Self") || path.is_ident(self.self_ident) => {
                self.reject_logical(attrs);
                if self.self_is_union {
                    self.errors.at(ty, "a union cannot hold itself: Avro unions have no name to refer back to, so put the recursion in a record");
                    return None;
                }
                let self_ty: syn::Type = syn::parse_quote!(#path);
                Some(leaf_named(
                    Value::Named {
                        ty: self_ty,
                        boxed: false,
                    },
                    json!(self.self_full_name),
                    self.self_full_name.clone(),
                ))
            }
            _ => {
                self.reject_logical(attrs);
                let placeholder = self.placeholder(Nested::Type(ty.to_token_stream()));
                let key = quote::quote!(#ty).to_string();
                Some(Typed {
                    value: Value::Named {
                        ty: ty.clone(),
                        boxed: false,
                    },
                    json: json!(placeholder),
                    nested: true,
                    branch_key: key,
                })
            }
        }
    }

    fn reject_logical(&mut self, attrs: &Attrs) {
        if let Some(logical) = &attrs.logical {
            self.errors.at_span(
                logical.span,
                "`logical` applies to chrono, uuid, i32, i64 and String types only",
            );
        }
    }

    fn option(&mut self, some: &syn::Type, attrs: &Attrs) -> Option<Typed> {
        if let syn::Type::Path(p) = some {
            if p.path.segments.last().is_some_and(|s| s.ident == "Option") {
                self.errors.at(
                    some,
                    "`Option<Option<T>>` would be a union inside a union, which Avro forbids",
                );
                return None;
            }
        }
        let inner = self.convert(some, attrs)?;
        self.note_union_branch(&inner);
        let null_last =
            attrs.null_last || attrs.default.as_ref().is_some_and(|d| !d.value.is_null());
        let (null_index, json) = if null_last {
            (1, json!([inner.json, "null"]))
        } else {
            (0, json!(["null", inner.json]))
        };
        Some(Typed {
            value: Value::Optional {
                null_index,
                some: Box::new(inner.value),
            },
            json,
            nested: inner.nested,
            branch_key: "union".into(),
        })
    }

    /// Records a nested derived type that is a union branch, to be checked not to be a union.
    pub fn note_union_branch(&mut self, branch: &Typed) {
        if let (Json::String(name), Value::Named { ty, .. }) = (&branch.json, &branch.value) {
            if name.starts_with(PLACEHOLDER_NAMESPACE) {
                self.union_branches.push(ty.clone());
            }
        }
    }

    fn boxed(&mut self, inner: &syn::Type, attrs: &Attrs) -> Option<Typed> {
        let mut typed = self.convert(inner, attrs)?;
        match &mut typed.value {
            Value::Named { boxed, .. } => *boxed = true,
            _ => {
                self.errors.at(
                    inner,
                    "`Box` is supported around derived types (for recursion) only",
                );
                return None;
            }
        }
        Some(typed)
    }

    fn decimal(&mut self, ty: &syn::Type, attrs: &Attrs) -> Option<Typed> {
        let Some(precision) = &attrs.precision else {
            self.errors.at(
                ty,
                "a `Decimal` needs its precision: `#[avro(precision = N, scale = N)]`",
            );
            return None;
        };
        let precision = precision.value;
        let scale = attrs.scale.as_ref().map_or(0, |s| s.value);
        if scale > precision {
            self.errors.at_span(
                attrs.scale.as_ref()?.span,
                "a decimal's scale cannot exceed its precision",
            );
        }
        let logical = json!({"logicalType": "decimal", "precision": precision, "scale": scale});
        if attrs.fixed.is_some() {
            let Some(size) = &attrs.size else {
                self.errors
                    .at(ty, "a `Decimal` on a fixed type needs `size = N`");
                return None;
            };
            let name = self.fixed_name(attrs, "Decimal");
            let size = size.value;
            let value = Value::Logical(Logical::DecimalFixed {
                size,
                precision,
                scale,
            });
            Some(self.fixed(value, &name, size, logical))
        } else {
            let mut json = json!({"type": "bytes"});
            merge(&mut json, logical);
            Some(leaf(
                Value::Logical(Logical::DecimalBytes { precision, scale }),
                json,
            ))
        }
    }

    fn uuid(&mut self, attrs: &Attrs) -> Typed {
        if attrs.fixed.is_some() {
            let name = self.fixed_name(attrs, "Uuid");
            let logical = json!({"logicalType": "uuid"});
            self.fixed(Value::Logical(Logical::UuidFixed), &name, 16, logical)
        } else {
            let mut typed = leaf(
                Value::Logical(Logical::UuidString),
                json!({"type": "string", "logicalType": "uuid"}),
            );
            typed.branch_key = "string".into();
            typed
        }
    }

    fn chrono(&mut self, rust: &str, attrs: &Attrs) -> Option<Typed> {
        let allowed = chrono_kinds(rust);
        let kind = match &attrs.logical {
            Some(At {
                value: LogicalAttr::Time(kind),
                ..
            }) if allowed.contains(kind) => *kind,
            Some(l) => {
                let list: Vec<&str> = allowed.iter().map(|k| k.name()).collect();
                self.errors.at_span(
                    l.span,
                    format!(
                        "`{rust}` carries the logical type `{}`, not `{}`",
                        list.join("`, `"),
                        l.value.name()
                    ),
                );
                return None;
            }
            None => *allowed.first()?,
        };
        let mut typed = leaf(
            Value::Logical(Logical::Time {
                time_crate: TimeCrate::Chrono,
                kind,
            }),
            json!({"type": kind.base(), "logicalType": kind.name()}),
        );
        typed.branch_key = kind.base().into();
        Some(typed)
    }

    /// `i32`, `i64` or `String` with a logical type annotation, encoded as the base type.
    fn raw_logical(
        &mut self,
        ty: &syn::Type,
        base: &str,
        value: Value,
        logical: &At<LogicalAttr>,
    ) -> Option<Typed> {
        let expected = match logical.value {
            LogicalAttr::Uuid => "string",
            LogicalAttr::Time(kind) => kind.base(),
        };
        let name = logical.value.name();
        if expected != base {
            self.errors.at_span(
                logical.span,
                format!(
                    "the logical type `{name}` does not apply to `{}`",
                    quote::quote!(#ty)
                ),
            );
            return None;
        }
        let mut typed = leaf(value, json!({"type": base, "logicalType": name}));
        typed.branch_key = base.into();
        Some(typed)
    }

    fn fixed_name(&mut self, attrs: &Attrs, default: &str) -> String {
        match &attrs.fixed {
            Some(name) => {
                if !name.value.split('.').all(crate::names::is_valid_name) {
                    self.errors.at_span(
                        name.span,
                        format!("{:?} is not a valid Avro name", name.value),
                    );
                }
                name.value.clone()
            }
            None => default.to_owned(),
        }
    }

    /// A fixed named `name` (a full name, or a name in the derived type's namespace) carrying
    /// the logical type in `extra`.
    fn fixed(&mut self, value: Value, name: &str, size: usize, extra: Json) -> Typed {
        let (namespace, simple) = match name.rsplit_once('.') {
            Some((namespace, simple)) => (Some(namespace), simple),
            None => (self.self_full_name.rsplit_once('.').map(|(ns, _)| ns), name),
        };
        let mut json = json!({"type": "fixed", "name": simple});
        if let Some(namespace) = namespace {
            merge(&mut json, json!({"namespace": namespace}));
        }
        merge(&mut json, json!({"size": size}));
        merge(&mut json, extra);
        let full_name = match namespace {
            Some(namespace) => format!("{namespace}.{simple}"),
            None => simple.to_owned(),
        };
        Typed {
            value,
            json: json!(self.placeholder(Nested::Fixed(json))),
            nested: true,
            branch_key: full_name,
        }
    }

    /// The placeholder name standing for `nested`.
    fn placeholder(&mut self, nested: Nested) -> String {
        self.nested.push(nested);
        placeholder(self.nested.len() - 1)
    }
}

fn leaf(value: Value, json: Json) -> Typed {
    let branch_key = match &json {
        Json::String(s) => s.clone(),
        other => other["type"].as_str().unwrap_or_default().to_owned(),
    };
    Typed {
        value,
        json,
        nested: false,
        branch_key,
    }
}

fn leaf_named(value: Value, json: Json, name: String) -> Typed {
    Typed {
        value,
        json,
        nested: false,
        branch_key: name,
    }
}

/// Adds the keys of object `extra` to object `json`.
pub(crate) fn merge(json: &mut Json, extra: Json) {
    if let (Json::Object(target), Json::Object(extra)) = (json, extra) {
        target.extend(extra);
    }
}

fn generic_args(arguments: &syn::PathArguments) -> Vec<&syn::Type> {
    match arguments {
        syn::PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|a| match a {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn is_named(ty: &syn::Type, name: &str) -> bool {
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == name && s.arguments.is_empty()))
}

fn raw_logical_base(rust: &str) -> Option<&'static str> {
    match rust {
        "i32" => Some("int"),
        "i64" => Some("long"),
        "String" => Some("string"),
        _ => None,
    }
}

fn primitive_value(rust: &str) -> Value {
    match rust {
        "i32" => Value::Int,
        "i64" => Value::Long,
        _ => Value::String,
    }
}
