//! Prints the derived schema (what one registers with a Schema Registry), the subject names
//! it would be registered under, and a Confluent-framed message read back.

use avdl2rs::{Avro, AvroSchema, SubjectPart};
use derived_types::{sample, Payment};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("schema: {}", Payment::SCHEMA_JSON);
    println!("fingerprint: {:016x}", Payment::FINGERPRINT);
    println!(
        "topic subject: {}",
        Payment::topic_subject("payments", SubjectPart::Value)
    );
    println!("record subject: {}", Payment::record_subject());
    // A schema id as a Schema Registry would assign it.
    let schema_id = 7;
    let payment = sample();
    let frame = payment.to_confluent(schema_id)?;
    let hex: String = frame.iter().map(|b| format!("{b:02x}")).collect();
    println!("confluent frame ({} bytes): {hex}", frame.len());
    // Read back only under the id the schema is registered with; other schema versions
    // need `avdl2rs::resolve::Consumer`.
    let back = Payment::from_confluent_expecting(&frame, schema_id)?;
    assert_eq!(back, payment);
    println!("read back with schema id {schema_id}: {back:?}");
    Ok(())
}
