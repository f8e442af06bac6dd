//! The serde `rename_all` conventions, applied as serde applies them so that serde and Avro
//! agree on every field and symbol name.

use heck::{
    ToKebabCase, ToLowerCamelCase, ToShoutyKebabCase, ToShoutySnakeCase, ToSnakeCase,
    ToUpperCamelCase,
};

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rename_rules_match_serde() {
        assert_eq!(RenameRule::Camel.apply("user_id"), "userId");
        assert_eq!(RenameRule::Pascal.apply("user_id"), "UserId");
        assert_eq!(RenameRule::ScreamingSnake.apply("InStock"), "IN_STOCK");
        assert_eq!(RenameRule::Lower.apply("InStock"), "instock");
        assert_eq!(RenameRule::Snake.apply("InStock"), "in_stock");
    }
}
