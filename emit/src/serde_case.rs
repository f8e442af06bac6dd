//! serde's `rename_all` case conventions, spelled as serde spells them.
//!
//! A struct's Avro field names and an enum's Avro symbols must be the names serde gives the
//! same fields and variants, or a value written with serde (to JSON, say) and its Avro schema
//! disagree. Both the derive (reading `rename_all` off a hand-written type) and code generation
//! (choosing one `rename_all` for a generated enum instead of a `rename` per variant) therefore
//! ask this one table. serde applies a rule differently to a field (written in snake_case) and
//! to a variant (written in PascalCase), and not as a general case-conversion library would:
//! `HTTPServer` in `snake_case` is `h_t_t_p_server`.

/// One of serde's `rename_all` rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

impl RenameRule {
    /// Every rule, in the order serde's documentation lists them.
    pub const ALL: [RenameRule; 8] = [
        RenameRule::Lower,
        RenameRule::Upper,
        RenameRule::Pascal,
        RenameRule::Camel,
        RenameRule::Snake,
        RenameRule::ScreamingSnake,
        RenameRule::Kebab,
        RenameRule::ScreamingKebab,
    ];

    /// The rule's name as serde's attribute spells it.
    pub fn name(self) -> &'static str {
        match self {
            RenameRule::Lower => "lowercase",
            RenameRule::Upper => "UPPERCASE",
            RenameRule::Pascal => "PascalCase",
            RenameRule::Camel => "camelCase",
            RenameRule::Snake => "snake_case",
            RenameRule::ScreamingSnake => "SCREAMING_SNAKE_CASE",
            RenameRule::Kebab => "kebab-case",
            RenameRule::ScreamingKebab => "SCREAMING-KEBAB-CASE",
        }
    }

    /// The rule spelled `text`, if serde has one of that name.
    pub fn parse(text: &str) -> Option<RenameRule> {
        RenameRule::ALL.into_iter().find(|rule| rule.name() == text)
    }

    /// The name serde gives a field whose Rust name is `field` (snake_case).
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => pascal_of_snake(field),
            RenameRule::Camel => lower_first(&pascal_of_snake(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// The name serde gives a variant whose Rust name is `variant` (PascalCase).
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => snake_of_pascal(variant),
            RenameRule::ScreamingSnake => snake_of_pascal(variant).to_ascii_uppercase(),
            RenameRule::Kebab => snake_of_pascal(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => snake_of_pascal(variant)
                .to_ascii_uppercase()
                .replace('_', "-"),
        }
    }
}

/// Each `_`-separated word with its first letter in upper case, the `_` dropped.
fn pascal_of_snake(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut word_start = true;
    for c in field.chars() {
        if c == '_' {
            word_start = true;
        } else if word_start {
            out.push(c.to_ascii_uppercase());
            word_start = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `_` before every upper-case letter but a first one, then all in lower case.
fn snake_of_pascal(variant: &str) -> String {
    let mut out = String::with_capacity(variant.len() + 4);
    for (i, c) in variant.char_indices() {
        if i > 0 && c.is_uppercase() {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// The first character in lower case, the rest as it is.
fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_lowercase().to_string() + chars.as_str()
    })
}

#[cfg(test)]
mod tests {
    use super::RenameRule;
    use serde::Serialize;

    /// A struct and an enum under each of serde's rules, whose serde names are compared with
    /// the table's: serde itself is the reference.
    macro_rules! serde_names {
        ($($rule:literal => $module:ident),* $(,)?) => {$(
            mod $module {
                #[derive(serde::Serialize, Default)]
                #[serde(rename_all = $rule)]
                pub struct Fields {
                    pub user_id: u8,
                    pub http2_port: u8,
                    pub a_b_c: u8,
                    pub x: u8,
                    pub trailing_: u8,
                }

                #[derive(serde::Serialize)]
                #[serde(rename_all = $rule)]
                pub enum Variants {
                    DarkBlue,
                    HTTPServer,
                    Red,
                    IPv4,
                    A1B,
                }
            }
        )*};
    }

    serde_names! {
        "lowercase" => lower,
        "UPPERCASE" => upper,
        "PascalCase" => pascal,
        "camelCase" => camel,
        "snake_case" => snake,
        "SCREAMING_SNAKE_CASE" => screaming_snake,
        "kebab-case" => kebab,
        "SCREAMING-KEBAB-CASE" => screaming_kebab,
    }

    const FIELDS: [&str; 5] = ["user_id", "http2_port", "a_b_c", "x", "trailing_"];
    const VARIANTS: [&str; 5] = ["DarkBlue", "HTTPServer", "Red", "IPv4", "A1B"];

    /// serde's names of the fields of `fields` and of the variants `variants`.
    fn serde_spelling<F: Serialize, V: Serialize>(fields: F, variants: [V; 5]) -> [Vec<String>; 2] {
        let object = serde_json::to_value(fields).unwrap();
        let fields = object.as_object().unwrap().keys().cloned().collect();
        let variants = variants
            .iter()
            .map(|v| {
                serde_json::to_value(v)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        [fields, variants]
    }

    macro_rules! spelled_by_serde {
        ($module:ident) => {{
            use $module::{Fields, Variants::*};
            serde_spelling(Fields::default(), [DarkBlue, HTTPServer, Red, IPv4, A1B])
        }};
    }

    #[test]
    fn every_rule_spells_fields_and_variants_as_serde_does() {
        let by_serde = [
            spelled_by_serde!(lower),
            spelled_by_serde!(upper),
            spelled_by_serde!(pascal),
            spelled_by_serde!(camel),
            spelled_by_serde!(snake),
            spelled_by_serde!(screaming_snake),
            spelled_by_serde!(kebab),
            spelled_by_serde!(screaming_kebab),
        ];
        for (rule, [fields, variants]) in RenameRule::ALL.into_iter().zip(by_serde) {
            let ours: Vec<String> = FIELDS.iter().map(|f| rule.apply_to_field(f)).collect();
            assert_eq!(ours, fields, "fields under {}", rule.name());
            let ours: Vec<String> = VARIANTS.iter().map(|v| rule.apply_to_variant(v)).collect();
            assert_eq!(ours, variants, "variants under {}", rule.name());
            assert_eq!(RenameRule::parse(rule.name()), Some(rule));
        }
        assert_eq!(RenameRule::parse("Title Case"), None);
        // Where serde differs from case-conversion libraries, which read `HTTP` as one word.
        assert_eq!(
            RenameRule::Snake.apply_to_variant("HTTPServer"),
            "h_t_t_p_server"
        );
    }
}
