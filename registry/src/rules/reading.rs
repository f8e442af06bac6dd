//! The rules a deserializer runs: those of each writer schema it has fetched, found when the
//! schema is fetched and looked up by the frame's schema id for each message.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use avdl2rs::schema::SchemaSet;

use super::error::RuleError;
use super::select::{Conditions, Direction};
use crate::types::Schema;

/// The conditions to run, or the refusal, of each writer schema id that has rules.
#[derive(Default)]
pub(crate) struct ReadRules {
    /// Whether any writer schema has rules: the one load of the path without them.
    any: AtomicBool,
    by_id: RwLock<HashMap<i32, Result<Arc<Conditions>, RuleError>>>,
}

impl ReadRules {
    /// Keeps the rules of the writer schema `id`, `schema` assembled as `json`, for a
    /// reader that reads data of the schema with a given Parsing Canonical Form as written
    /// when `unchanged` says so (migration rules apply otherwise); rules of the `ignored`
    /// types are skipped. Call it before the schema is made available for reading.
    pub(crate) fn insert(
        &self,
        id: i32,
        schema: &Schema,
        json: &str,
        unchanged: impl FnOnce(&str) -> bool,
        ignored: &BTreeSet<String>,
    ) {
        let rule_set = schema.rule_set.as_ref();
        let migrates = rule_set.is_some_and(|set| set.migration_rules.iter().any(|r| !r.disabled));
        let migrating = migrates && !canonical(json).is_some_and(|writer| unchanged(&writer));
        let direction = Direction::Read { migrating };
        let found = match Conditions::of(rule_set, direction, ignored, json) {
            Ok(None) => return,
            Ok(Some(conditions)) => Ok(conditions),
            Err(refused) => Err(refused),
        };
        let mut by_id = self.by_id.write().unwrap_or_else(PoisonError::into_inner);
        by_id.insert(id, found);
        self.any.store(true, Ordering::Release);
    }

    /// Runs the rules of the writer schema `id` on the `body` it wrote: the refusal of a
    /// rule that cannot be run, or the condition that stopped the value.
    #[inline]
    pub(crate) fn check(&self, id: i32, body: &[u8]) -> Result<(), RuleError> {
        if !self.any.load(Ordering::Acquire) {
            return Ok(());
        }
        let by_id = self.by_id.read().unwrap_or_else(PoisonError::into_inner);
        match by_id.get(&id) {
            None => Ok(()),
            Some(Ok(conditions)) => conditions.check(body),
            Some(Err(refused)) => Err(refused.clone()),
        }
    }
}

/// The Parsing Canonical Form of the schema `json`, if it is valid.
fn canonical(json: &str) -> Option<String> {
    let mut set = SchemaSet::new();
    let root = set.parse_str(json).ok()?;
    Some(set.canonical_form(&root))
}
