//! `#[avro(...)]` attributes, the serde `rename`/`rename_all` attributes and doc comments.
//!
//! One parser serves containers, fields and variants, from one list of keys ([`Key`]); a key
//! that is unknown, used where it means nothing or repeated is an error at its span, and a
//! malformed attribute does not stop the others from being read.

use proc_macro2::Span;
use serde_json::Value as Json;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;

use crate::emit::RenameRule;
use crate::emit::{LogicalType, TimeKind};
use crate::errors::Errors;
use avdl2rs_schema::Order;

/// Where an attribute sits.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// On the struct or enum.
    Container,
    /// On a named field or the field of a union variant.
    Field,
    /// On an enum variant.
    Variant,
}

/// A value with the span it was written at.
#[derive(Clone)]
pub(crate) struct At<T> {
    pub value: T,
    pub span: Span,
}

/// Every attribute value, as read; which ones are allowed depends on the [`Place`].
#[derive(Default)]
pub(crate) struct Attrs {
    /// `name` (container) or `rename` (field, variant), from `avro` or `serde`.
    pub name: Option<At<String>>,
    /// `namespace`.
    pub namespace: Option<At<String>>,
    /// `doc`, else the doc comment.
    pub doc: Option<String>,
    /// `alias`/`aliases`.
    pub aliases: Vec<At<String>>,
    /// `rename_all`, from `avro` or `serde`.
    pub rename_all: Option<RenameRule>,
    /// A field's `default`/`default_json`.
    pub default: Option<At<Json>>,
    /// A variant's `default` flag: the enum's default symbol.
    pub default_symbol: bool,
    /// `order`.
    pub order: Option<At<Order>>,
    /// `logical`.
    pub logical: Option<At<LogicalAttr>>,
    /// `precision` and `scale` of a decimal.
    pub precision: Option<At<u32>>,
    /// `scale` of a decimal.
    pub scale: Option<At<u32>>,
    /// `fixed`: the name of the fixed type under a decimal, uuid or duration.
    pub fixed: Option<At<String>>,
    /// `size` of that fixed type.
    pub size: Option<At<usize>>,
    /// `null_last`: an `Option` is written `[T, "null"]`.
    pub null_last: bool,
    /// `crate`: the path of the runtime crate, for users who rename it.
    pub krate: Option<syn::Path>,
}

/// A logical type a field names (`logical = ".."`): a date or time type, or `uuid`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum LogicalAttr {
    Time(TimeKind),
    Uuid,
}

impl LogicalAttr {
    /// The spelling in schemas.
    pub fn name(self) -> &'static str {
        match self {
            LogicalAttr::Time(kind) => kind.name(),
            LogicalAttr::Uuid => LogicalType::Uuid.name(),
        }
    }

    fn parse(text: &str) -> Option<LogicalAttr> {
        if text == LogicalType::Uuid.name() {
            return Some(LogicalAttr::Uuid);
        }
        TimeKind::from_name(text).map(LogicalAttr::Time)
    }
}

/// Reads the attributes of one item.
pub(crate) fn parse(attrs: &[syn::Attribute], place: Place, errors: &mut Errors) -> Attrs {
    let mut out = Attrs::default();
    let mut seen = Seen::default();
    let mut doc_lines = Vec::new();
    for attr in attrs {
        let path = attr.path();
        if path.is_ident("doc") {
            if let syn::Meta::NameValue(nv) = &attr.meta {
                if let Some(text) = str_lit(&nv.value) {
                    doc_lines.push(text);
                }
            }
        } else if path.is_ident("avro") {
            let parsed =
                attr.parse_nested_meta(|meta| avro_key(&meta, place, &mut out, &mut seen, errors));
            if let Err(e) = parsed {
                errors.push(e);
            }
        } else if path.is_ident("serde") {
            if let Err(e) = attr.parse_nested_meta(|meta| serde_key(&meta, place, &mut out)) {
                errors.push(e);
            }
        }
    }
    if out.doc.is_none() && !doc_lines.is_empty() {
        out.doc = Some(doc_text(&doc_lines));
    }
    out
}

/// The doc comment's text: one line per `#[doc]`, without the space after `///`.
fn doc_text(lines: &[String]) -> String {
    let lines: Vec<&str> = lines
        .iter()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    lines.join("\n").trim().to_owned()
}

fn str_lit(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    }
}

/// Every `#[avro(...)]` key: the one list from which follow where each may be written, which
/// may be repeated, and (by the exhaustive match in [`avro_key`]) how each is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Name,
    Namespace,
    Doc,
    Alias,
    Aliases,
    RenameAll,
    Crate,
    Rename,
    Default,
    DefaultJson,
    Order,
    Logical,
    Precision,
    Scale,
    Fixed,
    Size,
    NullLast,
    Bytes,
}

