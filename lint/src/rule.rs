//! The rules: their stable ids, default levels and one-line descriptions, in one table that
//! the settings, the renderers and the documentation all read.

use std::fmt;

/// How a finding of a rule counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The rule does not run.
    Allow,
    /// Reported; does not fail the check.
    Warn,
    /// Reported; fails the check (exit code 1).
    Error,
}

impl Level {
    /// The spelling in settings and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }
}

/// Declares [`Rule`] with its table: variant, id, default level, description.
macro_rules! rules {
    ($($(#[$doc:meta])* $variant:ident = $id:literal, $level:ident, $what:literal;)*) => {
        /// A lint rule.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($(#[$doc])* $variant,)*
        }

        impl Rule {
            /// Every rule, in the order of the documentation.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The stable id, as settings, suppression comments and reports spell it.
            pub fn id(self) -> &'static str {
                match self { $(Rule::$variant => $id,)* }
            }

            /// The level when the settings do not name the rule.
            pub fn default_level(self) -> Level {
                match self { $(Rule::$variant => Level::$level,)* }
            }

            /// What the rule finds and why it matters, in one sentence.
            pub fn description(self) -> &'static str {
                match self { $(Rule::$variant => $what,)* }
            }
        }
    };
}

rules! {
    /// `invalid-default`
    InvalidDefault = "invalid-default", Error,
        "A default that does not match its field's type, or a union default that is not of the union's first branch: readers fail on it or disagree about it.";
    /// `missing-default`
    MissingDefault = "missing-default", Warn,
        "A record field without a default: it cannot be removed later under FORWARD or FULL compatibility, nor added under BACKWARD.";
    /// `nullable-default`
    NullableDefault = "nullable-default", Warn,
        "A union with `null` where `null` is not the first branch or the default is not `null`: an optional field should be absent by default.";
    /// `enum-default`
    EnumDefault = "enum-default", Warn,
        "An enum without a default symbol: readers of an older version fail on any symbol added later.";
    /// `missing-doc`
    MissingDoc = "missing-doc", Warn,
        "A record, enum, fixed or field without documentation.";
    /// `naming`
    Naming = "naming", Warn,
        "Names off the convention: PascalCase types, camelCase or snake_case fields (one style per file), UPPER_SNAKE enum symbols.";
    /// `missing-namespace`
    MissingNamespace = "missing-namespace", Warn,
        "A named type in the null namespace: its name can clash with any other schema's.";
    /// `decimal`
    Decimal = "decimal", Error,
        "A decimal with a scale above its precision, a precision its fixed size cannot hold, or a base type other than bytes or fixed: Avro ignores it and the field reads as raw bytes.";
    /// `logical-type`
    LogicalType = "logical-type", Error,
        "A logical type on a base type it does not apply to: Avro silently ignores it.";
    /// `float-money`
    FloatMoney = "float-money", Warn,
        "A float or double field named like an amount of money: binary floating point cannot hold most decimal amounts exactly; use decimal.";
    /// `unused-import`
    UnusedImport = "unused-import", Warn,
        "An IDL import none of whose types the importing file uses.";
    /// `unused-type`
    UnusedType = "unused-type", Warn,
        "A named type that nothing uses: not reachable from the messages of a protocol that has messages, nor from the `schema` of a schema file.";
    /// `union-size`
    UnionSize = "union-size", Warn,
        "A union with more branches than `union-size` allows (3 by default): wide unions are hard to evolve and to read in most languages.";
    /// `rename-without-alias`
    RenameWithoutAlias = "rename-without-alias", Warn,
        "With --against-git: a field or type removed and one of the same type added without an alias naming the old one, which loses the data under the old name.";
    /// `removed-symbol`
    RemovedSymbol = "removed-symbol", Warn,
        "With --against-git: an enum symbol removed; readers of the new version fail on data with it unless the enum has a default.";
}

impl Rule {
    /// The rule with id `id`.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|rule| rule.id() == id)
    }

    /// Every id, comma-separated, for messages naming an unknown one.
    pub fn all_ids() -> String {
        let ids: Vec<&str> = Rule::ALL.iter().map(|rule| rule.id()).collect();
        ids.join(", ")
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
