//! Code that builds records keeps compiling when the schema gains fields with defaults.
//!
//! `tests/evolution/orders_v1.avdl` and `orders_v2.avdl` are two versions of one schema, the
//! second adding fields with defaults (the compatible change). `build.rs` generates both, and
//! the same producer code — one macro body — builds an order against each.

#![deny(warnings)]

use avdl2rs::resolve::ResolutionPlan;
use avdl2rs::{Avro, AvroSchema};

pub(crate) mod v1 {
    include!(concat!(env!("OUT_DIR"), "/evolution_orders_v1.rs"));
}
pub(crate) mod v2 {
    include!(concat!(env!("OUT_DIR"), "/evolution_orders_v2.rs"));
}

/// A producer written against the first version: the fields without defaults through
/// `new`, a defaulted field it cares about through struct update syntax.
macro_rules! produce {
    ($version:ident) => {{
        use $version::com::example::evolution::{Line, Order};
        Order {
            note: Some("leave at the door".into()),
            ..Order::new("o-1".into(), vec![Line::new("sku-7".into(), 2)])
        }
    }};
}

#[test]
fn the_unchanged_producer_fills_the_added_fields_with_their_schema_defaults() {
    let order = produce!(v2);
    assert_eq!(order.id, "o-1");
    assert_eq!(order.note.as_deref(), Some("leave at the door"));
    // The defaults written in orders_v2.avdl.
    assert_eq!(order.currency, "EUR");
    assert_eq!(order.channel, v2::com::example::evolution::Channel::Store);
    assert!(order.tags.is_empty());
    assert!(!order.lines[0].gift);
}

/// A reader of the second version resolves the first version's bytes by taking the missing
/// fields from the reader's schema defaults (Avro's resolution rules): the record built by
/// the same producer code against the second version must be exactly that value.
#[test]
fn the_new_record_equals_what_a_new_reader_resolves_from_the_old_bytes() {
    let old_bytes = produce!(v1).to_avro_bytes().unwrap();
    type NewOrder = v2::com::example::evolution::Order;
    let plan = ResolutionPlan::reading::<NewOrder>(v1::com::example::evolution::Order::SCHEMA_JSON)
        .unwrap();
    assert!(!plan.is_direct(), "the versions must differ");
    let resolved: NewOrder = plan.decode(&old_bytes).unwrap();
    assert_eq!(resolved, produce!(v2));
}

#[test]
fn a_record_whose_fields_all_have_defaults_is_default() {
    let audit = v2::com::example::evolution::Audit::default();
    assert_eq!(audit.by, "system");
    assert_eq!(audit.revision, 1);
}
