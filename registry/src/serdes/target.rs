//! Where a serializer writes a subject's values: a leaf below both the serializer, which
//! finds and keeps targets, and the per-thread entries that remember the last one.

use std::sync::Arc;
use std::time::Instant;

use avdl2rs::resolve::ResolutionPlan;

use crate::rules::Conditions;

/// Where a subject's values go: the id, and the translation to its schema when that is not
/// the type's own.
#[derive(Clone)]
pub(crate) struct Target {
    pub(crate) id: i32,
    pub(super) translate: Option<Arc<ResolutionPlan>>,
    pub(super) expires: Option<Instant>,
    /// The conditions of the schema's rules, run on each value written.
    pub(super) rules: Option<Arc<Conditions>>,
}

impl Target {
    /// Writes under `id` the type's own encoding, for good.
    pub(crate) fn own(id: i32) -> Self {
        Target {
            id,
            translate: None,
            expires: None,
            rules: None,
        }
    }

    /// The same target, running `rules` on each value.
    pub(crate) fn with_rules(self, rules: Option<Arc<Conditions>>) -> Self {
        Target { rules, ..self }
    }

    /// Whether the target may still be used: for good, or until the latest version's time to live
    /// runs out.
    pub(super) fn is_fresh(&self) -> bool {
        self.expires.is_none_or(|e| Instant::now() < e)
    }
}
