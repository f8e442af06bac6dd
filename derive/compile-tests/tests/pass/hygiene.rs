//! The expansion uses fully qualified paths only: it compiles where `Option`, `Result`,
//! `Vec`, `String` and `Box` name other things.

#![allow(dead_code)]

use avdl2rs::{Avro, AvroSchema};

struct Option;
struct Result;
struct Vec;
struct String;
struct Box;

#[derive(Avro)]
struct Node {
    label: ::std::string::String,
    weights: ::std::vec::Vec<f64>,
    parent: ::std::option::Option<::std::boxed::Box<Node>>,
    tag: Tag,
    choice: Choice,
}

#[derive(Avro)]
struct Tag([u8; 4]);

#[derive(Avro)]
enum Choice {
    Number(i64),
    Text(::std::string::String),
}

// The runtime under another path, as a crate that renames or re-exports it names it.
mod facade {
    pub use avdl2rs as runtime;
}

#[derive(Avro)]
#[avro(crate = "facade::runtime", namespace = "renamed")]
struct ThroughFacade {
    id: i64,
    choice: Choice,
}

// Methods of the types' own, named like the codec's helpers: the derive adds trait impls
// only, so nothing clashes and these stay the ones method calls find.
impl Choice {
    fn decode_branch(&self) -> &'static str {
        "mine"
    }
    fn decode(&self) -> &'static str {
        "mine"
    }
}

impl Node {
    fn decode_branch() -> &'static str {
        "mine"
    }
    fn encode(&self) -> &'static str {
        "mine"
    }
}

fn main() {
    assert_eq!(Node::FULL_NAME, "Node");
    let choice = Choice::Number(7);
    assert_eq!(choice.decode_branch(), "mine");
    assert_eq!(choice.decode(), "mine");
    assert_eq!(Node::decode_branch(), "mine");
    let bytes = avdl2rs::Avro::to_avro_bytes(&choice).unwrap();
    let back: Choice = avdl2rs::Avro::from_avro_bytes(&bytes).unwrap();
    assert!(matches!(back, Choice::Number(7)));
    let value = ThroughFacade { id: 1, choice };
    let bytes = avdl2rs::Avro::to_avro_bytes(&value).unwrap();
    assert_eq!(bytes, [2, 0, 14]);
    assert_eq!(ThroughFacade::FULL_NAME, "renamed.ThroughFacade");
}
