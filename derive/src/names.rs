//! Avro names: validity, and the names the derive gives a type, its fields and its variants
//! (with the serde `rename_all` rule of `rename`).

use crate::attrs::{At, Attrs};
use crate::emit::RenameRule;
use crate::errors::Errors;

/// Whether `name` is a valid Avro name: `[A-Za-z_][A-Za-z0-9_]*`.
pub(crate) fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `namespace` is a valid Avro namespace: dot-separated names.
pub(crate) fn is_valid_namespace(namespace: &str) -> bool {
    namespace.split('.').all(is_valid_name)
}

/// The type's Avro name: `name`/`serde(rename)`, else the Rust ident.
pub(crate) fn avro_name(container: &Attrs, ident: &syn::Ident, errors: &mut Errors) -> String {
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
pub(crate) fn checked_names(list: &[At<String>], errors: &mut Errors, full: bool) -> Vec<String> {
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

/// How a `rename_all` rule spells a member: serde spells fields and variants differently
/// ([`RenameRule::apply_to_field`], [`RenameRule::apply_to_variant`]).
pub(crate) type Spelling = fn(RenameRule, &str) -> String;

/// The Avro name of a field or variant: `rename`, else `rename_all` of the Rust ident,
/// spelled by `spelling`.
pub(crate) fn member_name(
    attrs: &Attrs,
    ident: &syn::Ident,
    container: &Attrs,
    spelling: Spelling,
    errors: &mut Errors,
) -> String {
    let (name, span) = match (&attrs.name, container.rename_all) {
        (Some(name), _) => (name.value.clone(), name.span),
        (None, Some(rule)) => (spelling(rule, &unraw(ident)), ident.span()),
        (None, None) => (unraw(ident), ident.span()),
    };
    if !is_valid_name(&name) {
        errors.at_span(span, format!("{name:?} is not a valid Avro name"));
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_specification() {
        assert!(is_valid_name("_a1"));
        assert!(!is_valid_name("1a"));
        assert!(!is_valid_name("a-b"));
        assert!(!is_valid_name(""));
        assert!(is_valid_namespace("com.example"));
        assert!(!is_valid_namespace("com..example"));
    }
}
