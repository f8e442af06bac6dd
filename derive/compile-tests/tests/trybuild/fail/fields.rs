use std::collections::HashMap;

use avdl2rs::Avro;

#[derive(Avro)]
struct Fields {
    unsigned: u32,
    keyed: HashMap<i32, String>,
    nested: Option<Option<i32>>,
    boxed: Box<i32>,
    reference: &'static str,
}

fn main() {}