impl Key {
    const ALL: [Key; 18] = [
        Key::Name,
        Key::Namespace,
        Key::Doc,
        Key::Alias,
        Key::Aliases,
        Key::RenameAll,
        Key::Crate,
        Key::Rename,
        Key::Default,
        Key::DefaultJson,
        Key::Order,
        Key::Logical,
        Key::Precision,
        Key::Scale,
        Key::Fixed,
        Key::Size,
        Key::NullLast,
        Key::Bytes,
    ];

    fn name(self) -> &'static str {
        match self {
            Key::Name => "name",
            Key::Namespace => "namespace",
            Key::Doc => "doc",
            Key::Alias => "alias",
            Key::Aliases => "aliases",
            Key::RenameAll => "rename_all",
            Key::Crate => "crate",
            Key::Rename => "rename",
            Key::Default => "default",
            Key::DefaultJson => "default_json",
            Key::Order => "order",
            Key::Logical => "logical",
            Key::Precision => "precision",
            Key::Scale => "scale",
            Key::Fixed => "fixed",
            Key::Size => "size",
            Key::NullLast => "null_last",
            Key::Bytes => "bytes",
        }
    }

    /// Where the key may be written.
    fn places(self) -> &'static [Place] {
        use Place::{Container, Field, Variant};
        match self {
            Key::Name | Key::Namespace | Key::RenameAll | Key::Crate => &[Container],
            Key::Doc | Key::Alias | Key::Aliases => &[Container, Field],
            Key::Rename | Key::Default => &[Field, Variant],
            _ => &[Field],
        }
    }

    /// The value the key sets, which a second key of the same value would set again (the
    /// two spellings of a default are one); `None` for `alias`, which adds one each time.
    fn slot(self) -> Option<Key> {
        match self {
            Key::Alias => None,
            Key::DefaultJson => Some(Key::Default),
            key => Some(key),
        }
    }
}

/// The keys of one item's `#[avro]` attributes seen so far, to find repeated ones.
#[derive(Default)]
struct Seen(Vec<Key>);

impl Seen {
    /// Records `key`; an error at its span when it sets a value set before.
    fn record(&mut self, key: Key, meta: &ParseNestedMeta<'_>, errors: &mut Errors) {
        let Some(slot) = key.slot() else {
            return;
        };
        if self.0.contains(&slot) {
            let message = if slot == key {
                format!("duplicate avro attribute `{}`", key.name())
            } else {
                format!("`{}` sets what `{}` set already", key.name(), slot.name())
            };
            errors.at(&meta.path, message);
        }
        self.0.push(slot);
    }
}

fn avro_key(
    meta: &ParseNestedMeta<'_>,
    place: Place,
    out: &mut Attrs,
    seen: &mut Seen,
    errors: &mut Errors,
) -> syn::Result<()> {
    let name = meta
        .path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default();
    let Some(key) = Key::ALL
        .into_iter()
        .find(|k| k.name() == name && k.places().contains(&place))
    else {
        let where_ = match place {
            Place::Container => "a struct or enum",
            Place::Field => "a field",
            Place::Variant => "an enum variant",
        };
        return Err(meta.error(format!("unknown avro attribute `{name}` on {where_}")));
    };
    seen.record(key, meta, errors);
    match key {
        Key::Name | Key::Rename => out.name = Some(lit_string(meta)?),
        Key::Namespace => out.namespace = Some(lit_string(meta)?),
        Key::Doc => out.doc = Some(lit_string(meta)?.value),
        Key::Alias => out.aliases.push(lit_string(meta)?),
        Key::Aliases => out.aliases.extend(string_array(meta)?),
        Key::RenameAll => out.rename_all = Some(rename_rule(meta)?),
        Key::Crate => {
            let text = lit_string(meta)?;
            let path = syn::parse_str::<syn::Path>(&text.value).map_err(|e| {
                syn::Error::new(text.span, format!("`crate` is not a Rust path: {e}"))
            })?;
            out.krate = Some(path);
        }
        Key::Default if place == Place::Variant => out.default_symbol = true,
        Key::Default => {
            let expr: syn::Expr = meta.value()?.parse()?;
            let value = expr_json(&expr)?;
            out.default = Some(At {
                value,
                span: expr.span(),
            });
        }
        Key::DefaultJson => {
            let text = lit_string(meta)?;
            let value = serde_json::from_str(&text.value).map_err(|e| {
                syn::Error::new(text.span, format!("`default_json` is not JSON: {e}"))
            })?;
            out.default = Some(At {
                value,
                span: text.span,
            });
        }
        Key::Order => {
            let names = Order::ALL.map(Order::as_str);
            out.order = Some(lit_choice(meta, &names, Order::from_name)?);
        }
        Key::Logical => {
            let mut names: Vec<&str> = TimeKind::ALL.iter().map(|k| k.name()).collect();
            names.push("uuid");
            out.logical = Some(lit_choice(meta, &names, LogicalAttr::parse)?);
        }
        Key::Precision => out.precision = Some(lit_int(meta)?),
        Key::Scale => out.scale = Some(lit_int(meta)?),
        Key::Fixed => out.fixed = Some(lit_string(meta)?),
        Key::Size => out.size = Some(lit_int(meta)?),
        Key::NullLast => out.null_last = true,
        // `Vec<u8>` is always `bytes`; the key documents it (and mirrors serde_bytes).
        Key::Bytes => {}
    }
    Ok(())
}

