//! Data contracts: metadata and rule sets sent and read back, and the serializer and
//! deserializer running CEL conditions and refusing the rules they cannot run, over both
//! transports.
//!
//! Against a fake registry answering fixed JSON: the real server of the other tests
//! (`rivven-schema` 0.0.22, `.ci/registry-server`) accepts `metadata` and `ruleSet` on
//! registration but drops them, and never returns them.

use crate::support;

use avdl2rs::{Avro, AvroSchema};
use avdl2rs_registry::rules::{Action, RuleFailure};
use avdl2rs_registry::{
    ClientConfig, Metadata, RuleError, RuleSet, Schema, SerdeError, SerializerConfig, Version,
};
use serde_json::{json, Value};
use support::fake::{Answer, Fake};
use support::serdes::Transport;
use support::Make;

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Order", namespace = "shop")]
struct Order {
    id: i64,
}

/// A later version: a field with a default.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Order", namespace = "shop")]
struct OrderV2 {
    id: i64,
    #[avro(default = "none")]
    note: String,
}

fn contract() -> (Value, Value) {
    let metadata = json!({
        "tags": {"shop.Order.id": ["PII"]},
        "properties": {"owner": "team-orders"},
        "sensitive": ["owner"]
    });
    let rule_set = json!({
        "domainRules": [{"name": "positive", "doc": "ids start at 1", "kind": "CONDITION",
            "mode": "WRITE", "type": "CEL", "expr": "message.id > 0", "onFailure": "DLQ",
            "params": {"dlq.topic": "orders-bad"}}],
        "migrationRules": [{"name": "rename", "kind": "TRANSFORM", "mode": "UPGRADE",
            "type": "JSONATA", "expr": "$", "disabled": true}]
    });
    (metadata, rule_set)
}

