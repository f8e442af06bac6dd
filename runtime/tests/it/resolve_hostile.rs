//! Resolving decode of hostile writer bytes: every malformed input is an error with an
//! offset, never a panic, a hang or an allocation out of proportion to the input.

use crate::resolve_support;

use apache_avro::types::Value;
use avdl2rs::resolve::{ResolutionPlan, ResolveError};
use proptest::prelude::*;
use resolve_support::{apache_bytes, payment_v1, OptLong, PaymentV2, PAYMENT_V1};

fn plan() -> ResolutionPlan {
    ResolutionPlan::reading::<PaymentV2>(PAYMENT_V1).unwrap()
}

/// The error of reading `bytes`: found while translating (offsets in the writer's bytes),
/// or, for the last run of the top-level record, which is copied unwalked, by the reader's
/// decode (offsets in the translated bytes).
fn rejection(plan: &ResolutionPlan, bytes: &[u8]) -> (bool, avdl2rs::DecodeError) {
    match plan.decode::<PaymentV2>(bytes) {
        Err(ResolveError::Translate(e)) => (true, e),
        Err(ResolveError::Decode(e)) => (false, e),
        other => panic!("expected an error, got {other:?}"),
    }
}

fn translate_error(plan: &ResolutionPlan, bytes: &[u8]) -> avdl2rs::DecodeError {
    match rejection(plan, bytes) {
        (true, e) => e,
        (false, e) => panic!("expected a translation error, got {e}"),
    }
}

#[test]
fn truncated_input_is_an_error_at_every_length() {
    let plan = plan();
    let bytes = apache_bytes(PAYMENT_V1, payment_v1("id", 77, 1, "note", &[1, 2, 3]));
    for len in 0..bytes.len() {
        match rejection(&plan, &bytes[..len]) {
            (true, err) => assert!(err.offset() <= len, "{err}"),
            // Only the tags, the last field (5 bytes: count, 3 items, end), are copied
            // unwalked and left to the reader's decode.
            (false, err) => assert!(len >= bytes.len() - 5, "{len}: {err}"),
        }
    }
    plan.decode::<PaymentV2>(&bytes).unwrap();
}

#[test]
fn trailing_bytes_are_an_error() {
    let plan = plan();
    let mut bytes = apache_bytes(PAYMENT_V1, payment_v1("id", 1, 0, "", &[]));
    bytes.push(0);
    let (_, err) = rejection(&plan, &bytes);
    assert!(err.to_string().contains("trailing"), "{err}");
}

#[test]
fn lengths_and_counts_beyond_the_input_are_errors_not_allocations() {
    let plan = plan();
    // id: a string claiming 2^62 bytes.
    let huge = [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f];
    translate_error(&plan, &huge);
    // A valid prefix, then an array block claiming a billion items.
    let mut bytes = apache_bytes(PAYMENT_V1, payment_v1("", 0, 0, "", &[]));
    bytes.pop(); // the end of the (empty) tags array
    bytes.extend([0x80, 0xa8, 0xd6, 0xb9, 0x07]);
    let (_, err) = rejection(&plan, &bytes);
    assert!(err.to_string().contains("block count"), "{err}");
}

