//! Records: primitives, containers, options, boxes, nested and recursive derived types,
//! logical types, and every field and container attribute.

// The fields are there for the schema and codec the derive gives, not to be read.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};

use avdl2rs::chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use avdl2rs::logical::{Decimal, Duration};
use avdl2rs::uuid::Uuid;
use avdl2rs::{Avro, AvroSchema};

/// A point on the plane.
#[derive(Avro)]
#[avro(namespace = "geo", aliases = ["Coordinate"])]
struct Point {
    #[avro(doc = "Horizontal", order = "descending")]
    x: i32,
    #[avro(aliases = ["vertical"])]
    y: i32,
}

#[derive(Avro)]
#[serde(rename_all = "camelCase")]
struct Everything {
    unit: (),
    flag: bool,
    small: i32,
    big: i64,
    single: f32,
    double: f64,
    #[avro(bytes)]
    blob: Vec<u8>,
    text: String,
    list: Vec<String>,
    hashed: HashMap<String, i64>,
    sorted: BTreeMap<String, Vec<Point>>,
    maybe: Option<Point>,
    #[avro(default = 3)]
    maybe_number: Option<i32>,
    #[avro(null_last)]
    maybe_text: Option<String>,
    #[serde(rename = "renamed_by_serde")]
    by_serde: i32,
    #[avro(rename = "renamed", default = "x")]
    by_avro: String,
    #[avro(precision = 9, scale = 2)]
    price: Decimal,
    #[avro(precision = 20, scale = 4, fixed = "Wide", size = 10)]
    wide_price: Decimal,
    id: Uuid,
    #[avro(fixed = "Id16")]
    fixed_id: Uuid,
    wait: Duration,
    day: NaiveDate,
    #[avro(logical = "time-millis")]
    time: NaiveTime,
    #[avro(logical = "timestamp-millis")]
    at: DateTime<Utc>,
    local: NaiveDateTime,
    #[avro(logical = "date")]
    raw_day: i32,
    next: Option<Box<Everything>>,
    children: Vec<Everything>,
}

fn main() {
    assert!(Everything::SCHEMA_JSON.contains(r#""name":"renamed_by_serde""#));
    assert_eq!(Point::FULL_NAME, "geo.Point");
}
