//! Field defaults as Rust expressions: `#[serde(default = ...)]` functions, each record's
//! `new` (the fields without defaults as arguments) and `impl Default` for records whose
//! fields all have defaults.
//!
//! A default is checked against the field's type while its expression is built, so a default
//! that does not fit is a generation error naming the record and field. Logical types have no
//! literal syntax in their Rust crates: their defaults are calls of infallible constructors
//! (`Uuid::from_bytes`, `Decimal::from_i128`, the runtime's `*_from_default` for dates and
//! times) with values checked here to be ones the Rust type holds.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};
use serde_json::Value as Json;

use crate::context::{ident, Context};
use crate::naming;
use crate::rust_types::rust_type;
use avdl2rs_emit::{Logical, TimeCrate, TimeKind};

use crate::space::{DefKind, FieldDef, TypeDef, TypeId, TypeRef};
use crate::Error;

/// The name of the associated function that returns a field's default.
pub(crate) fn default_fn_name(field: &FieldDef) -> String {
    format!("__default_{}", naming::unraw(&field.ident))
}

/// Whether a field's default is its Rust type's `Default` (`None`, an empty `Vec` or map,
/// `()`): serde's `#[serde(default)]` says it, and `new` writes the value where it is needed,
/// with no function of its own.
pub(crate) fn is_type_default(field: &FieldDef) -> bool {
    match (&field.ty, &field.default) {
        (
            TypeRef::Null | TypeRef::Optional { .. } | TypeRef::OptionalUnion { .. },
            Some(Json::Null),
        ) => true,
        (TypeRef::Array(_), Some(Json::Array(items))) => items.is_empty(),
        (TypeRef::Map(_), Some(Json::Object(entries))) => entries.is_empty(),
        _ => false,
    }
}

