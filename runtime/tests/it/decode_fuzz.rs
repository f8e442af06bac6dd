//! Random and mutated bytes fed to every decode path — derived codecs (the emitter generated
//! code uses, recursive types included), the resolving decode and its skip path, and the
//! framings — on a thread with a 2 MiB stack: each input gives a value or an error, never a
//! panic, a stack overflow or an allocation beyond the decode's budget. The same inputs are
//! fuzzed without bounds by the targets in `fuzz/`.

use std::collections::{BTreeMap, HashMap};

use avdl2rs::resolve::{Consumer, ResolutionPlan};
use avdl2rs::{Avro, AvroSchema};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// `record Node { long id; union{null, Node} next; array<Node> children; map<Leaf> leaves;
/// Shape shape; }`: recursion through an option, an array and a union enum.
#[derive(Avro, Debug, Clone, PartialEq)]
struct Node {
    id: i64,
    next: Option<Box<Node>>,
    children: Vec<Node>,
    leaves: HashMap<String, Leaf>,
    shape: Shape,
}

#[derive(Avro, Debug, Clone, PartialEq)]
struct Leaf {
    name: String,
    weight: f64,
    tags: Vec<()>,
    #[avro(precision = 9, scale = 2)]
    price: avdl2rs::logical::Decimal,
}

#[derive(Avro, Debug, Clone, PartialEq)]
enum Shape {
    Point(i32),
    Label(String),
    Nested(Box<Node>),
}

/// An older version of `Node`: `id` an int, a field dropped and one extra, so the plan
/// promotes, skips (recursively) and fills defaults.
const NODE_V1: &str = r#"{"type":"record","name":"Node","fields":[
  {"name":"extra","type":["null",{"type":"record","name":"Junk","fields":[
     {"name":"more","type":{"type":"array","items":"Junk"}},{"name":"bits","type":{"type":"map","values":"bytes"}}]}]},
  {"name":"id","type":"int"},
  {"name":"next","type":["null","Node"]},
  {"name":"children","type":{"type":"array","items":"Node"}},
  {"name":"leaves","type":{"type":"map","values":{"type":"record","name":"Leaf","fields":[
     {"name":"name","type":"string"},{"name":"weight","type":"float"},
     {"name":"tags","type":{"type":"array","items":"null"}},
     {"name":"price","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}}]}}},
  {"name":"shape","type":[{"type":"int"},"string","Node"]}]}"#;

fn sample() -> Node {
    let leaf = Leaf {
        name: "l".into(),
        weight: 0.5,
        tags: vec![(); 3],
        price: avdl2rs::logical::Decimal::from_i128(1250, 2),
    };
    let inner = Node {
        id: 2,
        next: None,
        children: vec![],
        leaves: HashMap::from([("k".to_string(), leaf)]),
        shape: Shape::Label("x".into()),
    };
    Node {
        id: 1,
        next: Some(Box::new(inner.clone())),
        children: vec![inner.clone(), inner.clone()],
        leaves: HashMap::new(),
        shape: Shape::Nested(Box::new(inner)),
    }
}

/// Every decode path over `bytes`; results are dropped (dropping is part of the test).
fn decode_everywhere(
    bytes: &[u8],
    plan: &ResolutionPlan,
    consumer: &Consumer<impl avdl2rs::resolve::SchemaLookup>,
) {
    let _ = Node::from_avro_bytes(bytes);
    let _ = plan.decode::<Node>(bytes);
    let mut framed = vec![0, 0, 0, 0, 1];
    framed.extend_from_slice(bytes);
    let _ = consumer.decode_confluent::<Node>(&framed);
    framed[4] = 2;
    let _ = consumer.decode_confluent::<Node>(&framed);
    let _ = Node::from_confluent_expecting(bytes, 2);
    let _ = Node::from_single_object(bytes);
}

/// Runs a proptest `runner` over `strategy` on a 2 MiB stack.
fn on_small_stack(cases: u32, strategy: impl Strategy<Value = Vec<u8>> + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let plan = ResolutionPlan::reading::<Node>(NODE_V1).unwrap();
            let consumer = Consumer::new(BTreeMap::from([(1, NODE_V1), (2, Node::SCHEMA_JSON)]));
            let mut runner = TestRunner::new(Config::with_cases(cases));
            runner
                .run(&strategy, |bytes| {
                    decode_everywhere(&bytes, &plan, &consumer);
                    Ok(())
                })
                .unwrap();
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn random_bytes_on_every_decode_path() {
    on_small_stack(3000, prop::collection::vec(any::<u8>(), 0..512));
}

#[test]
fn mutated_messages_on_every_decode_path() {
    let valid = sample().to_avro_bytes().unwrap();
    assert_eq!(Node::from_avro_bytes(&valid).unwrap(), sample());
    let edits = prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8);
    let strategy = edits.prop_map(move |edits| {
        let mut bytes = valid.clone();
        for (at, byte, how) in edits {
            let at = at.index(bytes.len() + 1);
            match how {
                0 if at < bytes.len() => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.push(byte),
            }
        }
        bytes
    });
    on_small_stack(3000, strategy);
}

#[test]
fn deep_and_wide_shapes_on_every_decode_path() {
    // Chains through `next` (2 bytes a level: id 0, branch 1) and through the union enum,
    // cut or extended anywhere: deeper than the limit, they must fail cleanly.
    let strategy = (1usize..3000, 0usize..4, any::<u8>()).prop_map(|(depth, tail, byte)| {
        let mut bytes = [0u8, 2].repeat(depth);
        bytes.extend([0, 0, 0, 0, 4].repeat(tail));
        bytes.push(byte);
        bytes
    });
    on_small_stack(200, strategy);
}