/// The serde keys that change names; any other serde key is skipped.
fn serde_key(meta: &ParseNestedMeta<'_>, place: Place, out: &mut Attrs) -> syn::Result<()> {
    if meta.path.is_ident("rename") && meta.input.peek(syn::Token![=]) {
        if out.name.is_none() {
            out.name = Some(lit_string(meta)?);
        } else {
            let _ = lit_string(meta)?;
        }
        return Ok(());
    }
    if meta.path.is_ident("rename_all")
        && place == Place::Container
        && meta.input.peek(syn::Token![=])
    {
        let rule = rename_rule(meta)?;
        out.rename_all.get_or_insert(rule);
        return Ok(());
    }
    if meta.input.peek(syn::Token![=]) {
        let _: syn::Expr = meta.value()?.parse()?;
    } else if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
        let _: proc_macro2::Group = meta.input.parse()?;
    }
    Ok(())
}

fn lit_string(meta: &ParseNestedMeta<'_>) -> syn::Result<At<String>> {
    let lit: syn::LitStr = meta.value()?.parse()?;
    Ok(At {
        value: lit.value(),
        span: lit.span(),
    })
}

/// A string literal that must be one of `names`, read by `parse`.
fn lit_choice<T>(
    meta: &ParseNestedMeta<'_>,
    names: &[&str],
    parse: impl Fn(&str) -> Option<T>,
) -> syn::Result<At<T>> {
    let text = lit_string(meta)?;
    let value = parse(&text.value).ok_or_else(|| {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        syn::Error::new(
            text.span,
            format!(
                "`{key}` is one of \"{}\", not {:?}",
                names.join("\", \""),
                text.value
            ),
        )
    })?;
    Ok(At {
        value,
        span: text.span,
    })
}

fn lit_int<N: std::str::FromStr>(meta: &ParseNestedMeta<'_>) -> syn::Result<At<N>>
where
    N::Err: std::fmt::Display,
{
    let lit: syn::LitInt = meta.value()?.parse()?;
    Ok(At {
        value: lit.base10_parse()?,
        span: lit.span(),
    })
}

fn string_array(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<At<String>>> {
    let array: syn::ExprArray = meta.value()?.parse()?;
    array
        .elems
        .iter()
        .map(|e| match str_lit(e) {
            Some(value) => Ok(At {
                value,
                span: e.span(),
            }),
            None => Err(syn::Error::new_spanned(e, "expected a string literal")),
        })
        .collect()
}

fn rename_rule(meta: &ParseNestedMeta<'_>) -> syn::Result<RenameRule> {
    let text = lit_string(meta)?;
    RenameRule::parse(&text.value).ok_or_else(|| {
        syn::Error::new(
            text.span,
            format!("unknown rename_all rule {:?}", text.value),
        )
    })
}

/// A default written as a Rust literal: numbers, strings, `true`/`false`, `null`, and arrays
/// of those; anything else is written with `default_json`.
fn expr_json(expr: &syn::Expr) -> syn::Result<Json> {
    use syn::{Expr, Lit};
    let unsupported = || {
        syn::Error::new_spanned(
            expr,
            "a default is a literal, `null` or an array of those; write other JSON with `default_json = \"...\"`",
        )
    };
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(s) => Ok(Json::String(s.value())),
            Lit::Bool(b) => Ok(Json::Bool(b.value)),
            Lit::Int(i) => Ok(Json::from(i.base10_parse::<i64>()?)),
            Lit::Float(f) => serde_json::Number::from_f64(f.base10_parse::<f64>()?)
                .map(Json::Number)
                .ok_or_else(unsupported),
            _ => Err(unsupported()),
        },
        Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr: inner,
            ..
        }) => match expr_json(inner)? {
            Json::Number(n) if n.is_i64() => Ok(Json::from(-n.as_i64().unwrap_or_default())),
            Json::Number(n) => serde_json::Number::from_f64(-n.as_f64().unwrap_or_default())
                .map(Json::Number)
                .ok_or_else(unsupported),
            _ => Err(unsupported()),
        },
        Expr::Path(p) if p.path.is_ident("null") => Ok(Json::Null),
        Expr::Array(a) => a.elems.iter().map(expr_json).collect(),
        _ => Err(unsupported()),
    }
}
