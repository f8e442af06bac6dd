//! Field defaults as Rust expressions: `#[serde(default = ...)]` functions, each record's
//! `new` (the fields without defaults as arguments) and `impl Default` for records whose
//! fields all have defaults.
//!
//! A default is checked against the field's type while its expression is built, so a default
//! that does not fit is a generation error naming the record and field. Logical types have no
//! literal syntax in their Rust crates, so their defaults are written as the Avro binary
//! encoding of the JSON value, decoded by the runtime's helper when the default is needed.

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
    let mut functions = Vec::new();
    let mut errors = Vec::new();
    for field in fields {
        let Some(default) = &field.default else {
            continue;
        };
        let expr = match writer.expr(&field.ty, default) {
            Ok(expr) => expr,
            Err(message) => {
                errors.push(Error::InvalidDefault {
                    origin: String::new(),
                    record: named.name.full_name(),
                    field: field.avro_name.clone(),
                    message,
                });
                continue;
            }
        };
        let name = format_ident!("{}", default_fn_name(field));
        let ty = rust_type(cx, &field.ty, &def.module);
        functions.push(match field.ty {
            TypeRef::Null => quote!(fn #name() {}),
            _ => quote!(fn #name() -> #ty { #expr }),
        });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let name = ident(&def.ident);
    let constructor = constructor(cx, def, fields);
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
/// their defaults: code that builds a record this way (with struct update syntax for the
/// defaulted fields it sets) keeps compiling when a field with a default is added to the
/// schema, the compatible change readers expect writers to make.
fn constructor(cx: &Context<'_>, def: &TypeDef, fields: &[FieldDef]) -> TokenStream {
    let required = fields.iter().filter(|f| f.default.is_none());
    let params = required.map(|f| {
        let name = ident(&f.ident);
        let ty = rust_type(cx, &f.ty, &def.module);
        quote!(#name: #ty)
    });
    let inits = fields.iter().map(|f| {
        let name = ident(&f.ident);
        if f.default.is_some() {
            let function = format_ident!("{}", default_fn_name(f));
            quote!(#name: Self::#function(),)
        } else {
            quote!(#name,)
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

    /// The default of a logical type: its Avro encoding, decoded when the default is used.
    fn logical(&self, logical: Logical, value: &Json) -> Expr {
        let bytes = logical_encoding(logical, value)?;
        let rt = &self.cx.runtime;
        let decode = avdl2rs_emit::decode_logical(&logical);
        let bytes = bytes.iter().map(|b| Literal::u8_unsuffixed(*b));
        Ok(quote! {{
            use #rt::__private as __avro;
            let reader = &mut __avro::codec::Reader::new(&[#(#bytes),*]);
            #decode.expect("the default's encoding was written when the code was generated")
        }})
    }
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

/// The Avro binary encoding of a logical type's default, from its base type's JSON.
fn logical_encoding(logical: Logical, value: &Json) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    match logical {
        Logical::Time { time_crate, kind } => {
            let n = value
                .as_i64()
                .ok_or_else(|| format!("{value} is not an integer"))?;
            if kind.base() == "int" && i32::try_from(n).is_err() {
                return Err(format!("{value} is not an int"));
            }
            check_time_range(time_crate, kind, n)?;
            write_varint(&mut out, n);
        }
        Logical::UuidString => {
            let s = value
                .as_str()
                .ok_or_else(|| format!("{value} is not a string"))?;
            if !is_hyphenated_uuid(s) {
                return Err(format!("{value} is not a hyphenated UUID"));
            }
            write_varint(&mut out, s.len() as i64);
            out.extend_from_slice(s.as_bytes());
        }
        Logical::DecimalBytes { .. } => {
            let bytes = byte_string(value)?;
            write_varint(&mut out, bytes.len() as i64);
            out.extend(bytes);
        }
        Logical::UuidFixed => out = sized_bytes(value, 16)?,
        Logical::DecimalFixed { size, .. } => out = sized_bytes(value, size)?,
        Logical::Duration => out = sized_bytes(value, 12)?,
    }
    Ok(out)
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

/// Rejects a date or time default the chosen Rust type cannot hold: the default is decoded
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

/// Avro's zig-zag variable-length encoding of an `int` or `long`.
fn write_varint(out: &mut Vec<u8>, n: i64) {
    let mut z = ((n << 1) ^ (n >> 63)) as u64;
    while z >= 0x80 {
        out.push((z as u8) | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
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
    fn varints_follow_the_specification_examples() {
        // Avro specification, "Binary Encoding": 0 → 00, -1 → 01, 1 → 02, -2 → 03, 2 → 04,
        // -64 → 7f, 64 → 80 01.
        let cases: [(i64, &[u8]); 7] = [
            (0, &[0]),
            (-1, &[1]),
            (1, &[2]),
            (-2, &[3]),
            (2, &[4]),
            (-64, &[0x7f]),
            (64, &[0x80, 1]),
        ];
        for (n, expected) in cases {
            let mut out = Vec::new();
            write_varint(&mut out, n);
            assert_eq!(out, expected, "{n}");
        }
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
