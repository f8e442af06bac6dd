//! Schema compatibility (Avro specification, "Schema Resolution"), and the Schema Registry
//! levels built on it.
//!
//! [`can_read`] lists every reason a reader schema cannot read data written with a writer
//! schema; [`check`] applies a [`CompatLevel`] to a new schema and its previous versions.
//! The resolving decoder ([`crate::resolve`]) uses the same rules, so a schema pair this
//! module accepts is one the decoder can read.
//!
//! ```
//! use avdl2rs::compat::{check, CompatLevel, SchemaRef};
//! use avdl2rs::schema::SchemaSet;
//!
//! let v1 = r#"{"type":"record","name":"User","fields":[{"name":"id","type":"long"}]}"#;
//! // v2 adds a field with a default: new readers can read old data (BACKWARD)...
//! let v2 = r#"{"type":"record","name":"User","fields":[{"name":"id","type":"long"},
//!     {"name":"email","type":"string","default":""}]}"#;
//! // ...v3 adds one without a default: they cannot.
//! let v3 = r#"{"type":"record","name":"User","fields":[{"name":"id","type":"long"},
//!     {"name":"email","type":"string"}]}"#;
//!
//! // Each version in a set of its own: they share the name `User`.
//! let sets = [v1, v2, v3].map(|json| {
//!     let mut set = SchemaSet::new();
//!     let schema = set.parse_str(json).unwrap();
//!     (set, schema)
//! });
//! let [v1, v2, v3] = sets.each_ref().map(|(set, schema)| SchemaRef::new(set, schema));
//! assert!(check(CompatLevel::Backward, v2, &[v1]).is_empty());
//! let violations = check(CompatLevel::Backward, v3, &[v1]);
//! assert_eq!(violations.len(), 1);
//! ```

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use serde_json::Value;

use crate::schema::{Schema, SchemaSet};

mod check;
pub(crate) mod rules;

/// A schema together with the set holding the named types it uses.
#[derive(Debug, Clone, Copy)]
pub struct SchemaRef<'a> {
    /// The named types.
    pub set: &'a SchemaSet,
    /// The schema.
    pub schema: &'a Schema,
}

impl<'a> SchemaRef<'a> {
    /// Pairs `schema` with the `set` it was parsed into.
    pub fn new(set: &'a SchemaSet, schema: &'a Schema) -> Self {
        SchemaRef { set, schema }
    }
}

/// One reason a reader cannot read a writer's data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Incompatibility {
    /// What kind of problem it is.
    pub kind: IncompatibilityKind,
    /// Where, as a JSON Pointer into the reader's schema with fields named
    /// (`/fields/amount/type`); union branches are numbered by the writer's union.
    pub location: String,
    /// What is wrong, in words.
    pub message: String,
    /// The reader's schema at that place.
    pub reader: Value,
    /// The writer's schema at that place.
    pub writer: Value,
}

/// The kinds of incompatibility (the names the Java reference's checker uses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum IncompatibilityKind {
    /// The types differ and no promotion applies.
    TypeMismatch,
    /// Two named types whose names (and the reader's aliases) do not match.
    NameMismatch,
    /// Two fixed types of different sizes.
    FixedSizeMismatch,
    /// Writer enum symbols the reader lacks, with no reader default to fall back on.
    MissingEnumSymbols,
    /// A reader field the writer does not write, without a default.
    ReaderFieldMissingDefault,
    /// A writer type no branch of the reader's union reads.
    MissingUnionBranch,
    /// Two decimals of different precision or scale.
    DecimalMismatch,
}

impl fmt::Display for Incompatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// Every reason `reader` cannot read data written with `writer`; empty when it can.
pub fn can_read(reader: SchemaRef<'_>, writer: SchemaRef<'_>) -> Vec<Incompatibility> {
    check::Checker::run(reader, writer)
}

/// The Schema Registry compatibility levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompatLevel {
    /// The new schema reads data written with the latest previous one.
    Backward,
    /// The new schema reads data written with every previous one.
    BackwardTransitive,
    /// The latest previous schema reads data written with the new one.
    Forward,
    /// Every previous schema reads data written with the new one.
    ForwardTransitive,
    /// Backward and forward against the latest previous schema.
    Full,
    /// Backward and forward against every previous schema.
    FullTransitive,
    /// No check.
    None,
}