/// The default functions of a record, and `impl Default` when every field has a default;
/// or the error of every default that does not fit.
pub(crate) fn record_defaults(cx: &Context<'_>, def: &TypeDef) -> Result<TokenStream, Vec<Error>> {
    let DefKind::Record { named, fields } = &def.kind else {
        return Ok(TokenStream::new());
    };
    let writer = Writer {
        cx,
        module: &def.module,
    };
    let mut defaults = Vec::new();
    let mut errors = Vec::new();
    for field in fields {
        let Some(default) = &field.default else {
            defaults.push(None);
            continue;
        };
        match writer.expr(&field.ty, default) {
            Ok(expr) => defaults.push(Some(expr)),
            Err(message) => errors.push(Error::InvalidDefault {
                origin: String::new(),
                record: named.name.full_name(),
                field: field.avro_name.clone(),
                message,
            }),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let functions = fields
        .iter()
        .zip(&defaults)
        .filter(|(field, _)| !is_type_default(field))
        .filter_map(|(field, expr)| {
            let expr = expr.as_ref()?;
            let name = format_ident!("{}", default_fn_name(field));
            let ty = rust_type(cx, &field.ty, &def.module);
            Some(quote!(fn #name() -> #ty { #expr }))
        });
    let name = ident(&def.ident);
    let constructor = constructor(cx, def, fields, &defaults);
    let default_impl = fields.iter().all(|f| f.default.is_some()).then(|| {
        quote! {
            #[automatically_derived]
            impl ::core::default::Default for #name {
                fn default() -> Self { Self::new() }
            }
        }
    });
    Ok(quote! {
        impl #name { #constructor #(#functions)* }
        #default_impl
    })
}

/// `new`, taking the fields without a default (in schema order) and filling the others from
/// their defaults (`defaults`, one for each field): code that builds a record this way (with
/// struct update syntax for the defaulted fields it sets) keeps compiling when a field with a
/// default is added to the schema, the compatible change readers expect writers to make.
fn constructor(
    cx: &Context<'_>,
    def: &TypeDef,
    fields: &[FieldDef],
    defaults: &[Option<TokenStream>],
) -> TokenStream {
    let required = fields.iter().filter(|f| f.default.is_none());
    let params = required.map(|f| {
        let name = ident(&f.ident);
        let ty = rust_type(cx, &f.ty, &def.module);
        quote!(#name: #ty)
    });
    let inits = fields.iter().zip(defaults).map(|(f, default)| {
        let name = ident(&f.ident);
        match default {
            Some(expr) if is_type_default(f) => quote!(#name: #expr,),
            Some(_) => {
                let function = format_ident!("{}", default_fn_name(f));
                quote!(#name: Self::#function(),)
            }
            None => quote!(#name,),
        }
    });
    let doc = format!(
        " `{}` from the fields without a default, the others at their schema defaults.",
        naming::unraw(&def.ident)
    );
    quote! {
        #[doc = #doc]
        #[must_use]
        pub fn new(#(#params),*) -> Self {
            Self { #(#inits)* }
        }
    }
}

/// Builds default expressions as written in one module.
struct Writer<'a> {
    cx: &'a Context<'a>,
    module: &'a [String],
}

type Expr = Result<TokenStream, String>;

impl Writer<'_> {
    fn expr(&self, ty: &TypeRef, value: &Json) -> Expr {
        let mismatch = |what: &str| Err(format!("{value} is not {what}"));
        match ty {
            TypeRef::Null => {
                if value.is_null() {
                    Ok(quote!(()))
                } else {
                    mismatch("null")
                }
            }
            TypeRef::Boolean => match value.as_bool() {
                Some(b) => Ok(quote!(#b)),
                None => mismatch("a boolean"),
            },
            TypeRef::Int => match value.as_i64().and_then(|i| i32::try_from(i).ok()) {
                Some(i) => Ok(Literal::i32_unsuffixed(i).into_token_stream()),
                None => mismatch("an int"),
            },
            TypeRef::Long => match value.as_i64() {
                Some(i) => Ok(Literal::i64_unsuffixed(i).into_token_stream()),
                None => mismatch("a long"),
            },
            TypeRef::Float => float(value, "f32"),
            TypeRef::Double => float(value, "f64"),
            TypeRef::Bytes => {
                let bytes = byte_string(value)?;
                Ok(vec_expr(
                    bytes
                        .iter()
                        .map(|b| Literal::u8_unsuffixed(*b).into_token_stream())
                        .collect(),
                ))
            }
            TypeRef::String => match value.as_str() {
                Some(s) => Ok(quote!(::std::string::String::from(#s))),
                None => mismatch("a string"),
            },
            TypeRef::Array(item) => match value.as_array() {
                Some(items) => Ok(vec_expr(
                    items
                        .iter()
                        .map(|v| self.expr(item, v))
                        .collect::<Result<_, _>>()?,
                )),
                None => mismatch("an array"),
            },
            TypeRef::Map(v) => self.map(v, value),
            TypeRef::Optional { some, .. } => self.optional(value, |v| self.expr(some, v)),
            TypeRef::OptionalUnion { ty: id, .. } => self.optional(value, |v| self.def(*id, v)),
            TypeRef::Named { ty: id, boxed } => {
                let expr = self.def(*id, value)?;
                Ok(if *boxed {
                    quote!(::std::boxed::Box::new(#expr))
                } else {
                    expr
                })
            }
            TypeRef::Logical(logical) => self.logical(*logical, value),
        }
    }

    /// A union of `null` and something: the first branch the value fits.
    fn optional(&self, value: &Json, some: impl Fn(&Json) -> Expr) -> Expr {
        if value.is_null() {
            return Ok(quote!(::core::option::Option::None));
        }
        let expr = some(value)?;
        Ok(quote!(::core::option::Option::Some(#expr)))
    }

    fn map(&self, ty: &TypeRef, value: &Json) -> Expr {
        let Some(entries) = value.as_object() else {
            return Err(format!("{value} is not a map"));
        };
        let map = self.cx.map_path();
        if entries.is_empty() {
            return Ok(quote!(#map::new()));
        }
        let entries = entries
            .iter()
            .map(|(k, v)| {
                let v = self.expr(ty, v)?;
                Ok(quote!((::std::string::String::from(#k), #v)))
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(quote!(#map::from([#(#entries),*])))
    }

    fn def(&self, id: TypeId, value: &Json) -> Expr {
        let def = &self.cx.space.defs[id];
        let path = self.cx.path_to(id, self.module);
        match &def.kind {
            DefKind::Record { named, fields } => {
                let Some(object) = value.as_object() else {
                    return Err(format!(
                        "{value} is not a {} record",
                        named.name.full_name()
                    ));
                };
                let inits =
                    fields
                        .iter()
                        .map(|f| {
                            let v = object.get(&f.avro_name).or(f.default.as_ref()).ok_or_else(
                                || format!("{value} has no value for field {:?}", f.avro_name),
                            )?;
                            let field = ident(&f.ident);
                            let expr = self.expr(&f.ty, v)?;
                            Ok(quote!(#field: #expr,))
                        })
                        .collect::<Result<Vec<_>, String>>()?;
                Ok(quote!(#path { #(#inits)* }))
            }
            DefKind::Enum { named, symbols, .. } => {
                let variant = symbols
                    .iter()
                    .find(|(avro, _)| Some(avro.as_str()) == value.as_str())
                    .ok_or_else(|| {
                        format!("{value} is not a symbol of {}", named.name.full_name())
                    })?;
                let variant = ident(&variant.1);
                Ok(quote!(#path::#variant))
            }
            DefKind::Fixed { named, size } => {
                let bytes = byte_string(value)?;
                if bytes.len() != *size {
                    return Err(format!(
                        "{value} is not {size} bytes long, as {} is",
                        named.name.full_name()
                    ));
                }
                let bytes = bytes.iter().map(|b| Literal::u8_unsuffixed(*b));
                Ok(quote!(#path([#(#bytes),*])))
            }
            DefKind::Union { variants, .. } => variants
                .iter()
                .find_map(|v| {
                    let expr = self.expr(&v.ty, value).ok()?;
                    let variant = ident(&v.ident);
                    Some(quote!(#path::#variant(#expr)))
                })
                .ok_or_else(|| format!("{value} fits no branch of the union")),
        }
    }

    /// The default of a logical type: a call of its Rust type's constructor, from a value
    /// checked here to be one the type holds, so that building it cannot fail.
    fn logical(&self, logical: Logical, value: &Json) -> Expr {
        let rt = &self.cx.runtime;
        match logical {
            Logical::Time { time_crate, kind } => {
                let count = time_count(time_crate, kind, value)?;
                let count = Literal::i64_unsuffixed(count);
                let module = format_ident!("{}", time_crate.runtime_module());
                let function = format_ident!("{}_from_default", kind.helper_suffix());
                Ok(quote!(#rt::__private::#module::#function(#count)))
            }
            Logical::UuidString => {
                let bytes = uuid_bytes(value)?;
                Ok(quote!(#rt::uuid::Uuid::from_bytes(#bytes)))
            }
            Logical::UuidFixed => {
                let bytes = byte_array(&sized_bytes(value, 16)?);
                Ok(quote!(#rt::uuid::Uuid::from_bytes(#bytes)))
            }
            Logical::DecimalBytes { scale, .. } => decimal(rt, &byte_string(value)?, scale),
            Logical::DecimalFixed { size, scale, .. } => {
                decimal(rt, &sized_bytes(value, size)?, scale)
            }
            Logical::Duration => {
                let bytes = sized_bytes(value, 12)?;
                let part = |i: usize| {
                    let n =
                        u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
                    Literal::u32_unsuffixed(n)
                };
                let (months, days, millis) = (part(0), part(4), part(8));
                Ok(quote!(#rt::logical::Duration { months: #months, days: #days, millis: #millis }))
            }
        }
    }
}

/// `[b0, b1, ...]`.
fn byte_array(bytes: &[u8]) -> TokenStream {
    let bytes = bytes.iter().map(|b| Literal::u8_unsuffixed(*b));
    quote!([#(#bytes),*])
}

/// The count of a date or time default, checked against the Avro type and the Rust type.
fn time_count(time_crate: TimeCrate, kind: TimeKind, value: &Json) -> Result<i64, String> {
    let n = value
        .as_i64()
        .ok_or_else(|| format!("{value} is not an integer"))?;
    if kind.base() == "int" && i32::try_from(n).is_err() {
        return Err(format!("{value} is not an int"));
    }
    check_time_range(time_crate, kind, n)?;
    Ok(n)
}

/// The 16 bytes of a UUID default, from its hyphenated text.
fn uuid_bytes(value: &Json) -> Result<TokenStream, String> {
    let s = value
        .as_str()
        .ok_or_else(|| format!("{value} is not a string"))?;
    if !is_hyphenated_uuid(s) {
        return Err(format!("{value} is not a hyphenated UUID"));
    }
    let hex: Vec<u8> = s
        .bytes()
        .filter(|b| *b != b'-')
        .map(|b| match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            _ => b - b'A' + 10,
        })
        .collect();
    let bytes: Vec<u8> = hex.chunks(2).map(|pair| pair[0] << 4 | pair[1]).collect();
    Ok(byte_array(&bytes))
}

/// A decimal default from the big-endian two's-complement bytes of its unscaled value:
/// `Decimal::from_i128` when the value fits `i128`. (Like any value, one with more digits
/// than the precision is refused when it is encoded.)
fn decimal(rt: &syn::Path, unscaled: &[u8], scale: u32) -> Expr {
    let scale = Literal::u32_unsuffixed(scale);
    let Some(n) = to_i128(unscaled) else {
        let bytes = unscaled.iter().map(|b| Literal::u8_suffixed(*b));
        return Ok(quote!(#rt::logical::Decimal::new(::std::vec![#(#bytes),*], #scale)));
    };
    let n = Literal::i128_unsuffixed(n);
    Ok(quote!(#rt::logical::Decimal::from_i128(#n, #scale)))
}

/// A big-endian two's-complement integer of at most 16 bytes (without its redundant sign
/// bytes) as `i128`.
fn to_i128(bytes: &[u8]) -> Option<i128> {
    let negative = bytes.first().is_some_and(|b| b & 0x80 != 0);
    let sign = if negative { 0xff } else { 0 };
    let mut significant = bytes;
    // A sign byte is redundant when the byte after it carries the same sign bit.
    while let [first, second, ..] = significant {
        if *first != sign || (second & 0x80 != 0) != negative {
            break;
        }
        significant = &significant[1..];
    }
    if significant.len() > 16 {
        return None;
    }
    let mut full = [sign; 16];
    full[16 - significant.len()..].copy_from_slice(significant);
    Some(i128::from_be_bytes(full))
}

fn vec_expr(items: Vec<TokenStream>) -> TokenStream {
    if items.is_empty() {
        quote!(::std::vec::Vec::new())
    } else {
        quote!(::std::vec![#(#items),*])
    }
}

/// A float default: a JSON number, or the strings the Java tools write for non-finite values.
fn float(value: &Json, ty: &str) -> Expr {
    let ty = format_ident!("{ty}");
    match value {
        Json::Number(n) => {
            let f = n
                .as_f64()
                .ok_or_else(|| format!("{value} is not a number"))?;
            if ty == "f32" {
                Ok(Literal::f32_unsuffixed(f as f32).into_token_stream())
            } else {
                Ok(Literal::f64_unsuffixed(f).into_token_stream())
            }
        }
        Json::String(s) if s == "NaN" => Ok(quote!(#ty::NAN)),
        Json::String(s) if s == "Infinity" => Ok(quote!(#ty::INFINITY)),
        Json::String(s) if s == "-Infinity" => Ok(quote!(#ty::NEG_INFINITY)),
        _ => Err(format!("{value} is not a number")),
    }
}

/// The bytes of a `bytes`/`fixed` default: a JSON string of code points 0–255.
fn byte_string(value: &Json) -> Result<Vec<u8>, String> {
    let s = value
        .as_str()
        .ok_or_else(|| format!("{value} is not a string of bytes"))?;
    s.chars()
        .map(|c| {
            u8::try_from(u32::from(c)).map_err(|_| format!("{value} has a character above U+00FF"))
        })
        .collect()
}

/// What one time crate's date and date-time types hold: days from the Unix epoch of their
/// first and last dates, and the Rust paths to name in errors.
struct DateRange {
    days: (i64, i64),
    years: (i32, i32),
    date: &'static str,
    instant: &'static str,
}

/// `chrono::NaiveDate::MIN` (-262143-01-01) to `MAX` (262142-12-31).
const CHRONO: DateRange = DateRange {
    days: (-96_465_293, 95_026_236),
    years: (-262_143, 262_142),
    date: "chrono::NaiveDate",
    instant: "chrono::DateTime",
};

/// `time::Date` without the crate's `large-dates` feature: -9999-01-01 to 9999-12-31.
const TIME: DateRange = DateRange {
    days: (-4_371_588, 2_932_896),
    years: (-9_999, 9_999),
    date: "time::Date",
    instant: "time::OffsetDateTime",
};

/// Rejects a date or time default the chosen Rust type cannot hold: the default is built
/// each time it is used, where failing is no longer possible. The generated decoder accepts
/// exactly the same range as data. (With the `raw` time option there is no logical type.)
fn check_time_range(krate: TimeCrate, kind: TimeKind, n: i64) -> Result<(), String> {
    let range = if krate == TimeCrate::Time {
        &TIME
    } else {
        &CHRONO
    };
    let (first_second, last_second) = (range.days.0 * 86_400, range.days.1 * 86_400 + 86_399);
    let (min, max, rust) = match kind {
        TimeKind::Date => (range.days.0, range.days.1, range.date),
        TimeKind::TimeMillis | TimeKind::TimeMicros => {
            let per_day = if kind == TimeKind::TimeMillis {
                86_400_000
            } else {
                86_400_000_000
            };
            let rust = if krate == TimeCrate::Time {
                "time::Time"
            } else {
                "chrono::NaiveTime"
            };
            if (0..per_day).contains(&n) {
                return Ok(());
            }
            return Err(format!(
                "{n} is not a time of day (0 to {}) that {rust} holds",
                per_day - 1
            ));
        }
        TimeKind::TimestampMillis | TimeKind::LocalTimestampMillis => (
            first_second * 1_000,
            last_second * 1_000 + 999,
            range.instant,
        ),
        TimeKind::TimestampMicros | TimeKind::LocalTimestampMicros => (
            first_second * 1_000_000,
            last_second * 1_000_000 + 999_999,
            range.instant,
        ),
        // Every i64 count of nanoseconds lies within years 1677 to 2262.
        TimeKind::TimestampNanos | TimeKind::LocalTimestampNanos => return Ok(()),
    };
    if (min..=max).contains(&n) {
        return Ok(());
    }
    Err(format!(
        "{n} is outside what {rust} holds for a {} ({min} to {max}: years {} to {}); \
         choose the `raw` time option (`--time-crate raw`, `TimeCrate::Raw`) to keep the \
         number as it is",
        kind.name(),
        range.years.0,
        range.years.1,
    ))
}

/// Whether `s` is a UUID in the 36-character hyphenated form the runtime reads.
fn is_hyphenated_uuid(s: &str) -> bool {
    s.len() == 36
        && s.bytes().enumerate().all(|(i, b)| match i {
            8 | 13 | 18 | 23 => b == b'-',
            _ => b.is_ascii_hexdigit(),
        })
}

fn sized_bytes(value: &Json, size: usize) -> Result<Vec<u8>, String> {
    let bytes = byte_string(value)?;
    if bytes.len() == size {
        Ok(bytes)
    } else {
        Err(format!("{value} is not {size} bytes long"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_and_time_defaults_are_checked_against_what_the_rust_types_hold() {
        use TimeCrate::{Chrono, Time};
        use TimeKind::{Date, LocalTimestampMicros, TimeMicros, TimeMillis, TimestampNanos};
        // 9999-12-31 is day 2_932_896 after 1970-01-01, 0001-01-01 is day -719_162.
        for krate in [Chrono, Time] {
            assert!(check_time_range(krate, Date, 2_932_896).is_ok());
            assert!(check_time_range(krate, Date, -719_162).is_ok());
            assert!(check_time_range(krate, TimeMillis, 86_399_999).is_ok());
            assert!(check_time_range(krate, TimeMillis, 86_400_000).is_err());
            assert!(check_time_range(krate, TimeMicros, -1).is_err());
            assert!(check_time_range(krate, TimestampNanos, i64::MIN).is_ok());
        }
        // Past 9999-12-31: chrono holds it, `time` does not.
        assert!(check_time_range(Chrono, Date, 2_932_897).is_ok());
        assert!(check_time_range(Time, Date, 2_932_897).is_err());
        assert!(check_time_range(Chrono, LocalTimestampMicros, 253_402_300_800_000_000).is_ok());
        assert!(check_time_range(Time, LocalTimestampMicros, 253_402_300_800_000_000).is_err());
        // Beyond chrono's range (262142-12-31 is day 95_026_236).
        assert!(check_time_range(Chrono, Date, 95_026_236).is_ok());
        let error = check_time_range(Chrono, Date, 1_681_601_653).unwrap_err();
        assert!(
            error.contains("chrono::NaiveDate") && error.contains("raw"),
            "{error}"
        );
        assert!(check_time_range(Chrono, Date, -96_465_294).is_err());
    }

    #[test]
    fn uuid_defaults_must_be_hyphenated() {
        assert!(is_hyphenated_uuid("123e4567-e89b-12d3-a456-426614174000"));
        assert!(!is_hyphenated_uuid("123e4567e89b12d3a456426614174000"));
        assert!(!is_hyphenated_uuid("123e4567-e89b-12d3-a456-42661417400g"));
        assert!(!is_hyphenated_uuid("not a uuid"));
    }

    #[test]
    fn unscaled_bytes_read_as_i128_when_they_fit() {
        assert_eq!(to_i128(&[]), Some(0));
        assert_eq!(to_i128(&[0xcf, 0xc7]), Some(-12345));
        assert_eq!(to_i128(&[0xff, 0xff, 0x80]), Some(-128));
        assert_eq!(to_i128(&[0x80; 16]), Some(i128::from_be_bytes([0x80; 16])));
        assert_eq!(to_i128(&[[0u8].as_slice(), &[0xff; 16]].concat()), None);
    }

    #[test]
    fn byte_strings_map_code_points_to_bytes() {
        assert_eq!(
            byte_string(&Json::from("\u{0}\u{ff}A")).unwrap(),
            vec![0, 255, 65]
        );
        assert!(byte_string(&Json::from("\u{100}")).is_err());
    }
}