#[test]
fn bad_enum_and_union_indexes_are_errors() {
    let plan = plan();
    let mut bytes = apache_bytes(PAYMENT_V1, payment_v1("", 0, 0, "", &[]));
    // id "" (0), amount 0 (0), legacy "old column" (...), then the enum index.
    let enum_at = 2 + 1 + "old column".len();
    bytes[enum_at] = 6; // index 3 of 3 symbols
    let err = translate_error(&plan, &bytes);
    assert!(err.to_string().contains("enum index 3"), "{err}");
    assert_eq!(err.offset(), enum_at);

    // An int union read as a long union is copied as is; the reader's decode checks it.
    let optional = ResolutionPlan::reading::<OptLong>(r#"["null","int"]"#).unwrap();
    assert!(matches!(
        optional.decode::<OptLong>(&[4, 0]),
        Err(ResolveError::Decode(_))
    ));
    let optional = ResolutionPlan::reading::<OptLong>(r#"["int","null"]"#).unwrap();
    assert!(matches!(
        optional.decode::<OptLong>(&[4, 0]),
        Err(ResolveError::Translate(_))
    ));
}

single_value_type!(
    Chain,
    usize,
    r#"{"type":"record","name":"Chain","fields":[{"name":"n","type":"long"},{"name":"next","type":["null","Chain"]}]}"#,
    r#"{"name":"Chain","type":"record","fields":[{"name":"n","type":"long"},{"name":"next","type":["null","Chain"]}]}"#,
    |r| {
        let mut depth = 0;
        loop {
            r.read_long()?;
            depth += 1;
            if r.read_union_index(2)? == 0 {
                break depth;
            }
        }
    }
);

#[test]
fn deep_recursion_is_cut_off_instead_of_overflowing_the_stack() {
    let writer = r#"{"type":"record","name":"Chain","fields":[{"name":"n","type":"int"},{"name":"next","type":["null","Chain"]}]}"#;
    let plan = ResolutionPlan::reading::<Chain>(writer).unwrap();
    let chain = |links: usize| {
        let mut bytes = [0u8, 2].repeat(links - 1);
        bytes.extend([0, 0]);
        bytes
    };
    assert_eq!(plan.decode::<Chain>(&chain(100)).unwrap(), Chain(100));
    let err = match plan.decode::<Chain>(&chain(100_000)) {
        Err(ResolveError::Translate(e)) => e,
        other => panic!("expected a depth error, got {other:?}"),
    };
    assert_eq!(
        err.kind(),
        &avdl2rs::DecodeErrorKind::TooDeep { limit: 512 },
        "{err}"
    );
}

single_value_type!(
    Padded,
    (),
    r#"{"type":"record","name":"P","fields":[{"name":"items","type":{"type":"array","items":{"type":"record","name":"E","fields":[{"name":"big","type":"string","default":"0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789"}]}}},{"name":"pad","type":"bytes"}]}"#,
    r#"{"name":"P","type":"record","fields":[{"name":"items","type":{"type":"array","items":{"name":"E","type":"record","fields":[{"name":"big","type":"string"}]}}},{"name":"pad","type":"bytes"}]}"#,
    |r| {
        r.read_array(|r| r.read_string().map(drop))?;
        r.read_bytes()?;
    }
);

#[test]
fn defaults_cannot_amplify_the_input_without_bound() {
    let writer = r#"{"type":"record","name":"P","fields":[{"name":"items","type":{"type":"array","items":{"type":"record","name":"E","fields":[]}}},{"name":"pad","type":"bytes"}]}"#;
    let plan = ResolutionPlan::reading::<Padded>(writer).unwrap();
    // `items` empty records cost no input bytes but 300 output bytes each; the count is
    // bounded by the bytes left, which the `pad` provides.
    let message = |items: usize| {
        let mut bytes = Vec::new();
        avdl2rs::codec::write_long(&mut bytes, items as i64);
        bytes.push(0);
        avdl2rs::codec::write_long(&mut bytes, items as i64);
        bytes.resize(bytes.len() + items, 0);
        bytes
    };
    plan.decode::<Padded>(&message(1000)).unwrap();
    let err = match plan.decode::<Padded>(&message(200_000)) {
        Err(ResolveError::Translate(e)) => e,
        other => panic!("expected a size error, got {other:?}"),
    };
    assert!(err.to_string().contains("larger than"), "{err}");
}

#[test]
fn the_same_message_as_apache_avro_resolves_is_not_refused() {
    let bytes = apache_bytes(
        PAYMENT_V1,
        Value::Record(vec![
            ("id".into(), Value::String("x".repeat(10_000))),
            ("amount".into(), Value::Int(1)),
            ("legacy".into(), Value::String(String::new())),
            ("status".into(), Value::Enum(0, "NEW".into())),
            ("note".into(), Value::String(String::new())),
            (
                "tags".into(),
                Value::Array((0..1000).map(Value::Int).collect()),
            ),
        ]),
    );
    assert_eq!(plan().decode::<PaymentV2>(&bytes).unwrap().tags.len(), 1000);
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = plan().decode::<PaymentV2>(&bytes);
        let mut out = Vec::new();
        let _ = plan().translate(&bytes, &mut out);
        prop_assert!(out.len() <= 16 << 20);
    }

    #[test]
    fn mutated_valid_messages_never_panic(index in 0usize..64, byte in any::<u8>()) {
        let mut bytes = apache_bytes(PAYMENT_V1, payment_v1("abc", -9, 2, "note", &[1, 500, -70000]));
        let at = index % bytes.len();
        bytes[at] = byte;
        let _ = plan().decode::<PaymentV2>(&bytes);
    }
}
