//! The `[lint]` settings: a level per rule and the options of some rules. They deserialize
//! from any serde format (the command line reads them from `avdl2rs.toml`); an unknown rule
//! id or option is an error, so a misspelt setting never silently does nothing.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::rule::{Level, Rule};

/// Rule levels and options; a rule the settings do not name has its default level.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    levels: BTreeMap<Rule, Level>,
    /// `[lint.options]`.
    pub options: Options,
}

impl Settings {
    /// The level `rule` runs at.
    pub fn level(&self, rule: Rule) -> Level {
        self.levels
            .get(&rule)
            .copied()
            .unwrap_or(rule.default_level())
    }

    /// Sets the level of `rule`.
    pub fn set_level(&mut self, rule: Rule, level: Level) {
        self.levels.insert(rule, level);
    }
}

/// The options of `[lint.options]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Options {
    /// `field-case`: the case of field names; unset, each file's majority style.
    #[serde(default)]
    pub field_case: Option<FieldCase>,
    /// `union-size`: the most branches a union may have before `union-size` reports it.
    #[serde(default = "Options::default_union_size")]
    pub union_size: usize,
}

impl Options {
    fn default_union_size() -> usize {
        3
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            field_case: None,
            union_size: Options::default_union_size(),
        }
    }
}

/// A case style of field names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum FieldCase {
    /// `orderId`
    #[serde(rename = "camelCase")]
    Camel,
    /// `order_id`
    #[serde(rename = "snake_case")]
    Snake,
}

impl FieldCase {
    /// The style's name, as settings spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            FieldCase::Camel => "camelCase",
            FieldCase::Snake => "snake_case",
        }
    }
}

/// A key of `[lint]`: `options` or a rule id.
enum Key {
    Options,
    Rule(Rule),
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let key = String::deserialize(deserializer)?;
        if key == "options" {
            return Ok(Key::Options);
        }
        Rule::from_id(&key).map(Key::Rule).ok_or_else(|| {
            de::Error::custom(format!(
                "unknown lint rule `{key}`; the rules are {}",
                Rule::all_ids()
            ))
        })
    }
}

impl<'de> Deserialize<'de> for Settings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(SettingsVisitor)
    }
}

struct SettingsVisitor;

impl<'de> Visitor<'de> for SettingsVisitor {
    type Value = Settings;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a table of rule levels (`allow`, `warn`, `error`) and `options`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Settings, A::Error> {
        let mut settings = Settings::default();
        while let Some(key) = map.next_key::<Key>()? {
            match key {
                Key::Options => settings.options = map.next_value()?,
                Key::Rule(rule) => {
                    let level = map.next_value()?;
                    settings.set_level(rule, level);
                }
            }
        }
        Ok(settings)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_options_are_read_and_the_rest_keep_their_defaults() {
        let settings: Settings = toml::from_str(
            "naming = \"error\"\nmissing-doc = \"allow\"\n\
             [options]\nfield-case = \"snake_case\"\nunion-size = 5\n",
        )
        .unwrap();
        assert_eq!(settings.level(Rule::Naming), Level::Error);
        assert_eq!(settings.level(Rule::MissingDoc), Level::Allow);
        assert_eq!(settings.level(Rule::MissingDefault), Level::Warn);
        assert_eq!(settings.options.field_case, Some(FieldCase::Snake));
        assert_eq!(settings.options.union_size, 5);
    }

    #[test]
    fn unknown_rules_levels_and_options_are_errors_at_their_place() {
        let error =
            toml::from_str::<Settings>("naming = \"error\"\nnamin = \"warn\"\n").unwrap_err();
        assert!(
            error.message().contains("unknown lint rule `namin`"),
            "{error}"
        );
        assert_eq!(error.span().map(|s| s.start), Some(17), "{error}");
        let error = toml::from_str::<Settings>("naming = \"loud\"\n").unwrap_err();
        assert!(
            error.message().contains("unknown variant `loud`"),
            "{error}"
        );
        let error = toml::from_str::<Settings>("[options]\nunion = 3\n").unwrap_err();
        assert!(error.message().contains("unknown field `union`"), "{error}");
    }
}