/// Which way data flows in a failed check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// The new schema reading data written with a previous version.
    Backward,
    /// A previous version reading data written with the new schema.
    Forward,
}

/// An incompatibility found by [`check`], with the version and direction it was found in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// The index of the previous version in the list given to [`check`] (oldest first).
    pub version: usize,
    /// Which schema was the reader.
    pub direction: Direction,
    /// What is wrong.
    #[serde(flatten)]
    pub incompatibility: Incompatibility,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (version, problem) = (self.version, &self.incompatibility);
        match self.direction {
            Direction::Backward => write!(
                f,
                "the new schema cannot read data written with version {version}: {problem}"
            ),
            Direction::Forward => write!(
                f,
                "version {version} cannot read data written with the new schema: {problem}"
            ),
        }
    }
}

impl CompatLevel {
    /// Every level, in the order the Schema Registry lists them.
    pub const ALL: [CompatLevel; 7] = [
        CompatLevel::Backward,
        CompatLevel::BackwardTransitive,
        CompatLevel::Forward,
        CompatLevel::ForwardTransitive,
        CompatLevel::Full,
        CompatLevel::FullTransitive,
        CompatLevel::None,
    ];

    /// The Schema Registry spelling (`BACKWARD_TRANSITIVE`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            CompatLevel::Backward => "BACKWARD",
            CompatLevel::BackwardTransitive => "BACKWARD_TRANSITIVE",
            CompatLevel::Forward => "FORWARD",
            CompatLevel::ForwardTransitive => "FORWARD_TRANSITIVE",
            CompatLevel::Full => "FULL",
            CompatLevel::FullTransitive => "FULL_TRANSITIVE",
            CompatLevel::None => "NONE",
        }
    }

    /// The directions this level checks.
    pub fn directions(self) -> &'static [Direction] {
        use CompatLevel as L;
        match self {
            L::Backward | L::BackwardTransitive => &[Direction::Backward],
            L::Forward | L::ForwardTransitive => &[Direction::Forward],
            L::Full | L::FullTransitive => &[Direction::Backward, Direction::Forward],
            L::None => &[],
        }
    }

    /// Whether every previous version is checked, not only the latest.
    pub fn is_transitive(self) -> bool {
        matches!(
            self,
            CompatLevel::BackwardTransitive
                | CompatLevel::ForwardTransitive
                | CompatLevel::FullTransitive
        )
    }
}

impl fmt::Display for CompatLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A compatibility level name that is not one of [`CompatLevel::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown compatibility level {0:?}: expected one of BACKWARD, BACKWARD_TRANSITIVE, FORWARD, FORWARD_TRANSITIVE, FULL, FULL_TRANSITIVE, NONE")]
pub struct UnknownLevel(pub String);

impl FromStr for CompatLevel {
    type Err = UnknownLevel;

    /// Accepts the Schema Registry names, in any letter case, with `-` for `_`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let normal = s.to_ascii_uppercase().replace('-', "_");
        CompatLevel::ALL
            .into_iter()
            .find(|level| level.as_str() == normal)
            .ok_or_else(|| UnknownLevel(s.to_owned()))
    }
}

/// Checks `new` against `previous` (oldest first) at `level`: non-transitive levels compare
/// with the last version only. Returns every violation, in version order.
pub fn check(level: CompatLevel, new: SchemaRef<'_>, previous: &[SchemaRef<'_>]) -> Vec<Violation> {
    let first = if level.is_transitive() {
        0
    } else {
        previous.len().saturating_sub(1)
    };
    let mut violations = Vec::new();
    for (version, old) in previous.iter().enumerate().skip(first) {
        for &direction in level.directions() {
            let (reader, writer) = match direction {
                Direction::Backward => (new, *old),
                Direction::Forward => (*old, new),
            };
            violations.extend(can_read(reader, writer).into_iter().map(|incompatibility| {
                Violation {
                    version,
                    direction,
                    incompatibility,
                }
            }));
        }
    }
    violations
}
