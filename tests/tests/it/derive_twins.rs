//! Hand-written twins of every named type of the codegen snapshot inputs
//! (`tests/snapshots/*.avsc`, `.avpr`), using `#[derive(Avro)]`.
//!
//! Per twin: the Parsing Canonical Form and fingerprint equal the generated type's; the bytes
//! of a sample value are re-encoded unchanged by the generated type's codec (so both write the
//! same bytes); and the value round-trips through `apache-avro` with the derived SCHEMA_JSON
//! (our bytes → `from_avro_datum` → `to_avro_datum` gives the same bytes, which decode back to
//! the value).

#![deny(warnings)]
// `from_avro_datum`/`to_avro_datum` are deprecated in apache-avro 0.22 but remain the
// simplest schema-only entry points.
#![allow(deprecated)]

use std::collections::{BTreeMap, HashMap};

use apache_avro::types::Value;
use avdl2rs::chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use avdl2rs::logical::{Decimal, Duration};
use avdl2rs::uuid::Uuid;
use avdl2rs::{Avro, AvroSchema};

/// A generated named type, as registered by `build.rs`.
struct Case {
    file: &'static str,
    full_name: &'static str,
    canonical_form: &'static str,
    fingerprint: u64,
    reencode: fn(&[u8]) -> Result<Vec<u8>, String>,
}

macro_rules! case {
    ($file:expr, $name:expr, $ty:path) => {
        Case {
            file: $file,
            full_name: $name,
            canonical_form: <$ty as AvroSchema>::CANONICAL_FORM,
            fingerprint: <$ty as AvroSchema>::FINGERPRINT,
            reencode: reencode::<$ty>,
        }
    };
}

include!(concat!(env!("OUT_DIR"), "/codegen_cases.rs"));

/// Decodes one `T` spanning all of `bytes` and encodes it again.
fn reencode<T: Avro>(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let value = T::from_avro_bytes(bytes).map_err(|e| format!("decode: {e}"))?;
    value.to_avro_bytes().map_err(|e| format!("encode: {e}"))
}

// ---------------------------------------------------------------- defaults.avsc

mod defaults {
    use super::*;

    #[derive(Avro, Debug, Clone, Copy, PartialEq)]
    pub enum Level {
        #[avro(rename = "LOW")]
        Low,
        #[avro(rename = "MEDIUM", default)]
        Medium,
        #[avro(rename = "HIGH")]
        High,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Tag(pub [u8; 2]);

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Inner {
        #[avro(default = 7)]
        pub a: i32,
        pub b: String,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub enum Either {
        Int(i32),
        String(String),
        Null(()),
    }

    /// Every field has a default, so the record implements Default.
    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Settings {
        #[avro(default = true)]
        pub enabled: bool,
        #[avro(default = -3)]
        pub retries: i32,
        #[avro(default = 10000000000)]
        pub limit: i64,
        #[avro(default = 0.5)]
        pub ratio: f32,
        #[avro(default = "NaN")]
        pub missing: f64,
        #[avro(default = "-Infinity")]
        pub floor: f64,
        #[avro(default = "a \"quoted\" name")]
        pub name: String,
        #[avro(default = "\u{0}\u{ff}")]
        pub raw: Vec<u8>,
        #[avro(default = "ab")]
        pub tag: Tag,
        #[avro(default = "HIGH")]
        pub level: Level,
        #[avro(default_json = r#"{"b": "x"}"#)]
        pub inner: Inner,
        #[avro(default = [1, 2])]
        pub list: Vec<i32>,
        #[avro(default_json = r#"{"one": 1}"#)]
        pub lookup: HashMap<String, i64>,
        pub maybe: Option<String>,
        #[avro(default = 5)]
        pub either: Either,
        #[avro(default = 19000)]
        pub day: NaiveDate,
        #[avro(logical = "timestamp-millis")]
        #[avro(default = -1000)]
        pub at: DateTime<Utc>,
        #[avro(default = 1500000)]
        pub local_at: NaiveDateTime,
        #[avro(logical = "time-millis")]
        #[avro(default = 43200000)]
        pub noon: NaiveTime,
        #[avro(default = "123e4567-e89b-12d3-a456-426614174000")]
        pub id: Uuid,
        #[avro(fixed = "FixedId")]
        #[avro(
            default = "\u{0}\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{e}\u{f}"
        )]
        pub fixed_id: Uuid,
        #[avro(default = null)]
        pub nothing: (),
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Partial {
        pub required: i32,
        #[avro(default = 1)]
        pub optional: i32,
    }

