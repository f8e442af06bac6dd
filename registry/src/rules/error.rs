//! What a rule can do to a value: the actions of `onSuccess` and `onFailure`, and the typed
//! error that names the rule.

use std::fmt;

use super::model::{Rule, RuleMode};

/// What happens after a rule ran: its `onSuccess` or `onFailure` action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Go on (`NONE`).
    None,
    /// Fail the value (`ERROR`).
    Error,
    /// Fail the value and send it to a dead-letter topic (`DLQ`): the Kafka producer and
    /// consumer route it there.
    DeadLetter,
}

impl Action {
    /// The action of `text` (the value of `onSuccess` or `onFailure`, or `default` when
    /// absent) for `mode` when data is `read`: a pair `WRITE,READ` (or `UPGRADE,DOWNGRADE`)
    /// gives its second action when reading and its first otherwise.
    pub(crate) fn of(
        text: Option<&str>,
        default: Action,
        mode: RuleMode,
        read: bool,
    ) -> Result<Action, String> {
        let Some(text) = text else {
            return Ok(default);
        };
        let pair = matches!(mode, RuleMode::Writeread | RuleMode::Updown);
        let chosen = match text.split_once(',') {
            Some((first, second)) if pair => match read {
                true => second,
                false => first,
            },
            _ => text,
        };
        match chosen.trim() {
            "NONE" => Ok(Action::None),
            "ERROR" => Ok(Action::Error),
            "DLQ" => Ok(Action::DeadLetter),
            other => Err(format!(
                "unknown action {other:?} (known: NONE, ERROR, DLQ)"
            )),
        }
    }
}

/// A rule stopped a value, or could not be run: which rule (kind, type, mode and name, in
/// [`RuleError::rule`]) and why.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{rule}: {failure}")]
pub struct RuleError {
    /// The rule.
    pub rule: Box<Rule>,
    /// Why it stopped the value.
    pub failure: RuleFailure,
}

/// Why a rule stopped a value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleFailure {
    /// The rule applies, but this client cannot run it; the value is neither written nor
    /// read. Ignoring its type (`ignore_rule_types`) lets values through without it.
    Unsupported(String),
    /// The rule's expression or actions cannot be used.
    Invalid(String),
    /// The condition did not hold (or could not be evaluated) and its `onFailure` action is
    /// not `NONE`; or it held and its `onSuccess` action is not `NONE`.
    Stopped {
        /// Whether the condition held.
        held: bool,
        /// Why it did not hold, when it could not be evaluated.
        detail: Option<String>,
        /// The action that stopped the value.
        action: Action,
    },
}

impl RuleError {
    pub(crate) fn new(rule: &Rule, failure: RuleFailure) -> Self {
        RuleError {
            rule: Box::new(rule.clone()),
            failure,
        }
    }

    /// Whether the value goes to a dead-letter topic (the rule's action is `DLQ`).
    pub fn is_dead_letter(&self) -> bool {
        matches!(
            self.failure,
            RuleFailure::Stopped {
                action: Action::DeadLetter,
                ..
            }
        )
    }
}

impl fmt::Display for RuleFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleFailure::Unsupported(why) => write!(f, "cannot be run: {why}"),
            RuleFailure::Invalid(why) => write!(f, "invalid: {why}"),
            RuleFailure::Stopped {
                held,
                detail,
                action,
            } => {
                match (held, detail) {
                    (true, _) => f.write_str("the condition held")?,
                    (false, None) => f.write_str("the condition failed")?,
                    (false, Some(detail)) => write!(f, "the condition failed: {detail}")?,
                }
                match action {
                    Action::DeadLetter => f.write_str(" (sent to the dead-letter topic)"),
                    _ => Ok(()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_read_single_values_and_pairs() {
        let of = |text, mode, read| Action::of(text, Action::Error, mode, read);
        assert_eq!(of(None, RuleMode::Write, false), Ok(Action::Error));
        assert_eq!(
            of(Some("DLQ"), RuleMode::Write, false),
            Ok(Action::DeadLetter)
        );
        assert_eq!(
            of(Some("NONE"), RuleMode::Writeread, true),
            Ok(Action::None)
        );
        let pair = Some("ERROR,NONE");
        assert_eq!(of(pair, RuleMode::Writeread, false), Ok(Action::Error));
        assert_eq!(of(pair, RuleMode::Writeread, true), Ok(Action::None));
        assert!(of(Some("RETRY"), RuleMode::Read, true).is_err());
        assert!(
            of(pair, RuleMode::Read, true).is_err(),
            "a pair only for two modes"
        );
    }
}
