//! The per-decode budget of the `Reader`: arrays of zero-byte items decode as every other
//! implementation reads them, nested arrays cannot multiply the work, items that are large
//! in memory cannot multiply the memory, and recursion stops at one depth on every path —
//! checked on a thread with a 2 MiB stack (tokio's worker default), dropping included.

use apache_avro::types::Value as AvroValue;
use avdl2rs::codec::{self, DecodeLimits, Reader};
use avdl2rs::resolve::ResolutionPlan;
use avdl2rs::{Avro, AvroDecode, AvroSchema, DecodeErrorKind};

/// `record Nulls { array<null> a; }`.
#[derive(Avro, Debug, PartialEq)]
struct Nulls {
    a: Vec<()>,
}

/// `record Empty {}`, and an array of it.
#[derive(Avro, Debug, PartialEq)]
struct Empty {}

#[derive(Avro, Debug, PartialEq)]
struct Empties {
    a: Vec<Empty>,
}

/// `record Grid { array<array<null>> rows; }`.
#[derive(Avro, Debug, PartialEq)]
struct Grid {
    rows: Vec<Vec<()>>,
}

/// A record that is large in memory: 48 `long`s.
#[derive(Avro, Debug, PartialEq, Default)]
struct Big {
    f: Vec<i64>,
    l00: i64,
    l01: i64,
    l02: i64,
    l03: i64,
    l04: i64,
    l05: i64,
    l06: i64,
    l07: i64,
    l08: i64,
    l09: i64,
    l10: i64,
    l11: i64,
    l12: i64,
    l13: i64,
    l14: i64,
    l15: i64,
    l16: i64,
    l17: i64,
    l18: i64,
    l19: i64,
    l20: i64,
    l21: i64,
    l22: i64,
    l23: i64,
    l24: i64,
    l25: i64,
    l26: i64,
    l27: i64,
    l28: i64,
    l29: i64,
    l30: i64,
    l31: i64,
    l32: i64,
    l33: i64,
    l34: i64,
    l35: i64,
    l36: i64,
    l37: i64,
    l38: i64,
    l39: i64,
    l40: i64,
    l41: i64,
    l42: i64,
    l43: i64,
    l44: i64,
}

/// `record Bigs { array<union{null, Big}> items; }`: each `null` item is one byte.
#[derive(Avro, Debug, PartialEq)]
struct Bigs {
    items: Vec<Option<Big>>,
}

/// `record Link { long n; union{null, Link} next; }`: a linked list.
#[derive(Avro, Debug, PartialEq)]
struct Link {
    n: i64,
    next: Option<Box<Link>>,
}

/// `record Tree { array<Tree> children; }`.
#[derive(Avro, Debug, PartialEq)]
struct Tree {
    children: Vec<Tree>,
}

/// Runs `f` on a thread with a 2 MiB stack: an overflow aborts the test process.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// Decodes `bytes` with apache-avro under `schema`.
fn apache_decode(schema: &str, bytes: &[u8]) -> AvroValue {
    let schema = apache_avro::Schema::parse_str(schema).unwrap();
    apache_avro::reader::datum::GenericDatumReader::builder(&schema)
        .build()
        .unwrap()
        .read_value(&mut &bytes[..])
        .unwrap()
}

#[test]
fn arrays_of_zero_byte_items_decode_like_apache_avro() {
    // `0600` is `{"a": [null, null, null]}`: a block of 3 items, then the end.
    let bytes = [0x06, 0x00];
    assert_eq!(
        Nulls::from_avro_bytes(&bytes).unwrap(),
        Nulls { a: vec![(); 3] }
    );
    let AvroValue::Record(fields) = apache_decode(Nulls::SCHEMA_JSON, &bytes) else {
        panic!("a record")
    };
    assert_eq!(fields[0].1, AvroValue::Array(vec![AvroValue::Null; 3]));
    // Empty records take no bytes either.
    assert_eq!(Empties::from_avro_bytes(&bytes).unwrap().a.len(), 3);
    // And the resolving path reads them too (a writer with an extra field to skip).
    let writer = r#"{"type":"record","name":"Nulls","fields":[{"name":"a","type":{"type":"array","items":"null"}},{"name":"x","type":{"type":"array","items":"null"},"default":[]}]}"#;
    let plan = ResolutionPlan::reading::<Nulls>(writer).unwrap();
    assert_eq!(
        plan.decode::<Nulls>(&[0x06, 0x00, 0x08, 0x00]).unwrap(),
        Nulls { a: vec![(); 3] }
    );
}

/// `array<array<null>>` where every inner array announces as many nulls as bytes are left:
/// with a per-array bound this is ~n²/6 items for n bytes.
fn nested_null_arrays(outer: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    codec::write_long(&mut bytes, outer as i64);
    for i in 0..outer {
        let left = 3 * (outer - i);
        codec::write_long(&mut bytes, left as i64);
        bytes.push(0);
    }
    bytes.push(0);
    bytes
}

