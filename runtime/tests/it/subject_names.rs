//! Subject naming strategies, as functions and through the `Avro` trait.

use avdl2rs::subject::{record_name, topic_name, topic_record_name};
use avdl2rs::{Avro, SubjectNameStrategy, SubjectPart};

use crate::wire_support;
use wire_support::Ping;

#[test]
fn topic_name_strategy() {
    assert_eq!(topic_name("orders", SubjectPart::Key), "orders-key");
    assert_eq!(topic_name("orders", SubjectPart::Value), "orders-value");
    assert_eq!(
        Ping::topic_subject("orders", SubjectPart::Value),
        "orders-value"
    );
}

#[test]
fn record_name_strategy_with_and_without_namespace() {
    assert_eq!(
        record_name(Some("shop.events"), "OrderEvent"),
        "shop.events.OrderEvent"
    );
    assert_eq!(record_name(None, "OrderEvent"), "OrderEvent");
    assert_eq!(record_name(Some(""), "OrderEvent"), "OrderEvent");
    assert_eq!(Ping::record_subject(), "shop.Ping");
}

#[test]
fn topic_record_name_strategy_with_and_without_namespace() {
    assert_eq!(
        topic_record_name("orders", &record_name(Some("shop"), "OrderEvent")),
        "orders-shop.OrderEvent"
    );
    assert_eq!(
        topic_record_name("orders", &record_name(None, "OrderEvent")),
        "orders-OrderEvent"
    );
    assert_eq!(Ping::topic_record_subject("orders"), "orders-shop.Ping");
}

#[test]
fn the_strategy_enum_picks_the_same_names() {
    let subject = |s| Ping::subject_name(s, "orders", SubjectPart::Key);
    assert_eq!(subject(SubjectNameStrategy::TopicName), "orders-key");
    assert_eq!(subject(SubjectNameStrategy::RecordName), "shop.Ping");
    assert_eq!(
        subject(SubjectNameStrategy::TopicRecordName),
        "orders-shop.Ping"
    );
    assert_eq!(
        SubjectNameStrategy::default(),
        SubjectNameStrategy::TopicName
    );
}
