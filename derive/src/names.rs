//! Avro names: validity, the serde `rename_all` conventions, applied as serde applies them so
//! that serde and Avro agree on every field and symbol name, and the names the derive gives a
//! type, its fields and its variants.

use crate::attrs::{At, Attrs};
use crate::errors::Errors;
use heck::{
    ToKebabCase, ToLowerCamelCase, ToShoutyKebabCase, ToShoutySnakeCase, ToSnakeCase,
    ToUpperCamelCase,
};

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

/// A serde `rename_all` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    /// The rule spelled `text` as in serde, if any.
    pub fn parse(text: &str) -> Option<RenameRule> {
        Some(match text {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// Applies the rule to a Rust identifier (a snake_case field or a PascalCase variant).
    pub fn apply(self, ident: &str) -> String {
        match self {
            RenameRule::Lower => ident.to_ascii_lowercase(),
            RenameRule::Upper => ident.to_ascii_uppercase(),
            RenameRule::Pascal => ident.to_upper_camel_case(),
            RenameRule::Camel => ident.to_lower_camel_case(),
            RenameRule::Snake => ident.to_snake_case(),
            RenameRule::ScreamingSnake => ident.to_shouty_snake_case(),
            RenameRule::Kebab => ident.to_kebab_case(),
            RenameRule::ScreamingKebab => ident.to_shouty_kebab_case(),
        }
    }
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

/// The Avro name of a field or variant: `rename`, else `rename_all` of the Rust ident.
pub(crate) fn member_name(
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

    #[test]
    fn rename_rules_match_serde() {
        assert_eq!(RenameRule::Camel.apply("user_id"), "userId");
        assert_eq!(RenameRule::Pascal.apply("user_id"), "UserId");
        assert_eq!(RenameRule::ScreamingSnake.apply("InStock"), "IN_STOCK");
        assert_eq!(RenameRule::Lower.apply("InStock"), "instock");
        assert_eq!(RenameRule::Snake.apply("InStock"), "in_stock");
    }
}