#[test]
fn nested_arrays_share_one_item_budget() {
    let bytes = nested_null_arrays(20_000);
    let len = bytes.len();
    let error = Grid::from_avro_bytes(&bytes).unwrap_err();
    assert!(
        matches!(error.kind(), DecodeErrorKind::TooManyItems { limit, .. } if *limit == 8 * len),
        "{error}"
    );
    // The resolving skip path (the grid is a field only the writer has) stops the same way.
    let writer = r#"{"type":"record","name":"Nulls","fields":[{"name":"g","type":{"type":"array","items":{"type":"array","items":"null"}}},{"name":"a","type":{"type":"array","items":"null"}}]}"#;
    let plan = ResolutionPlan::reading::<Nulls>(writer).unwrap();
    let mut body = bytes.clone();
    body.push(0);
    let error = plan.decode::<Nulls>(&body).unwrap_err();
    assert!(error.to_string().contains("budget"), "{error}");
    // A budget large enough for the real count reads it.
    let small = nested_null_arrays(10);
    let total: usize = (1..=10).map(|i| 3 * i).sum();
    let limits = DecodeLimits {
        max_items: total + 10,
        ..DecodeLimits::for_input_len(small.len())
    };
    let grid = Grid::decode(&mut Reader::with_limits(&small, limits)).unwrap();
    assert_eq!(grid.rows.iter().map(Vec::len).sum::<usize>(), total);
}

#[test]
fn items_large_in_memory_are_bounded_relative_to_the_input() {
    let slot = std::mem::size_of::<Option<Big>>();
    assert!(slot >= 384, "{slot}");
    // One million `null` items: 1 MB of body, ~384 MB of slots without a budget.
    let count = 1_000_000;
    let mut bytes = Vec::new();
    codec::write_long(&mut bytes, count);
    bytes.resize(bytes.len() + count as usize, 0);
    bytes.push(0);
    let error = Bigs::from_avro_bytes(&bytes).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::TooMuchMemory {
            limit: 64 * bytes.len()
        }
    );
    // A caller who expects such messages raises the budget.
    let limits = DecodeLimits {
        max_memory: 400 << 20,
        ..DecodeLimits::for_input_len(bytes.len())
    };
    let mut reader = Reader::with_limits(&bytes, limits);
    assert_eq!(Bigs::decode(&mut reader).unwrap().items.len(), 1_000_000);
}

/// A list of `links` links, as written by the encoder.
fn chain(links: usize) -> Vec<u8> {
    let mut bytes = [0u8, 2].repeat(links - 1);
    bytes.extend([0, 0]);
    bytes
}

/// Nested trees `depth` levels deep: each level is one child then the end of the array.
fn nested_trees(depth: usize) -> Vec<u8> {
    let mut bytes = [2u8].repeat(depth - 1);
    bytes.push(0);
    bytes.extend([0u8].repeat(depth - 1));
    bytes
}

#[test]
fn recursion_stops_at_the_depth_limit_on_a_small_stack() {
    on_small_stack(|| {
        // 26,000 links (52 KB) and 5,000 levels of nested arrays used to overflow.
        let error = Link::from_avro_bytes(&chain(26_000)).unwrap_err();
        assert_eq!(error.kind(), &DecodeErrorKind::TooDeep { limit: 512 });
        assert_eq!(error.path().matches("next").count(), 512, "{error}");
        let error = Tree::from_avro_bytes(&nested_trees(5_000)).unwrap_err();
        assert_eq!(error.kind(), &DecodeErrorKind::TooDeep { limit: 512 });
        // The deepest accepted values decode, and drop, on the same stack.
        let list = Link::from_avro_bytes(&chain(512)).unwrap();
        assert_eq!(list.n, 0);
        drop(list);
        let tree = Tree::from_avro_bytes(&nested_trees(512)).unwrap();
        drop(tree);
        assert!(Link::from_avro_bytes(&chain(513)).is_err());
    });
}

#[test]
fn the_resolving_path_has_the_same_depth_limit() {
    on_small_stack(|| {
        let writer = r#"{"type":"record","name":"Link","fields":[{"name":"n","type":"int"},{"name":"next","type":["null","Link"]}]}"#;
        let plan = ResolutionPlan::reading::<Link>(writer).unwrap();
        assert!(plan.decode::<Link>(&chain(512)).is_ok());
        let error = plan.decode::<Link>(&chain(513)).unwrap_err();
        assert!(error.to_string().contains("512 levels"), "{error}");
        // Skipped writer-only recursion is limited too.
        let writer = r#"{"type":"record","name":"Nulls","fields":[{"name":"a","type":{"type":"array","items":"null"}},{"name":"x","type":["null",{"type":"record","name":"L","fields":[{"name":"n","type":"int"},{"name":"next","type":["null","L"]}]}]}]}"#;
        let plan = ResolutionPlan::reading::<Nulls>(writer).unwrap();
        let mut body = vec![0, 2];
        body.extend(chain(100_000));
        let error = plan.decode::<Nulls>(&body).unwrap_err();
        assert!(error.to_string().contains("512 levels"), "{error}");
    });
}

