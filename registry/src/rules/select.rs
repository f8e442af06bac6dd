//! Which rules of a schema apply to a serializer or a deserializer, and the [`Conditions`]
//! they run: every applicable rule is compiled or refused when the schema is first used.

use std::collections::BTreeSet;
use std::sync::Arc;

use avdl2rs::generic::GenericSchema;

use super::cel::Condition;
use super::error::{Action, RuleError, RuleFailure};
use super::model::{Rule, RuleKind, RuleMode, RuleSet};

/// Where a schema's data goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// A serializer writes values under the schema.
    Write,
    /// A deserializer reads data written with the schema; `migrating` when the reader's own
    /// schema is another one.
    Read {
        /// Whether the data is read as another schema version.
        migrating: bool,
    },
}

/// The conditions of one schema a serializer or deserializer runs on each value's body.
pub(crate) struct Conditions {
    /// The schema the bodies are written with.
    schema: GenericSchema,
    checks: Vec<Check>,
}

/// One condition, with the actions it takes in its direction.
struct Check {
    rule: Rule,
    condition: Condition,
    on_success: Action,
    on_failure: Action,
}

impl Conditions {
    /// The conditions of `rule_set` on values of the schema `json` going `direction`:
    /// `None` when there is nothing to run, an error naming the first rule that applies
    /// but cannot be run. Rules that are disabled or of a type in `ignored` are skipped.
    pub(crate) fn of(
        rule_set: Option<&RuleSet>,
        direction: Direction,
        ignored: &BTreeSet<String>,
        json: &str,
    ) -> Result<Option<Arc<Conditions>>, RuleError> {
        let Some(rule_set) = rule_set else {
            return Ok(None);
        };
        let applicable = rule_set
            .rules()
            .filter(|rule| !rule.disabled && !ignored.contains(&rule.rule_type))
            .filter(|rule| applies(rule.mode, direction));
        let checks = applicable
            .map(|rule| check(rule, direction))
            .collect::<Result<Vec<_>, _>>()?;
        let Some(first) = checks.first() else {
            return Ok(None);
        };
        let schema = GenericSchema::new(json).map_err(|e| {
            let why = format!("the schema it applies to cannot be read: {e}");
            RuleError::new(&first.rule, RuleFailure::Invalid(why))
        })?;
        Ok(Some(Arc::new(Conditions { schema, checks })))
    }

    /// Runs the conditions on `body`, a value's Avro binary encoding in the schema: the
    /// first one that stops it, with the action that does.
    pub(crate) fn check(&self, body: &[u8]) -> Result<(), RuleError> {
        let message = self.schema.decode(body).map_err(|e| e.to_string());
        for check in &self.checks {
            let outcome = message
                .as_ref()
                .map_err(Clone::clone)
                .and_then(|message| check.condition.holds(message));
            let (held, detail) = match outcome {
                Ok(held) => (held, None),
                Err(detail) => (false, Some(detail)),
            };
            if !held {
                crate::metrics::rule_failed(&check.rule.rule_type, check.rule.mode.as_str());
            }
            let action = if held {
                check.on_success
            } else {
                check.on_failure
            };
            if action != Action::None {
                let failure = RuleFailure::Stopped {
                    held,
                    detail,
                    action,
                };
                return Err(RuleError::new(&check.rule, failure));
            }
        }
        Ok(())
    }
}

/// Whether a rule of `mode` applies to data going `direction`.
fn applies(mode: RuleMode, direction: Direction) -> bool {
    use RuleMode::*;
    match direction {
        Direction::Write => matches!(mode, Write | Writeread),
        Direction::Read { migrating } => {
            matches!(mode, Read | Writeread)
                || (migrating && matches!(mode, Upgrade | Downgrade | Updown))
        }
    }
}