    pub fn settings() -> Settings {
        Settings {
            enabled: true,
            retries: -3,
            limit: 10_000_000_000,
            ratio: 0.5,
            missing: 1.25,
            floor: f64::NEG_INFINITY,
            name: "a \"quoted\" name".into(),
            raw: vec![0, 255],
            tag: Tag(*b"ab"),
            level: Level::High,
            inner: Inner {
                a: 7,
                b: "x".into(),
            },
            list: vec![1, 2],
            lookup: HashMap::from([("one".to_owned(), 1)]),
            maybe: Some("m".into()),
            either: Either::String("s".into()),
            day: NaiveDate::from_ymd_opt(2022, 1, 9).unwrap(),
            at: DateTime::from_timestamp_millis(1_234).unwrap(),
            local_at: DateTime::from_timestamp_micros(-5).unwrap().naive_utc(),
            noon: NaiveTime::from_hms_milli_opt(1, 2, 3, 4).unwrap(),
            id: Uuid::from_bytes([7; 16]),
            fixed_id: Uuid::from_bytes([9; 16]),
            nothing: (),
        }
    }
}

// ---------------------------------------------------------------- case_names.avsc

mod case_names {
    use super::*;

    #[derive(Avro, Debug, Clone, PartialEq)]
    #[avro(name = "builder", namespace = "org.example.names")]
    pub struct Lower {
        pub value: i32,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    #[avro(name = "Builder", namespace = "org.example.names")]
    pub struct Upper {
        pub inner: Lower,
        #[avro(default = null)]
        pub again: Option<Lower>,
        #[avro(default = 3000000)]
        pub far: NaiveDate,
    }

    pub fn upper() -> Upper {
        Upper {
            inner: Lower { value: -4 },
            again: Some(Lower { value: 9 }),
            far: NaiveDate::from_num_days_from_ce_opt(3_000_000 + 719_163).unwrap(),
        }
    }
}

// ---------------------------------------------------------------- doc_controls.avsc

/// Docs with what rustc refuses unescaped in generated source (a lone carriage return, text
/// direction controls), which the derive writes into its schema text as the generator does.
mod doc_controls {
    use super::*;