fn contracts_are_sent_and_read_back(make: Make) {
    let (metadata, rule_set) = contract();
    let stored = json!({"schema": Order::SCHEMA_JSON, "metadata": metadata, "ruleSet": rule_set});
    let version = json!({"subject": "orders-value", "version": 1, "id": 41,
        "schema": Order::SCHEMA_JSON, "metadata": metadata, "ruleSet": rule_set});
    let fake = Fake::start(
        move |seen, _| match (seen.method.as_str(), seen.path.as_str()) {
            ("POST", "/subjects/orders-value/versions") => Answer::json(200, r#"{"id":41}"#),
            ("GET", "/schemas/ids/41?deleted=true") => Answer::json(200, stored.to_string()),
            ("GET", "/subjects/orders-value/versions/1") => Answer::json(200, version.to_string()),
            _ => Answer::error(404, 40401, "unexpected"),
        },
    );
    let client = make(ClientConfig::new(&fake.url));
    let schema = Schema {
        metadata: Some(serde_json::from_value::<Metadata>(metadata.clone()).unwrap()),
        rule_set: Some(serde_json::from_value::<RuleSet>(rule_set.clone()).unwrap()),
        ..Schema::avro(Order::SCHEMA_JSON)
    };
    assert_eq!(client.register("orders-value", &schema, false).unwrap(), 41);
    let sent: Value = serde_json::from_str(&fake.requests()[0].body).unwrap();
    let expected = json!({"schema": Order::SCHEMA_JSON, "metadata": metadata, "ruleSet": rule_set});
    assert_eq!(sent, expected);

    assert_eq!(*client.schema_by_id(41).unwrap(), schema);
    let found = client
        .subject_version("orders-value", Version::Number(1))
        .unwrap();
    assert_eq!(found.schema, schema);
    let rules = found.schema.rule_set.unwrap();
    assert_eq!(rules.domain_rules[0].params["dlq.topic"], "orders-bad");
    assert!(rules.migration_rules[0].disabled);
}

/// A registry where `Order` is registered as id 41 with the domain rules `rules`.
fn registry_with_rules(rules: Value) -> Fake {
    let stored = json!({"schema": Order::SCHEMA_JSON, "ruleSet": rules});
    Fake::start(
        move |seen, _| match (seen.method.as_str(), seen.path.as_str()) {
            ("POST", "/subjects/orders-value/versions") => Answer::json(200, r#"{"id":41}"#),
            ("GET", "/schemas/ids/41?deleted=true") => Answer::json(200, stored.to_string()),
            _ => Answer::error(404, 40401, "unexpected"),
        },
    )
}

fn condition(mode: &str, expr: &str, on_failure: &str) -> Value {
    json!({"domainRules": [{"name": "checkId", "kind": "CONDITION", "type": "CEL",
        "mode": mode, "expr": expr, "onFailure": on_failure}]})
}

fn rule_error(error: SerdeError) -> RuleError {
    match error {
        SerdeError::Rule(e) => e,
        other => panic!("not a rule's error: {other}"),
    }
}

fn write_conditions_run_on_every_value<X: Transport>() {
    let fake = registry_with_rules(condition("WRITE", "message.id > 0", "ERROR"));
    let producer = X::producer::<Order>(ClientConfig::new(&fake.url), SerializerConfig::default());
    let mut frame = Vec::new();
    for id in [1, -1, 2, -2] {
        let written = producer.serialize_into("orders", &Order { id }, &mut frame);
        if id > 0 {
            written.unwrap();
            assert_eq!(frame, Order { id }.to_confluent(41).unwrap());
        } else {
            let e = rule_error(written.unwrap_err());
            assert_eq!(
                e.to_string(),
                "CONDITION rule checkId (CEL, WRITE): the condition failed"
            );
            assert!(!e.is_dead_letter());
            assert!(frame.is_empty(), "nothing is left to send");
        }
    }
    // A topic handle runs them too.
    let values = [Order { id: 3 }, Order { id: 0 }];
    let e = producer
        .through_topic("orders", &values, &mut || {})
        .unwrap_err();
    assert_eq!(rule_error(e).rule.name, "checkId");
    // Read rules do not run on write.
    let fake = registry_with_rules(condition("READ", "message.id > 0", "ERROR"));
    let producer = X::producer::<Order>(ClientConfig::new(&fake.url), SerializerConfig::default());
    producer.serialize("orders", &Order { id: -1 }).unwrap();
}

/// A value stopped for the dead-letter topic stays in the buffer as the frame it would have
/// been (header, then the Avro binary of `id` 500: zigzag 1000, varint `e8 07`), for the Kafka
/// producer to send there.
fn a_value_stopped_for_the_dead_letter_topic_stays_framed<X: Transport>() {
    let fake = registry_with_rules(condition("WRITE", "message.id < 100", "DLQ"));
    let producer = X::producer::<Order>(ClientConfig::new(&fake.url), SerializerConfig::default());
    let mut frame = Vec::new();
    let written = producer.serialize_into("orders", &Order { id: 500 }, &mut frame);
    assert!(rule_error(written.unwrap_err()).is_dead_letter());
    assert_eq!(frame, [0, 0, 0, 0, 41, 0xe8, 0x07]);
}

fn failure_actions_decide<X: Transport>() {
    for (action, expected) in [
        ("NONE", None),
        ("ERROR", Some(Action::Error)),
        ("DLQ", Some(Action::DeadLetter)),
    ] {
        let fake = registry_with_rules(condition("WRITEREAD", "message.id < 100", action));
        let producer =
            X::producer::<Order>(ClientConfig::new(&fake.url), SerializerConfig::default());
        let consumer = X::consumer::<Order>(ClientConfig::new(&fake.url));
        let written = producer.serialize("orders", &Order { id: 500 });
        let read = consumer.deserialize(&Order { id: 500 }.to_confluent(41).unwrap());
        for result in [written.map(drop), read.map(drop)] {
            match (expected, result) {
                (None, Ok(())) => {}
                (Some(action), Err(e)) => {
                    let e = rule_error(e);
                    assert_eq!(e.is_dead_letter(), action == Action::DeadLetter, "{e}");
                    assert!(
                        matches!(e.failure, RuleFailure::Stopped { held: false, action: a, .. } if a == action),
                        "{e}"
                    );
                }
                (expected, result) => panic!("{action}: {expected:?} but {result:?}"),
            }
        }
    }
}

fn read_conditions_run_on_the_writers_rules<X: Transport>() {
    let fake = registry_with_rules(condition("READ", "message.id < 100", "ERROR"));
    let consumer = X::consumer::<Order>(ClientConfig::new(&fake.url));
    let small = Order { id: 5 }.to_confluent(41).unwrap();
    assert_eq!(consumer.deserialize(&small).unwrap(), Order { id: 5 });
    let large = Order { id: 500 }.to_confluent(41).unwrap();
    assert_eq!(
        rule_error(consumer.deserialize(&large).unwrap_err())
            .rule
            .name,
        "checkId"
    );
    assert_eq!(consumer.deserialize(&small).unwrap(), Order { id: 5 });
}

fn a_malformed_expression_fails_the_first_use<X: Transport>() {
    let fake = registry_with_rules(condition("WRITEREAD", "message.id >", "NONE"));
    let producer = X::producer::<Order>(ClientConfig::new(&fake.url), SerializerConfig::default());
    let consumer = X::consumer::<Order>(ClientConfig::new(&fake.url));
    let written = producer.serialize("orders", &Order { id: 1 }).unwrap_err();
    let read = consumer
        .deserialize(&Order { id: 1 }.to_confluent(41).unwrap())
        .unwrap_err();
    for e in [written, read] {
        let e = rule_error(e);
        assert!(matches!(e.failure, RuleFailure::Invalid(_)), "{e}");
        let text = e.to_string();
        assert!(text.starts_with("CONDITION rule checkId (CEL, WRITEREAD): invalid: the expression `message.id >` cannot be compiled"), "{text}");
    }
}

fn rules_that_cannot_run_are_refused_unless_ignored<X: Transport>() {
    let encrypt = json!({"domainRules": [
        {"name": "encryptPII", "kind": "TRANSFORM", "type": "ENCRYPT", "mode": "WRITEREAD",
         "tags": ["PII"], "params": {"encrypt.kek.name": "k"}},
        {"name": "old", "kind": "TRANSFORM", "type": "ENCRYPT", "mode": "WRITEREAD",
         "disabled": true}]});
    let fake = registry_with_rules(encrypt);
    let url = &fake.url;
    let frame = Order { id: 1 }.to_confluent(41).unwrap();
    let producer = X::producer::<Order>(ClientConfig::new(url), SerializerConfig::default());
    let consumer = X::consumer::<Order>(ClientConfig::new(url));
    let written = producer.serialize("orders", &Order { id: 1 }).unwrap_err();
    let read = consumer.deserialize(&frame).unwrap_err();
    for e in [written, read] {
        let e = rule_error(e);
        assert_eq!(
            e.to_string(),
            "TRANSFORM rule encryptPII (ENCRYPT, WRITEREAD): cannot be run: TRANSFORM rules are \
             not run by this client"
        );
    }
    let config = SerializerConfig::default().ignore_rule_types(["ENCRYPT"]);
    let producer = X::producer::<Order>(ClientConfig::new(url), config);
    assert_eq!(
        producer.serialize("orders", &Order { id: 1 }).unwrap(),
        frame
    );
    let consumer = X::consumer_ignoring::<Order>(ClientConfig::new(url), &["ENCRYPT"]);
    assert_eq!(consumer.deserialize(&frame).unwrap(), Order { id: 1 });
}

fn migration_rules_are_refused_across_versions<X: Transport>() {
    let upgrade = json!({"migrationRules": [{"name": "addNote", "kind": "TRANSFORM",
        "type": "JSONATA", "mode": "UPGRADE", "expr": "$merge([$, {'note': 'x'}])"}]});
    let fake = registry_with_rules(upgrade);
    let frame = Order { id: 1 }.to_confluent(41).unwrap();
    let same = X::consumer::<Order>(ClientConfig::new(&fake.url));
    assert_eq!(
        same.deserialize(&frame).unwrap(),
        Order { id: 1 },
        "no migration"
    );
    let newer = X::consumer::<OrderV2>(ClientConfig::new(&fake.url));
    let e = rule_error(newer.deserialize(&frame).unwrap_err());
    assert_eq!(e.rule.name, "addNote");
    assert!(e.to_string().contains("migration rules are not run"), "{e}");
    // A writer does not migrate: the rule is not its business.
    let producer = X::producer::<Order>(ClientConfig::new(&fake.url), SerializerConfig::default());
    assert_eq!(
        producer.serialize("orders", &Order { id: 1 }).unwrap(),
        frame
    );
}

fn the_latest_versions_rules_run_when_writing_under_it<X: Transport>() {
    let latest = json!({"subject": "orders-value", "version": 2, "id": 52,
        "schema": Order::SCHEMA_JSON, "ruleSet": condition("WRITE", "message.id != 7", "ERROR")});
    let fake = Fake::start(move |seen, _| match seen.path.as_str() {
        "/subjects/orders-value/versions/latest" => Answer::json(200, latest.to_string()),
        _ => Answer::error(404, 40401, "unexpected"),
    });
    let config = SerializerConfig::default().use_latest(true);
    let producer = X::producer::<Order>(ClientConfig::new(&fake.url), config);
    assert_eq!(
        producer.serialize("orders", &Order { id: 1 }).unwrap(),
        Order { id: 1 }.to_confluent(52).unwrap()
    );
    assert_eq!(
        rule_error(producer.serialize("orders", &Order { id: 7 }).unwrap_err())
            .rule
            .name,
        "checkId"
    );
    assert_eq!(fake.count(), 1);
}

both_transports!(contracts_are_sent_and_read_back);

both_serdes!(
    write_conditions_run_on_every_value,
    a_value_stopped_for_the_dead_letter_topic_stays_framed,
    failure_actions_decide,
    read_conditions_run_on_the_writers_rules,
    a_malformed_expression_fails_the_first_use,
    rules_that_cannot_run_are_refused_unless_ignored,
    migration_rules_are_refused_across_versions,
    the_latest_versions_rules_run_when_writing_under_it,
);