#[test]
fn the_depth_limit_is_settable() {
    let bytes = chain(10);
    let limits = DecodeLimits {
        max_depth: 5,
        ..DecodeLimits::for_input_len(bytes.len())
    };
    let error = Link::decode(&mut Reader::with_limits(&bytes, limits)).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::TooDeep { limit: 5 });
}

#[test]
fn a_depth_limit_counts_the_outermost_record() {
    let limits = |max_depth| DecodeLimits {
        max_depth,
        ..DecodeLimits::for_input_len(2)
    };
    let one = chain(1);
    let error = Link::decode(&mut Reader::with_limits(&one, limits(0))).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::TooDeep { limit: 0 });
    assert_eq!(
        Link::decode(&mut Reader::with_limits(&one, limits(1)))
            .unwrap()
            .n,
        0
    );
    let two = chain(2);
    assert!(Link::decode(&mut Reader::with_limits(&two, limits(1))).is_err());
}

/// A recursive record of 40 optional strings besides its link: a large decode frame.
#[derive(Avro, Debug, PartialEq)]
struct WideLink {
    s00: Option<String>,
    s01: Option<String>,
    s02: Option<String>,
    s03: Option<String>,
    s04: Option<String>,
    s05: Option<String>,
    s06: Option<String>,
    s07: Option<String>,
    s08: Option<String>,
    s09: Option<String>,
    s10: Option<String>,
    s11: Option<String>,
    s12: Option<String>,
    s13: Option<String>,
    s14: Option<String>,
    s15: Option<String>,
    s16: Option<String>,
    s17: Option<String>,
    s18: Option<String>,
    s19: Option<String>,
    s20: Option<String>,
    s21: Option<String>,
    s22: Option<String>,
    s23: Option<String>,
    s24: Option<String>,
    s25: Option<String>,
    s26: Option<String>,
    s27: Option<String>,
    s28: Option<String>,
    s29: Option<String>,
    s30: Option<String>,
    s31: Option<String>,
    s32: Option<String>,
    s33: Option<String>,
    s34: Option<String>,
    s35: Option<String>,
    s36: Option<String>,
    s37: Option<String>,
    s38: Option<String>,
    s39: Option<String>,
    next: Option<Box<WideLink>>,
}

/// A chain of `links` `WideLink`s with every string null.
fn wide_chain(links: usize) -> Vec<u8> {
    let mut level = vec![0u8; 40];
    level.push(2);
    let mut bytes = level.repeat(links - 1);
    bytes.extend([0u8; 41]);
    bytes
}

#[test]
fn a_wide_recursive_record_stops_at_the_stack_limit_on_a_small_stack() {
    on_small_stack(|| {
        // A level of this record takes several KiB of stack in a debug build: the stack
        // limit stops the decode before the depth limit does, where a release build reads it.
        match WideLink::from_avro_bytes(&wide_chain(512)) {
            Ok(value) => drop(value),
            Err(error) => assert!(
                matches!(error.kind(), DecodeErrorKind::TooMuchStack { limit, depth }
                    if *limit == 1 << 20 && *depth < 512),
                "{error}"
            ),
        }
        let error = WideLink::from_avro_bytes(&wide_chain(5_000)).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                DecodeErrorKind::TooDeep { .. } | DecodeErrorKind::TooMuchStack { .. }
            ),
            "{error}"
        );
    });
    let bytes = wide_chain(512);
    let limits = DecodeLimits {
        max_stack: 16 << 10,
        ..DecodeLimits::for_input_len(bytes.len())
    };
    let error = WideLink::decode(&mut Reader::with_limits(&bytes, limits)).unwrap_err();
    assert!(
        matches!(error.kind(), DecodeErrorKind::TooMuchStack { limit, depth }
            if *limit == 16 << 10 && *depth < 512),
        "{error}"
    );
}

/// Readers over the values of one input share its budget through `limits_left`: what one
/// took, the next cannot take again.
#[test]
fn the_budget_left_passes_from_reader_to_reader() {
    // Two `array<null>` values of three items each.
    let bytes = [0x06, 0x00, 0x06, 0x00];
    let limits = DecodeLimits {
        max_items: 5,
        ..DecodeLimits::for_input_len(bytes.len())
    };
    let mut first = Reader::with_limits(&bytes, limits);
    assert_eq!(first.read_array(|_| Ok(())).unwrap().len(), 3);
    let left = first.limits_left();
    assert_eq!(left.max_items, 2);
    assert_eq!(
        (left.max_depth, left.max_stack),
        (limits.max_depth, limits.max_stack)
    );
    let rest = &bytes[first.position()..];
    assert!(Reader::with_limits(rest, left)
        .read_array(|_| Ok(()))
        .is_err());
    // With the whole budget again, the second value alone is read.
    assert_eq!(
        Reader::with_limits(rest, limits)
            .read_array(|_| Ok(()))
            .unwrap()
            .len(),
        3
    );
}
