use avdl2rs::Avro;

#[derive(Avro)]
#[avro(namespace = "a", namespace = "b")]
#[avro(crate = "not a path")]
struct Repeated {
    #[avro(doc = "one")]
    #[avro(doc = "two")]
    a: i32,
    #[avro(default = 1, default_json = "1")]
    b: i32,
    #[avro(logical = "timestamp-hours")]
    c: i64,
    #[avro(flavour = "plain")]
    d: i32,
}

#[derive(Avro)]
enum Symbols {
    #[avro(rename = "A", rename = "B")]
    First,
    #[avro(default, default)]
    Second,
}

fn main() {}
