//! Enums, unions (with a `Null(())` branch) and fixed types, and a union of records that
//! refer back to the record holding the union.

use avdl2rs::{Avro, AvroSchema};

#[derive(Avro, Clone, Copy)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum Status {
    Open,
    #[avro(default)]
    InProgress,
    #[avro(rename = "closed")]
    Closed,
}

#[derive(Avro)]
struct Md5(pub [u8; 16]);

#[derive(Avro)]
enum Value {
    Null(()),
    Number(i64),
    Text(String),
    Status(Status),
    Hash(Md5),
    List(Vec<Status>),
}

#[derive(Avro)]
struct Expr {
    node: Node,
}

#[derive(Avro)]
enum Node {
    Literal(i64),
    Nested(Box<Expr>),
}

fn main() {
    assert_eq!(Md5::FULL_NAME, "Md5");
    assert!(Value::SCHEMA_JSON.starts_with(r#"["null","long","string""#));
    assert_eq!(
        Expr::CANONICAL_FORM,
        r#"{"name":"Expr","type":"record","fields":[{"name":"node","type":["long","Expr"]}]}"#
    );
}