/// The condition `rule` runs, or why it cannot be run.
fn check(rule: &Rule, direction: Direction) -> Result<Check, RuleError> {
    let refuse = |why: String| RuleError::new(rule, RuleFailure::Unsupported(why));
    let invalid = |why: String| RuleError::new(rule, RuleFailure::Invalid(why));
    if matches!(
        rule.mode,
        RuleMode::Upgrade | RuleMode::Downgrade | RuleMode::Updown
    ) {
        return Err(refuse(
            "the data was written with another schema version, and migration rules are not \
             run by this client"
                .to_owned(),
        ));
    }
    if rule.kind == RuleKind::Transform {
        return Err(refuse(
            "TRANSFORM rules are not run by this client".to_owned(),
        ));
    }
    if rule.rule_type != "CEL" {
        return Err(refuse(format!(
            "rules of type {} are not run by this client (only CEL conditions are)",
            rule.rule_type
        )));
    }
    let Some(expr) = rule.expr.as_deref() else {
        return Err(invalid("a CEL condition without an expression".to_owned()));
    };
    let condition = Condition::compile(expr)
        .map_err(|e| invalid(format!("the expression `{expr}` cannot be compiled: {e}")))?;
    let read = matches!(direction, Direction::Read { .. });
    let action = |text: Option<&String>, default| {
        Action::of(text.map(String::as_str), default, rule.mode, read).map_err(&invalid)
    };
    Ok(Check {
        on_success: action(rule.on_success.as_ref(), Action::None)?,
        on_failure: action(rule.on_failure.as_ref(), Action::Error)?,
        condition,
        rule: rule.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ORDER: &str =
        r#"{"type":"record","name":"Order","fields":[{"name":"cents","type":"long"}]}"#;

    fn rules(domain: serde_json::Value) -> RuleSet {
        serde_json::from_value(json!({ "domainRules": domain })).unwrap()
    }

    fn cel(name: &str, mode: &str, expr: &str, on_failure: &str) -> serde_json::Value {
        json!({"name": name, "kind": "CONDITION", "type": "CEL", "mode": mode,
               "expr": expr, "onFailure": on_failure})
    }

    fn conditions(
        set: &RuleSet,
        direction: Direction,
    ) -> Result<Option<Arc<Conditions>>, RuleError> {
        Conditions::of(Some(set), direction, &BTreeSet::new(), ORDER)
    }

    /// The Avro binary encoding of an order of `cents`.
    fn body(cents: i64) -> Vec<u8> {
        let mut out = Vec::new();
        avdl2rs::codec::write_long(&mut out, cents);
        out
    }

    #[test]
    fn conditions_run_in_their_direction_with_their_actions() {
        let set = rules(json!([
            cel("positive", "WRITE", "message.cents > 0", "ERROR"),
            cel("small", "READ", "message.cents < 100", "DLQ"),
            cel("even", "WRITEREAD", "message.cents % 2 == 0", "NONE,ERROR"),
        ]));
        let write = conditions(&set, Direction::Write).unwrap().unwrap();
        assert_eq!(write.checks.len(), 2);
        assert!(write.check(&body(4)).is_ok());
        assert!(write.check(&body(3)).is_ok(), "odd passes: NONE on write");
        let e = write.check(&body(-2)).unwrap_err();
        assert_eq!(e.rule.name, "positive");
        assert!(!e.is_dead_letter());

        let read = conditions(&set, Direction::Read { migrating: false });
        let read = read.unwrap().unwrap();
        let e = read.check(&body(200)).unwrap_err();
        assert_eq!((e.rule.name.as_str(), e.is_dead_letter()), ("small", true));
        let e = read.check(&body(3)).unwrap_err();
        assert_eq!(e.rule.name, "even", "ERROR on read");
        assert!(
            read.check(&body(-2)).is_ok(),
            "WRITE rules do not run on read"
        );
    }

    #[test]
    fn rules_that_cannot_run_are_refused_unless_disabled_or_ignored() {
        let set = rules(json!([
            cel("positive", "WRITE", "message.cents > 0", "ERROR"),
            {"name": "encryptPII", "kind": "TRANSFORM", "type": "ENCRYPT", "mode": "WRITEREAD",
             "tags": ["PII"]},
        ]));
        let e = conditions(&set, Direction::Write).err().unwrap();
        assert_eq!(
            e.to_string(),
            "TRANSFORM rule encryptPII (ENCRYPT, WRITEREAD): cannot be run: TRANSFORM rules \
             are not run by this client"
        );
        let ignored = BTreeSet::from(["ENCRYPT".to_owned()]);
        let run = Conditions::of(Some(&set), Direction::Write, &ignored, ORDER).unwrap();
        assert_eq!(run.unwrap().checks.len(), 1);
        let mut disabled = set.clone();
        disabled.domain_rules[1].disabled = true;
        assert!(conditions(&disabled, Direction::Write).unwrap().is_some());
    }

    #[test]
    fn migration_rules_are_refused_only_across_versions() {
        let set: RuleSet = serde_json::from_value(json!({"migrationRules": [
            {"name": "rename", "kind": "TRANSFORM", "type": "JSONATA", "mode": "UPGRADE",
             "expr": "$"}]}))
        .unwrap();
        assert!(conditions(&set, Direction::Write).unwrap().is_none());
        let same = conditions(&set, Direction::Read { migrating: false });
        assert!(same.unwrap().is_none());
        let e = conditions(&set, Direction::Read { migrating: true })
            .err()
            .unwrap();
        assert_eq!(e.rule.name, "rename");
        assert!(matches!(e.failure, RuleFailure::Unsupported(_)), "{e}");
    }

    #[test]
    fn malformed_conditions_fail_when_first_used() {
        let set = rules(json!([cel("broken", "WRITE", "message.cents >", "ERROR")]));
        let e = conditions(&set, Direction::Write).err().unwrap();
        assert!(matches!(e.failure, RuleFailure::Invalid(_)), "{e}");
        assert!(e.to_string().contains("`message.cents >`"), "{e}");
        let set = rules(json!([cel("odd", "WRITE", "true", "RETRY")]));
        let e = conditions(&set, Direction::Write).err().unwrap();
        assert!(e.to_string().contains("RETRY"), "{e}");
    }

    #[test]
    fn an_expression_that_cannot_be_evaluated_takes_the_failure_action() {
        let set = rules(json!([
            cel("lenient", "WRITE", "message.missing > 0", "NONE"),
            cel("strict", "WRITE", "message.cents", "ERROR"),
        ]));
        let write = conditions(&set, Direction::Write).unwrap().unwrap();
        let e = write.check(&body(1)).unwrap_err();
        assert_eq!(e.rule.name, "strict");
        assert!(e.to_string().contains("not a bool"), "{e}");
    }
}
