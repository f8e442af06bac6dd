//! Hand-written types with `#[derive(Avro)]` and generated types as fields of each other.
//!
//! A derived type holding generated ones (records, enums, union enums): the derived schema
//! defines each generated named type once (at its first use, by name afterwards), with its
//! namespace, as the specification's Parsing Canonical Form written out by hand below says;
//! apache-avro parses the derived JSON to the same canonical form, and values round-trip
//! through apache-avro with it. A generated type holding a derived one, which the generator
//! takes from the Rust code (`extern_path`) instead of generating it: the same checks on the
//! generated type.

// `from_avro_datum`/`to_avro_datum` are deprecated in apache-avro 0.22 but remain the
// simplest schema-only entry points.
#![allow(deprecated)]

use std::collections::HashMap;

use avdl2rs::{Avro, AvroSchema};

use crate::snapshot_types as generated;

use generated::namespaces::com::example::common::{Audit, Money};
use generated::namespaces::com::example::orders::Order;
use generated::namespaces::com::example::Status;
use generated::namespaces::Customer;
use generated::recursion::Tree;
use generated::unions::{Point as GeneratedPoint, ShapesMulti};

/// A derived record using generated records from several namespaces (one in none), a
/// generated enum, a generated type again inside another generated one (`Audit` holds
/// `Order`), one behind an `Option`, and a recursive generated type.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "com.example.shop")]
struct Basket {
    order: Order,
    audits: Vec<Audit>,
    spare: Option<Money>,
    tree: Tree,
}

/// Written from the specification: every named type by its full name, defined at its first
/// occurrence in depth-first order, attributes in the canonical order.
const EXPECTED_CANONICAL: &str = concat!(
    r#"{"name":"com.example.shop.Basket","type":"record","fields":["#,
    r#"{"name":"order","type":{"name":"com.example.orders.Order","type":"record","fields":["#,
    r#"{"name":"total","type":{"name":"com.example.common.Money","type":"record","fields":[{"name":"cents","type":"long"}]}},"#,
    r#"{"name":"customer","type":{"name":"Customer","type":"record","fields":[{"name":"name","type":"string"}]}},"#,
    r#"{"name":"status","type":{"name":"com.example.Status","type":"enum","symbols":["OPEN","DONE"]}}]}},"#,
    r#"{"name":"audits","type":{"type":"array","items":{"name":"com.example.common.Audit","type":"record","fields":[{"name":"order","type":"com.example.orders.Order"}]}}},"#,
    r#"{"name":"spare","type":["null","com.example.common.Money"]},"#,
    r#"{"name":"tree","type":{"name":"Tree","type":"record","fields":[{"name":"children","type":{"type":"array","items":"Tree"}},{"name":"by_name","type":{"type":"map","values":"Tree"}}]}}"#,
    r#"]}"#,
);

fn order(cents: i64) -> Order {
    Order {
        total: Money { cents },
        customer: Customer { name: "Ada".into() },
        status: Status::Done,
    }
}

fn basket() -> Basket {
    let leaf = Tree {
        children: Vec::new(),
        by_name: HashMap::new(),
    };
    Basket {
        order: order(1250),
        audits: vec![Audit { order: order(-3) }, Audit { order: order(0) }],
        spare: Some(Money { cents: 7 }),
        tree: Tree {
            children: vec![leaf.clone()],
            by_name: HashMap::from([("leaf".to_owned(), leaf)]),
        },
    }
}

