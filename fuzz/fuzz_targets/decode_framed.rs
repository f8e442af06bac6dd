//! The framings: Confluent messages through a `Consumer` (direct and resolved ids, unknown
//! ids), the id-checked shortcut, and single-object messages.
#![no_main]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use avdl2rs::resolve::Consumer;
use avdl2rs::{Avro, AvroSchema};
use avdl2rs_fuzz::generated::{Expr, LinkedList, Tree};
use avdl2rs_fuzz::{LINKED_LIST_V0, TREE_V0};
use libfuzzer_sys::fuzz_target;

fn consumer() -> &'static Consumer<BTreeMap<i32, &'static str>> {
    static CONSUMER: OnceLock<Consumer<BTreeMap<i32, &'static str>>> = OnceLock::new();
    CONSUMER.get_or_init(|| {
        Consumer::new(BTreeMap::from([
            (1, LinkedList::SCHEMA_JSON),
            (2, LINKED_LIST_V0),
            (3, Tree::SCHEMA_JSON),
            (4, TREE_V0),
            (5, Expr::SCHEMA_JSON),
        ]))
    })
}

fuzz_target!(|message: &[u8]| {
    let consumer = consumer();
    drop(consumer.decode_confluent::<LinkedList>(message));
    drop(consumer.decode_confluent::<Tree>(message));
    drop(consumer.decode_confluent::<Expr>(message));
    drop(Expr::from_confluent_expecting(message, 5));
    drop(Tree::from_single_object(message));
});
