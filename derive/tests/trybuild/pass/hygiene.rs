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

fn main() {
    assert_eq!(Node::FULL_NAME, "Node");
}
