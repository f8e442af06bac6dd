//! Rust names for Avro names: the one place where case conversion and keyword escaping happen.
//!
//! Avro names match `[A-Za-z_][A-Za-z0-9_]*`, but schemas in the wild (and namespaces, enum
//! symbols written by other tools) stray from that, and many valid Avro names are Rust
//! keywords. Every conversion here returns a string that `syn::parse_str::<syn::Ident>`
//! accepts; the Avro name itself is kept by the caller (for `#[serde(rename)]`, the schema
//! constants and error paths).

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Keywords that `r#` makes usable as identifiers.
const RAW_KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
    "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn",
    "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
    "virtual", "yield", "try", "gen",
];

/// Keywords that cannot be raw identifiers; they get a `_` suffix instead.
const SUFFIX_KEYWORDS: &[&str] = &["self", "Self", "super", "crate", "_"];

/// The name of a generated type (struct or enum): `UpperCamelCase`.
pub fn type_name(avro: &str) -> String {
    escape(&sanitize(avro).to_upper_camel_case(), 'T')
}

/// The name of a struct field: `snake_case`.
pub fn field_name(avro: &str) -> String {
    escape(&sanitize(avro).to_snake_case(), 'f')
}

/// The name of an enum variant (from an enum symbol or a union branch): `UpperCamelCase`,
/// as rustc's `non_camel_case_types` lint expects.
pub fn variant_name(avro: &str) -> String {
    type_name(avro)
}

/// The name of a module for one namespace component: `snake_case`.
pub fn module_name(avro: &str) -> String {
    escape(&sanitize(avro).to_snake_case(), 'm')
}

/// The module path (module idents from the root) of the types of `namespace`: the root for
/// the null namespace, or for every namespace with `flat` modules.
pub fn module_path(namespace: &str, flat: bool) -> Vec<String> {
    if flat || namespace.is_empty() {
        return Vec::new();
    }
    namespace.split('.').map(module_name).collect()
}

/// Replaces every character that cannot appear in an identifier with `_`.
fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Makes a converted name a valid identifier: `r#` for keywords, a `_` suffix for the
/// keywords that cannot be raw, and `prefix` before a leading digit or an empty name.
fn escape(converted: &str, prefix: char) -> String {
    if converted.is_empty() || converted.chars().all(|c| c == '_') {
        return format!("{prefix}_");
    }
    if converted.starts_with(|c: char| c.is_ascii_digit()) {
        return format!("{prefix}{converted}");
    }
    if SUFFIX_KEYWORDS.contains(&converted) {
        return format!("{converted}_");
    }
    if RAW_KEYWORDS.contains(&converted) {
        return format!("r#{converted}");
    }
    converted.to_string()
}

/// The identifier without a leading `r#`, for building derived names such as `default_type`.
pub fn unraw(ident: &str) -> &str {
    ident.strip_prefix("r#").unwrap_or(ident)
}

/// Returns `base`, or `base` followed by the smallest number from 2 up that `taken` does not
/// hold, so that generated names never collide.
pub fn unique(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}{n}"))
        .find(|candidate| !taken(candidate))
        .expect("an unbounded range always yields a free name")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_ident(name: &str) {
        syn::parse_str::<syn::Ident>(name)
            .unwrap_or_else(|e| panic!("{name:?} is not a valid identifier: {e}"));
    }

    #[test]
    fn types_are_upper_camel_case() {
        assert_eq!(type_name("order_event"), "OrderEvent");
        assert_eq!(type_name("MD5"), "Md5");
        assert_eq!(type_name("TestRecord"), "TestRecord");
    }

    #[test]
    fn fields_are_snake_case() {
        assert_eq!(field_name("nullableHash"), "nullable_hash");
        assert_eq!(field_name("ID"), "id");
        assert_eq!(field_name("intField"), "int_field");
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("match"), "r#match");
        assert_eq!(field_name("self"), "self_");
        assert_eq!(field_name("super"), "super_");
        assert_eq!(field_name("crate"), "crate_");
        assert_eq!(type_name("Self"), "Self_");
        assert_eq!(type_name("self"), "Self_");
        assert_eq!(module_name("async"), "r#async");
    }

    #[test]
    fn hostile_names_become_identifiers() {
        let hostile = [
            "", "_", "__", "1abc", "9", "a-b", "a.b", "ü", "Self", "self", "crate", "super",
            "type", "fn", "gen", "try", "dyn", "default", "class", "int", "Option", "__x", "X_",
            "a  b", "$", "_1",
        ];
        for name in hostile {
            assert_ident(&type_name(name));
            assert_ident(&field_name(name));
            assert_ident(&variant_name(name));
            assert_ident(&module_name(name));
        }
        assert_eq!(type_name("1abc"), "T1abc");
        assert_eq!(field_name("9"), "f9");
        assert_eq!(field_name("a-b"), "a_b");
        assert_eq!(field_name(""), "f_");
    }

    /// Generated code names the runtime through `__avro` (see `avdl2rs_emit::type_impls`):
    /// no module or type made from a schema name may be spelled so.
    #[test]
    fn no_name_starts_with_an_underscore() {
        for name in ["__avro", "_avro", "__", "_1", "__x__", "_Avro", "a._b"] {
            for made in [type_name(name), module_name(name), variant_name(name)] {
                assert!(!made.starts_with('_'), "{name:?} became {made:?}");
            }
        }
    }

    #[test]
    fn unique_appends_the_first_free_number() {
        let taken = ["A", "A2"];
        assert_eq!(unique("A", |n| taken.contains(&n)), "A3");
        assert_eq!(unique("B", |n| taken.contains(&n)), "B");
    }

    #[test]
    fn namespaces_become_module_paths_unless_flat() {
        assert_eq!(
            module_path("com.Example.async", false),
            ["com", "example", "r#async"]
        );
        assert!(module_path("com.example", true).is_empty());
        assert!(module_path("", false).is_empty());
    }

    #[test]
    fn unraw_strips_the_raw_prefix() {
        assert_eq!(unraw("r#type"), "type");
        assert_eq!(unraw("name"), "name");
    }
}
