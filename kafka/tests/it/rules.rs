//! A value a rule of its writer schema stops is a poison message naming the rule, for the
//! dead-letter forwarder. Against a registry answering fixed JSON (the real one keeps no rule
//! sets); no broker is needed, since the consumer hands the decoder's verdict on as it is.

use std::sync::Arc;

use avdl2rs::{Avro, AvroSchema};
use avdl2rs_kafka::{Decoder, PoisonReason, Undecodable};
use avdl2rs_registry::nonblocking::{Client, Deserializer};
use avdl2rs_registry::ClientConfig;
use avdl2rs_tests::fixed_registry::FixedRegistry;
use serde_json::json;

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(name = "Order", namespace = "shop")]
struct Order {
    id: i64,
}

#[tokio::test]
async fn a_value_a_rule_stops_is_poison_naming_the_rule() {
    let registry = FixedRegistry::start(|_, _| {
        json!({"schema": Order::SCHEMA_JSON, "ruleSet": {"domainRules": [
            {"name": "smallIds", "kind": "CONDITION", "type": "CEL", "mode": "READ",
             "expr": "message.id < 100", "onFailure": "DLQ"}]}})
    });
    let client = Arc::new(Client::new(ClientConfig::new(&registry.url)).unwrap());
    let decoder = Deserializer::<Order>::new(client);
    let small = Order { id: 5 }.to_confluent(41).unwrap();
    let decoded = decoder.decode(&small).await.unwrap();
    assert_eq!(
        (decoded.value, decoded.schema_id),
        (Order { id: 5 }, Some(41))
    );

    let large = Order { id: 500 }.to_confluent(41).unwrap();
    let Err(Undecodable::Poison(reason)) = decoder.decode(&large).await else {
        panic!("the rule let the value through");
    };
    assert_eq!(reason.kind(), "rule");
    assert_eq!(
        reason.to_string(),
        "CONDITION rule smallIds (CEL, READ): the condition failed (sent to the dead-letter topic)"
    );
    let PoisonReason::Rule(rule) = reason else {
        panic!("{reason}")
    };
    assert!(rule.is_dead_letter());
}