    #[derive(Avro, Debug, Clone, Copy, PartialEq)]
    #[avro(namespace = "docs.control", doc = "x\u{2066}y\u{2069} */ z")]
    pub enum Kind {
        A,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    #[avro(
        namespace = "docs.control",
        doc = "Written on an old Mac:\rtwo lines; then one that turns \u{202e}right to left\u{202c}."
    )]
    pub struct DocControls {
        #[avro(doc = "a\rb")]
        pub id: i64,
        pub kind: Kind,
    }
}

// ---------------------------------------------------------------- logical.avsc

mod logical {
    use super::*;

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub enum When {
        TimestampMillis(#[avro(logical = "timestamp-millis")] DateTime<Utc>),
        Uuid(Uuid),
        Null(()),
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    #[avro(namespace = "example.logical")]
    pub struct Logical {
        #[avro(precision = 10, scale = 2)]
        pub amount: Decimal,
        #[avro(precision = 18, scale = 4, fixed = "Amount", size = 8)]
        pub fixed_amount: Decimal,
        pub id: Uuid,
        #[avro(fixed = "Id")]
        pub fixed_id: Uuid,
        pub day: NaiveDate,
        #[avro(logical = "time-millis")]
        pub time_ms: NaiveTime,
        #[avro(logical = "time-micros")]
        pub time_us: NaiveTime,
        #[avro(logical = "timestamp-millis")]
        pub at_ms: DateTime<Utc>,
        pub at_us: DateTime<Utc>,
        #[avro(logical = "timestamp-nanos")]
        pub at_ns: DateTime<Utc>,
        #[avro(logical = "local-timestamp-millis")]
        pub local_ms: NaiveDateTime,
        pub local_us: NaiveDateTime,
        #[avro(logical = "local-timestamp-nanos")]
        pub local_ns: NaiveDateTime,
        #[avro(fixed = "Span")]
        pub span: Duration,
        pub unknown: String,
        pub maybe_day: Option<NaiveDate>,
        pub when: When,
    }

    /// The union branches [`logical`] leaves out.
    pub fn other_branches() -> Logical {
        let at = DateTime::from_timestamp_millis(-1_234_567).unwrap();
        Logical {
            maybe_day: Some(NaiveDate::from_ymd_opt(1969, 12, 31).unwrap()),
            when: When::TimestampMillis(at),
            ..logical()
        }
    }

    pub fn logical() -> Logical {
        let at = DateTime::from_timestamp(1_700_000_000, 123_000_000).unwrap();
        let local = at.naive_utc();
        Logical {
            amount: Decimal::from_i128(-12345, 2),
            fixed_amount: Decimal::from_i128(987_654_321, 4),
            id: Uuid::from_u128(0x0123_4567_89ab_cdef_0123_4567_89ab_cdef),
            fixed_id: Uuid::from_u128(42),
            day: NaiveDate::from_ymd_opt(2024, 2, 29).unwrap(),
            time_ms: NaiveTime::from_hms_milli_opt(12, 34, 56, 789).unwrap(),
            time_us: NaiveTime::from_hms_micro_opt(1, 2, 3, 4).unwrap(),
            at_ms: at,
            at_us: at,
            at_ns: at,
            local_ms: local,
            local_us: local,
            local_ns: local,
            span: Duration {
                months: 1,
                days: 2,
                millis: 3,
            },
            unknown: "u".into(),
            maybe_day: None,
            when: When::Uuid(Uuid::from_u128(7)),
        }
    }
}

// ---------------------------------------------------------------- namespaces.avpr

mod namespaces {
    use super::*;

    #[derive(Avro, Debug, Clone, PartialEq)]
    #[avro(namespace = "com.example.common")]
    pub struct Money {
        pub cents: i64,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Customer {
        pub name: String,
    }

    #[derive(Avro, Debug, Clone, Copy, PartialEq)]
    #[avro(namespace = "com.example")]
    #[serde(rename_all = "SCREAMING_SNAKE_CASE")]
    pub enum Status {
        Open,
        Done,
    }

    /// An order, referring to a type in another namespace.
    #[derive(Avro, Debug, Clone, PartialEq)]
    #[avro(namespace = "com.example.orders")]
    pub struct Order {
        pub total: Money,
        pub customer: Customer,
        pub status: Status,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    #[avro(namespace = "com.example.common")]
    pub struct Audit {
        pub order: Order,
    }

    pub fn order() -> Order {
        Order {
            total: Money { cents: 1999 },
            customer: Customer { name: "Ada".into() },
            status: Status::Done,
        }
    }
}

// ---------------------------------------------------------------- primitives.avsc

/// Every primitive, and containers nested in containers.
#[derive(Avro, Debug, Clone, PartialEq)]
struct Primitives {
    nothing: (),
    flag: bool,
    count: i32,
    total: i64,
    ratio: f32,
    precise: f64,
    blob: Vec<u8>,
    label: String,
    tags: Vec<String>,
    matrix: Vec<Vec<i64>>,
    index: BTreeMap<String, Vec<HashMap<String, i32>>>,
    nothings: Vec<()>,
}

fn primitives() -> Primitives {
    Primitives {
        nothing: (),
        flag: true,
        count: -17,
        total: i64::MIN,
        ratio: 1.5,
        precise: -0.125,
        blob: vec![1, 2, 3],
        label: "héllo".into(),
        tags: vec!["a".into(), "b".into()],
        matrix: vec![vec![1, -2], vec![], vec![i64::MAX]],
        index: BTreeMap::from([("k".to_owned(), vec![HashMap::from([("x".to_owned(), 5)])])]),
        // One item: the reader bounds a block count by the bytes left, and `null` items take none.
        nothings: vec![()],
    }
}

// ---------------------------------------------------------------- recursion.avsc

mod recursion {
    use super::*;

    /// Self recursion through an optional field.
    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct LinkedList {
        pub value: i32,
        pub next: Option<Box<LinkedList>>,
    }

    /// Recursion through an array needs no box.
    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Tree {
        pub children: Vec<Tree>,
        pub by_name: HashMap<String, Tree>,
    }

    /// Mutual recursion: only the edge back to Ping is boxed.
    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Ping {
        pub pong: Option<Pong>,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Pong {
        pub ping: Option<Box<Ping>>,
    }

    /// Recursion through a multi-branch union.
    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Expr {
        pub node: ExprNode,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub enum ExprNode {
        Long(i64),
        Expr(Box<Expr>),
        Sum(Sum),
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Sum {
        pub left: Box<Expr>,
        pub right: Box<Expr>,
    }

    pub fn list() -> LinkedList {
        LinkedList {
            value: 1,
            next: Some(Box::new(LinkedList {
                value: 2,
                next: None,
            })),
        }
    }

    pub fn tree() -> Tree {
        let leaf = || Tree {
            children: vec![],
            by_name: HashMap::new(),
        };
        Tree {
            children: vec![leaf(), leaf()],
            by_name: HashMap::from([("l".to_owned(), leaf())]),
        }
    }

    pub fn ping() -> Ping {
        Ping {
            pong: Some(Pong {
                ping: Some(Box::new(Ping { pong: None })),
            }),
        }
    }

    pub fn expr() -> Expr {
        let long = |n| {
            Box::new(Expr {
                node: ExprNode::Long(n),
            })
        };
        Expr {
            node: ExprNode::Sum(Sum {
                left: long(1),
                right: Box::new(Expr {
                    node: ExprNode::Expr(long(2)),
                }),
            }),
        }
    }
}

// ---------------------------------------------------------------- reserved.avsc

mod reserved {
    use super::*;

    #[derive(Avro, Debug, Clone, Copy, PartialEq)]
    #[avro(name = "enum", namespace = "match.self")]
    pub enum Enum {
        #[avro(rename = "Self")]
        SelfSymbol,
        #[avro(rename = "type")]
        Type,
        None,
        Some,
        #[serde(rename = "lower")]
        Lower,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    #[avro(name = "Box", namespace = "match.self")]
    pub struct BoxRecord {
        #[avro(rename = "Vec")]
        pub vec: String,
    }

    /// Names that are Rust keywords.
    ///
    /// ```
    /// not a doctest
    /// ```
    /// See [link] and <html> and *stars*.
    #[derive(Avro, Debug, Clone, PartialEq)]
    #[avro(name = "type", namespace = "match.self")]
    pub struct Type {
        pub r#type: String,
        #[avro(rename = "self")]
        pub self_: i32,
        #[avro(rename = "Self")]
        pub self_type: i32,
        #[avro(rename = "super")]
        pub super_: i32,
        #[avro(rename = "crate")]
        pub crate_: i32,
        pub r#fn: i32,
        pub r#async: i32,
        #[avro(rename = "_")]
        pub underscore: i32,
        #[avro(aliases = ["old_name"])]
        #[serde(rename = "camelCase")]
        pub camel_case: i32,
        #[avro(rename = "Option")]
        pub option: Enum,
        #[avro(rename = "Result")]
        pub result: Option<BoxRecord>,
    }

    pub fn value() -> Type {
        Type {
            r#type: "t".into(),
            self_: 1,
            self_type: 2,
            super_: 3,
            crate_: 4,
            r#fn: 5,
            r#async: 6,
            underscore: 7,
            camel_case: 8,
            option: Enum::Lower,
            result: Some(BoxRecord { vec: "v".into() }),
        }
    }
}

// ---------------------------------------------------------------- unions.avsc

mod unions {
    use super::*;

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Point {
        pub x: i32,
        pub y: i32,
    }

    #[derive(Avro, Debug, Clone, Copy, PartialEq)]
    #[avro(rename_all = "UPPERCASE")]
    pub enum Colour {
        Red,
        Green,
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub enum Multi {
        Int(i32),
        String(String),
        Point(Point),
        Array(Vec<f64>),
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub enum MultiWithNull {
        String(String),
        Null(()),
        Colour(Colour),
        Map(HashMap<String, bool>),
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub enum InArray {
        Null(()),
        Int(i32),
        String(String),
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub enum InMap {
        Bytes(Vec<u8>),
        Point(Point),
    }

    #[derive(Avro, Debug, Clone, PartialEq)]
    pub enum OnlyBranch {
        Float(f32),
    }

    /// Every shape of union.
    #[derive(Avro, Debug, Clone, PartialEq)]
    pub struct Shapes {
        pub null_first: Option<String>,
        #[avro(null_last)]
        pub null_last: Option<i64>,
        pub optional_record: Option<Point>,
        pub multi: Multi,
        pub multi_with_null: MultiWithNull,
        pub in_array: Vec<InArray>,
        pub in_map: HashMap<String, InMap>,
        pub only_branch: OnlyBranch,
    }

    /// The union branches [`shapes`] leaves out.
    pub fn other_branches() -> Shapes {
        Shapes {
            null_first: None,
            null_last: None,
            optional_record: None,
            multi: Multi::Int(i32::MIN),
            multi_with_null: MultiWithNull::Map(HashMap::from([("t".to_owned(), true)])),
            in_array: vec![],
            in_map: HashMap::from([("b".to_owned(), InMap::Bytes(vec![0xff]))]),
            only_branch: OnlyBranch::Float(-0.0),
        }
    }

    pub fn shapes() -> Shapes {
        Shapes {
            null_first: Some("first".into()),
            null_last: Some(-1),
            optional_record: Some(Point { x: 1, y: 2 }),
            multi: Multi::Array(vec![0.5, -2.0]),
            multi_with_null: MultiWithNull::Colour(Colour::Green),
            in_array: vec![
                InArray::Null(()),
                InArray::Int(3),
                InArray::String("s".into()),
            ],
            in_map: HashMap::from([("p".to_owned(), InMap::Point(Point { x: -5, y: 6 }))]),
            only_branch: OnlyBranch::Float(2.5),
        }
    }
}

/// A twin's sample, type-erased.
struct Twin {
    file: &'static str,
    full_name: &'static str,
    schema_json: &'static str,
    canonical_form: &'static str,
    fingerprint: u64,
    bytes: Vec<u8>,
    /// Decodes with the twin and encodes again.
    reencode: fn(&[u8]) -> Result<Vec<u8>, String>,
}

fn twin<T: Avro + PartialEq + std::fmt::Debug>(file: &'static str, value: T) -> Twin {
    let bytes = value.to_avro_bytes().expect("the sample encodes");
    let back = T::from_avro_bytes(&bytes).expect("the sample decodes");
    assert_eq!(
        back,
        value,
        "{} does not round-trip through its own codec",
        T::FULL_NAME
    );
    Twin {
        file,
        full_name: T::FULL_NAME,
        schema_json: T::SCHEMA_JSON,
        canonical_form: T::CANONICAL_FORM,
        fingerprint: T::FINGERPRINT,
        bytes,
        reencode: reencode::<T>,
    }
}

fn twins() -> Vec<Twin> {
    use self::defaults as d;
    use self::namespaces as n;
    use self::recursion as r;
    use self::unions as u;
    vec![
        twin("defaults.avsc", d::Level::Medium),
        twin("defaults.avsc", d::Tag(*b"zz")),
        twin(
            "defaults.avsc",
            d::Inner {
                a: 1,
                b: "b".into(),
            },
        ),
        twin("defaults.avsc", d::settings()),
        twin(
            "defaults.avsc",
            d::Partial {
                required: 3,
                optional: 4,
            },
        ),
        twin("case_names.avsc", case_names::Lower { value: 1 }),
        twin("case_names.avsc", case_names::upper()),
        twin("doc_controls.avsc", doc_controls::Kind::A),
        twin(
            "doc_controls.avsc",
            doc_controls::DocControls {
                id: -3,
                kind: doc_controls::Kind::A,
            },
        ),
        twin("logical.avsc", logical::logical()),
        twin("namespaces.avpr", n::Money { cents: -1 }),
        twin("namespaces.avpr", n::Customer { name: "c".into() }),
        twin("namespaces.avpr", n::Status::Open),
        twin("namespaces.avpr", n::order()),
        twin("namespaces.avpr", n::Audit { order: n::order() }),
        twin("primitives.avsc", primitives()),
        twin("recursion.avsc", r::list()),
        twin("recursion.avsc", r::tree()),
        twin("recursion.avsc", r::ping()),
        twin("recursion.avsc", r::Pong { ping: None }),
        twin("recursion.avsc", r::expr()),
        twin(
            "recursion.avsc",
            r::Sum {
                left: Box::new(r::expr()),
                right: Box::new(r::expr()),
            },
        ),
        twin("reserved.avsc", reserved::Enum::SelfSymbol),
        twin("reserved.avsc", reserved::BoxRecord { vec: "v".into() }),
        twin("reserved.avsc", reserved::value()),
        twin("unions.avsc", u::Point { x: 1, y: -1 }),
        twin("unions.avsc", u::Colour::Red),
        twin("unions.avsc", u::shapes()),
        twin("unions.avsc", u::other_branches()),
        twin(
            "unions.avsc",
            u::Shapes {
                multi: u::Multi::String("m".into()),
                multi_with_null: u::MultiWithNull::Null(()),
                ..u::shapes()
            },
        ),
        twin(
            "unions.avsc",
            u::Shapes {
                multi: u::Multi::Point(u::Point { x: 0, y: 0 }),
                multi_with_null: u::MultiWithNull::String("w".into()),
                ..u::shapes()
            },
        ),
        twin("logical.avsc", logical::other_branches()),
        twin(
            "defaults.avsc",
            d::Settings {
                either: d::Either::Null(()),
                maybe: None,
                ..d::settings()
            },
        ),
        twin(
            "defaults.avsc",
            d::Settings {
                either: d::Either::Int(-9),
                ..d::settings()
            },
        ),
    ]
}

fn generated_case(twin: &Twin) -> &'static Case {
    CASES
        .iter()
        .find(|c| {
            c.file.ends_with(&format!("snapshots/{}", twin.file)) && c.full_name == twin.full_name
        })
        .unwrap_or_else(|| panic!("no generated type {} from {}", twin.full_name, twin.file))
}

#[test]
fn every_generated_snapshot_type_has_a_twin() {
    let twins = twins();
    let missing: Vec<&str> = CASES
        .iter()
        // The JSON snapshot inputs; the IDL ones are in the round trip, without twins.
        .filter(|c| c.file.contains("/tests/snapshots/") && !c.file.ends_with(".avdl"))
        .filter(|c| {
            !twins
                .iter()
                .any(|t| c.file.ends_with(t.file) && c.full_name == t.full_name)
        })
        .map(|c| c.full_name)
        .collect();
    assert!(
        missing.is_empty(),
        "snapshot types without a derived twin: {missing:?}"
    );
}

#[test]
fn twins_have_the_canonical_form_and_fingerprint_of_the_generated_types() {
    for twin in twins() {
        let case = generated_case(&twin);
        assert_eq!(
            twin.canonical_form, case.canonical_form,
            "{}",
            twin.full_name
        );
        assert_eq!(twin.fingerprint, case.fingerprint, "{}", twin.full_name);
    }
}

#[test]
fn generated_types_reencode_the_twins_bytes_unchanged() {
    for twin in twins() {
        let case = generated_case(&twin);
        let theirs =
            (case.reencode)(&twin.bytes).unwrap_or_else(|e| panic!("{}: {e}", twin.full_name));
        assert_eq!(theirs, twin.bytes, "{}", twin.full_name);
    }
}

#[test]
fn twins_round_trip_through_apache_avro_with_the_derived_schema() {
    for twin in twins() {
        let schema = apache_avro::Schema::parse_str(twin.schema_json).unwrap_or_else(|e| {
            panic!(
                "apache-avro rejects the schema of {}: {e}\n{}",
                twin.full_name, twin.schema_json
            )
        });
        let value = apache_avro::from_avro_datum(&schema, &mut twin.bytes.as_slice(), None)
            .unwrap_or_else(|e| panic!("apache-avro cannot read {}: {e}", twin.full_name));
        let theirs = apache_avro::to_avro_datum(&schema, value).unwrap();
        assert_eq!(theirs, twin.bytes, "{}", twin.full_name);
        let ours = (twin.reencode)(&theirs).unwrap();
        assert_eq!(ours, twin.bytes, "{}", twin.full_name);
    }
}

#[test]
fn apache_avro_reads_the_expected_values() {
    let record = |fields: Vec<(&str, Value)>| {
        Value::Record(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    };
    let point = |x, y| record(vec![("x", Value::Int(x)), ("y", Value::Int(y))]);
    let list = recursion::list();
    let expected_list = record(vec![
        ("value", Value::Int(1)),
        (
            "next",
            Value::Union(
                1,
                Box::new(record(vec![
                    ("value", Value::Int(2)),
                    ("next", Value::Union(0, Box::new(Value::Null))),
                ])),
            ),
        ),
    ]);
    let shapes = unions::shapes();
    let expected_shapes = record(vec![
        (
            "null_first",
            Value::Union(1, Box::new(Value::String("first".into()))),
        ),
        ("null_last", Value::Union(0, Box::new(Value::Long(-1)))),
        ("optional_record", Value::Union(1, Box::new(point(1, 2)))),
        (
            "multi",
            Value::Union(
                3,
                Box::new(Value::Array(vec![Value::Double(0.5), Value::Double(-2.0)])),
            ),
        ),
        (
            "multi_with_null",
            Value::Union(2, Box::new(Value::Enum(1, "GREEN".into()))),
        ),
        (
            "in_array",
            Value::Array(vec![
                Value::Union(0, Box::new(Value::Null)),
                Value::Union(1, Box::new(Value::Int(3))),
                Value::Union(2, Box::new(Value::String("s".into()))),
            ]),
        ),
        (
            "in_map",
            Value::Map(HashMap::from([(
                "p".to_owned(),
                Value::Union(1, Box::new(point(-5, 6))),
            )])),
        ),
        ("only_branch", Value::Union(0, Box::new(Value::Float(2.5)))),
    ]);
    check_expected(&list, expected_list);
    check_expected(&shapes, expected_shapes);
    let order = namespaces::order();
    let expected_order = record(vec![
        ("total", record(vec![("cents", Value::Long(1999))])),
        (
            "customer",
            record(vec![("name", Value::String("Ada".into()))]),
        ),
        ("status", Value::Enum(1, "DONE".into())),
    ]);
    check_expected(&order, expected_order);
}

/// Ours → apache-avro gives `expected`; apache-avro's bytes of `expected` → ours gives `value`.
fn check_expected<T: Avro + PartialEq + std::fmt::Debug>(value: &T, expected: Value) {
    let schema = apache_avro::Schema::parse_str(T::SCHEMA_JSON).unwrap();
    let ours = value.to_avro_bytes().unwrap();
    let read = apache_avro::from_avro_datum(&schema, &mut ours.as_slice(), None).unwrap();
    assert_eq!(read, expected, "{}", T::FULL_NAME);
    let theirs = apache_avro::to_avro_datum(&schema, expected).unwrap();
    assert_eq!(
        &T::from_avro_bytes(&theirs).unwrap(),
        value,
        "{}",
        T::FULL_NAME
    );
}
