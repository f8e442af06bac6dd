//! Data contracts: a registered schema's [`Metadata`] and [`RuleSet`], and what the
//! serializers and deserializers do with the rules.
//!
//! A rule a client ignores is worse than one that fails: data that skipped a validation is
//! written as if it passed, or an encrypted field is handed out as if it were the field. So
//! every enabled rule that applies where data is written or read is either run or refused:
//!
//! * `CONDITION` rules of type `CEL` in mode `WRITE`, `READ` or `WRITEREAD` are run, by the
//!   `cel` crate: the record is `message`, its fields `message.field`;
//! * every other rule that applies (transforms such as `ENCRYPT`, field rules such as
//!   `CEL_FIELD`, migration rules when data of another schema version is read, encoding
//!   rules) is refused: the serializer or deserializer fails with a [`RuleError`] naming the
//!   rule, before any value is written or handed out.
//!
//! A serializer applies the `WRITE` and `WRITEREAD` rules of the schema it writes under; a
//! deserializer the `READ` and `WRITEREAD` rules of the schema the data was written with,
//! and, when that schema is not the reader's own, its migration rules (`UPGRADE`,
//! `DOWNGRADE`, `UPDOWN`: without the registry's version numbers of both sides the direction
//! is unknown, so all three are refused). Disabled rules are skipped, and so are rules of
//! the types the caller names as ignored (`SerializerConfig::ignore_rule_types`,
//! `Deserializer::ignore_rule_types`).
//!
//! A condition's expression is compiled when its schema is first used, before the first
//! value is written or read with it, so a malformed expression fails that first use and
//! never lets a value through.

mod cel;
mod error;
mod model;
mod reading;
mod select;

pub use error::{Action, RuleError, RuleFailure};
pub use model::{Metadata, Rule, RuleKind, RuleMode, RuleSet};
pub(crate) use reading::ReadRules;
pub(crate) use select::{Conditions, Direction};
