//! The names renamed or hidden in this release still compile, so users move at their pace.
#![allow(deprecated)]

use std::time::Duration;

use avdl2rs_registry::{parse_retry_after, Dependencies, SchemaReferences, SerializerConfig};

#[test]
fn dependencies_is_schema_references() {
    let old: Dependencies = Dependencies::References;
    assert_eq!(old, SchemaReferences::Registered);
    assert_eq!(Dependencies::Inline, SchemaReferences::Inline);
    let config = SerializerConfig::default().references(Dependencies::References);
    assert_eq!(config.references, SchemaReferences::Registered);
}

#[test]
fn parse_retry_after_still_reads_seconds() {
    assert_eq!(parse_retry_after("3"), Some(Duration::from_secs(3)));
}

#[test]
fn encode_subject_still_percent_encodes() {
    assert_eq!(avdl2rs_registry::api::encode_subject("a/b"), "a%2Fb");
}

#[test]
fn backoff_still_answers() {
    let policy = avdl2rs_registry::RetryPolicy::none();
    assert!(policy.backoff(0) <= std::time::Duration::from_millis(100));
}