#[test]
fn the_derived_schema_defines_each_generated_type_once() {
    assert_eq!(Basket::CANONICAL_FORM, EXPECTED_CANONICAL);
    let schema = apache_avro::Schema::parse_str(Basket::SCHEMA_JSON).unwrap();
    assert_eq!(schema.canonical_form(), EXPECTED_CANONICAL);
    // The null-namespace `Customer` is defined inside a namespaced record: its JSON must say so.
    assert!(
        Basket::SCHEMA_JSON.contains(r#""name":"Customer","namespace":"""#),
        "{}",
        Basket::SCHEMA_JSON
    );
}

/// A derived record holding a generated union enum (a union without `null`), directly and
/// as array items: the union is written in full each time, the record in it once.
#[derive(Avro, Debug, Clone, PartialEq)]
struct Drawing {
    shape: ShapesMulti,
    shapes: Vec<ShapesMulti>,
}

#[test]
fn a_derived_type_holds_a_generated_union_enum() {
    const EXPECTED: &str = concat!(
        r#"{"name":"Drawing","type":"record","fields":["#,
        r#"{"name":"shape","type":["int","string",{"name":"Point","type":"record","fields":[{"name":"x","type":"int"},{"name":"y","type":"int"}]},{"type":"array","items":"double"}]},"#,
        r#"{"name":"shapes","type":{"type":"array","items":["int","string","Point",{"type":"array","items":"double"}]}}]}"#,
    );
    assert_eq!(Drawing::CANONICAL_FORM, EXPECTED);
    let schema = apache_avro::Schema::parse_str(Drawing::SCHEMA_JSON).unwrap();
    assert_eq!(schema.canonical_form(), EXPECTED);
    let value = Drawing {
        shape: ShapesMulti::Point(GeneratedPoint { x: 3, y: -4 }),
        shapes: vec![
            ShapesMulti::Int(1),
            ShapesMulti::String("two".into()),
            ShapesMulti::Array(vec![0.5, -1.0]),
        ],
    };
    let ours = value.to_avro_bytes().unwrap();
    let read = apache_avro::from_avro_datum(&schema, &mut ours.as_slice(), None).unwrap();
    let theirs = apache_avro::to_avro_datum(&schema, read).unwrap();
    assert_eq!(theirs, ours);
    assert_eq!(Drawing::from_avro_bytes(&theirs).unwrap(), value);
}

#[test]
fn values_round_trip_through_apache_avro_with_the_derived_schema() {
    let schema = apache_avro::Schema::parse_str(Basket::SCHEMA_JSON).unwrap();
    let value = basket();
    let ours = value.to_avro_bytes().unwrap();
    let read = apache_avro::from_avro_datum(&schema, &mut ours.as_slice(), None).unwrap();
    let theirs = apache_avro::to_avro_datum(&schema, read).unwrap();
    assert_eq!(theirs, ours);
    assert_eq!(Basket::from_avro_bytes(&theirs).unwrap(), value);
}

/// The derived type the generated `Route` holds, with the traits generated types derive.
#[derive(Avro, Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[avro(namespace = "org.example.derived")]
pub struct Point {
    x: i32,
    y: i32,
}

#[allow(dead_code)]
mod holding_derived {
    include!(concat!(env!("OUT_DIR"), "/holding_derived.rs"));
}

use holding_derived::org::example::route::Route;

#[test]
fn a_generated_type_holds_a_derived_one() {
    const EXPECTED: &str = concat!(
        r#"{"name":"org.example.route.Route","type":"record","fields":["#,
        r#"{"name":"start","type":{"name":"org.example.derived.Point","type":"record","fields":[{"name":"x","type":"int"},{"name":"y","type":"int"}]}},"#,
        r#"{"name":"stops","type":{"type":"array","items":"org.example.derived.Point"}},"#,
        r#"{"name":"label","type":"string"}]}"#,
    );
    assert_eq!(Route::CANONICAL_FORM, EXPECTED);
    let schema = apache_avro::Schema::parse_str(Route::SCHEMA_JSON).unwrap();
    assert_eq!(schema.canonical_form(), EXPECTED);
    let value = Route {
        start: Point { x: 1, y: -2 },
        stops: vec![Point { x: 3, y: 4 }],
        label: "via".into(),
    };
    let ours = value.to_avro_bytes().unwrap();
    let read = apache_avro::from_avro_datum(&schema, &mut ours.as_slice(), None).unwrap();
    let theirs = apache_avro::to_avro_datum(&schema, read).unwrap();
    assert_eq!(theirs, ours);
    assert_eq!(Route::from_avro_bytes(&theirs).unwrap(), value);
}
