//! A registered schema's data contract as the registry stores it: its [`Metadata`] and its
//! [`RuleSet`], in the JSON shapes of Confluent's Schema Registry API. Collections are kept
//! sorted (`BTreeMap`, `BTreeSet`), so that a schema stays hashable and its JSON stable.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

/// What a schema says about its data beyond its structure: tags on its fields, free-form
/// properties (an owner, an SLO) and the names of properties that are secret.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Metadata {
    /// Tags by the path of what they tag (`Order.email` → `{"PII"}`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tags: BTreeMap<String, BTreeSet<String>>,
    /// Free-form properties.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub properties: BTreeMap<String, String>,
    /// The names of the properties whose values are secret.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub sensitive: BTreeSet<String>,
}

/// The rules of a schema: conditions and transformations clients run on its data.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleSet {
    /// Rules between versions of the schema (modes `UPGRADE`, `DOWNGRADE`, `UPDOWN`), run
    /// when data of one version is read as another.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub migration_rules: Vec<Rule>,
    /// Rules on the data of this version (modes `WRITE`, `READ`, `WRITEREAD`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub domain_rules: Vec<Rule>,
    /// Rules on the whole encoded payload (such as its encryption), run after writing and
    /// before reading. Kept so that none is lost: a client that drops them would read
    /// ciphertext as data.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub encoding_rules: Vec<Rule>,
}

impl RuleSet {
    /// Every rule: migration, domain, then encoding rules.
    pub fn rules(&self) -> impl Iterator<Item = &Rule> {
        self.migration_rules
            .iter()
            .chain(&self.domain_rules)
            .chain(&self.encoding_rules)
    }

    /// Whether the set has no rule at all.
    pub fn is_empty(&self) -> bool {
        self.rules().next().is_none()
    }
}

/// One rule of a [`RuleSet`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    /// The rule's name, unique in its set.
    pub name: String,
    /// What the rule is for, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Whether the rule checks data or changes it.
    pub kind: RuleKind,
    /// When the rule applies.
    pub mode: RuleMode,
    /// The rule's executor (`CEL`, `CEL_FIELD`, `JSONATA`, `ENCRYPT`...).
    #[serde(rename = "type")]
    pub rule_type: String,
    /// The field tags the rule applies to (field-level rules).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub tags: BTreeSet<String>,
    /// The executor's parameters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, String>,
    /// The expression the executor runs (for `CEL`, a boolean condition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expr: Option<String>,
    /// What to do when the rule succeeds (`NONE` when absent): an action, or for
    /// `WRITEREAD` and `UPDOWN` rules two of them, `WRITE_ACTION,READ_ACTION`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_success: Option<String>,
    /// What to do when the rule fails (`ERROR` when absent), in the shape of `on_success`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_failure: Option<String>,
    /// A disabled rule is kept but never run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
}

/// Whether a rule checks data or changes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum RuleKind {
    /// A check: the data passes or fails.
    Condition,
    /// A change of the data (a migration, an encryption).
    Transform,
}

/// When a rule applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum RuleMode {
    /// Reading data of an older version as this one.
    Upgrade,
    /// Reading data of this version as an older one.
    Downgrade,
    /// Both `UPGRADE` and `DOWNGRADE`.
    Updown,
    /// Writing data.
    Write,
    /// Reading data.
    Read,
    /// Both `WRITE` and `READ`.
    Writeread,
}

impl RuleKind {
    /// The registry's name of the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::Condition => "CONDITION",
            RuleKind::Transform => "TRANSFORM",
        }
    }
}

impl RuleMode {
    /// The registry's name of the mode.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleMode::Upgrade => "UPGRADE",
            RuleMode::Downgrade => "DOWNGRADE",
            RuleMode::Updown => "UPDOWN",
            RuleMode::Write => "WRITE",
            RuleMode::Read => "READ",
            RuleMode::Writeread => "WRITEREAD",
        }
    }
}

impl fmt::Display for RuleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for RuleMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for Rule {
    /// The rule as errors name it: kind, type, mode and name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} rule {} ({}, {})",
            self.kind, self.name, self.rule_type, self.mode
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A rule set in the shape of the data contracts documentation's examples.
    fn documented() -> serde_json::Value {
        json!({
            "migrationRules": [{
                "name": "changeSsnToSocialSecurityNumber",
                "kind": "TRANSFORM", "type": "JSONATA", "mode": "UPGRADE",
                "expr": "$merge([$sift($, function($v, $k) {$k != 'ssn'}), {'socialSecurityNumber': $.'ssn'}])"
            }],
            "domainRules": [{
                "name": "checkSsnLen", "doc": "an SSN has nine digits",
                "kind": "CONDITION", "type": "CEL", "mode": "WRITE",
                "expr": "size(message.ssn) == 9",
                "onFailure": "DLQ", "params": {"dlq.topic": "bad-data"}
            }, {
                "name": "encryptPII", "kind": "TRANSFORM", "type": "ENCRYPT",
                "mode": "WRITEREAD", "tags": ["PII"], "onFailure": "ERROR,NONE",
                "disabled": true
            }]
        })
    }

    #[test]
    fn rule_sets_read_and_write_the_registry_shape() {
        let json = documented();
        let set: RuleSet = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(set.rules().count(), 3);
        let check = &set.domain_rules[0];
        assert_eq!(
            (check.kind, check.mode, check.rule_type.as_str()),
            (RuleKind::Condition, RuleMode::Write, "CEL")
        );
        assert_eq!(check.params["dlq.topic"], "bad-data");
        assert_eq!(check.on_failure.as_deref(), Some("DLQ"));
        assert!(set.domain_rules[1].disabled);
        assert_eq!(set.domain_rules[1].tags, BTreeSet::from(["PII".to_owned()]));
        assert_eq!(serde_json::to_value(&set).unwrap(), json);
        assert_eq!(check.to_string(), "CONDITION rule checkSsnLen (CEL, WRITE)");
    }

    #[test]
    fn metadata_reads_and_writes_the_registry_shape() {
        let json = json!({
            "tags": {"Order.email": ["PII", "PRIVATE"]},
            "properties": {"owner": "team-orders", "slo": "99.9"},
            "sensitive": ["slo"]
        });
        let metadata: Metadata = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(metadata.tags["Order.email"].len(), 2);
        assert_eq!(metadata.properties["owner"], "team-orders");
        assert_eq!(serde_json::to_value(&metadata).unwrap(), json);
        let empty: Metadata = serde_json::from_value(json!({})).unwrap();
        assert_eq!(empty, Metadata::default());
    }

    #[test]
    fn unknown_kinds_and_modes_are_refused() {
        let rule = |kind: &str, mode: &str| {
            serde_json::from_value::<Rule>(
                json!({"name": "r", "kind": kind, "mode": mode, "type": "CEL"}),
            )
        };
        assert!(rule("CONDITION", "READ").is_ok());
        assert!(rule("CHECK", "READ").is_err());
        assert!(rule("CONDITION", "SOMETIMES").is_err());
    }
}
