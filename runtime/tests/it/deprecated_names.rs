//! The names renamed or hidden in this release still compile, so users move at their pace.
#![allow(deprecated)]

use avdl2rs::codec::DecodeLimits;
use avdl2rs::resolve::ResolutionPlan;

const ID: &str = r#"{"type":"record","name":"Id","fields":[{"name":"id","type":"long"}]}"#;

#[derive(avdl2rs::Avro, Debug, PartialEq)]
struct Id {
    id: i64,
}

#[test]
fn old_plan_constructors_delegate_to_the_new_ones() {
    let old = ResolutionPlan::for_type::<Id>(ID).unwrap();
    let new = ResolutionPlan::reading::<Id>(ID).unwrap();
    assert_eq!(old.writer_fingerprint(), new.writer_fingerprint());
    assert_eq!(old.reader_fingerprint(), new.reader_fingerprint());
    let old = ResolutionPlan::from_type::<Id>(ID).unwrap();
    let new = ResolutionPlan::writing::<Id>(ID).unwrap();
    assert_eq!(old.writer_fingerprint(), new.writer_fingerprint());
}

#[test]
fn old_limit_constants_keep_their_values() {
    let short = DecodeLimits::for_input_len(0);
    assert_eq!(short.max_items, DecodeLimits::MIN_ITEMS);
    assert_eq!(short.max_memory, DecodeLimits::MIN_MEMORY);
    let long = DecodeLimits::for_input_len(1 << 20);
    assert_eq!(long.max_items, DecodeLimits::ITEMS_PER_BYTE << 20);
    assert_eq!(long.max_memory, DecodeLimits::MEMORY_PER_BYTE << 20);
}
