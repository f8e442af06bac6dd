//! The example's promises: a schema other tools accept, the expected subjects, and a
//! Confluent frame that reads back.

use avdl2rs::{Avro, AvroSchema, SubjectPart};
use derived_types::{sample, Payment};

#[test]
fn the_schema_is_what_the_types_say() {
    let schema: serde_json::Value = serde_json_of(Payment::SCHEMA_JSON);
    assert_eq!(schema["name"], "Payment");
    assert_eq!(schema["namespace"], "com.example.payments");
    assert_eq!(schema["doc"], "A payment between two accounts.");
    assert_eq!(schema["fields"][0]["name"], "paymentId");
    assert_eq!(schema["fields"][3]["default"], "EUR");
    assert_eq!(
        schema["fields"][7]["type"],
        serde_json_of(r#"["null", {"type": "string", "logicalType": "uuid"}]"#)
    );
}

#[test]
fn subjects_follow_the_strategies() {
    assert_eq!(
        Payment::topic_subject("payments", SubjectPart::Value),
        "payments-value"
    );
    assert_eq!(Payment::record_subject(), "com.example.payments.Payment");
    assert_eq!(
        Payment::topic_record_subject("payments"),
        "payments-com.example.payments.Payment"
    );
}

#[test]
fn a_confluent_frame_round_trips() {
    let frame = sample().to_confluent(7).unwrap();
    assert_eq!(&frame[..5], &[0, 0, 0, 0, 7]);
    assert_eq!(
        Payment::from_confluent_expecting(&frame, 7).unwrap(),
        sample()
    );
    assert!(Payment::from_confluent_expecting(&frame, 8).is_err());
}

fn serde_json_of(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap()
}
