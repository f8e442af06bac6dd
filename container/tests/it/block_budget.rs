//! One decode budget per block: the records of a block share the items and memory the
//! runtime allows for the block's bytes, so the items a file can describe grow linearly with
//! its size. A budget per record, sized by the rest of the block, let every `array<null>`
//! record of a 16 KB file announce thousands of items again, and `cat` printed 298 MB.

use std::path::Path;

use avdl2rs::codec::write_long;
use avdl2rs::Avro;
use avdl2rs_container::{Error, JsonReader, Reader, WriterBuilder};

/// A record of one `array<null>`: encoded exactly as the array.
#[derive(Avro, Debug)]
#[avro(namespace = "test.budget")]
struct Nulls {
    items: Vec<()>,
}

/// The items a reader may take from a file of `len` bytes: 8 per byte, plus the 65,536 that
/// any input gets (`DecodeLimits::for_input_len`) once for its single block.
fn linear_bound(len: usize) -> u64 {
    8 * len as u64 + (1 << 16)
}

/// A file of one block of about `bytes` bytes of `array<null>` records (in `schema`), each
/// announcing as many items as a budget over the rest of the block allowed: the quadratic
/// file's shape, as `slow-quadratic-container-array-null-16k.avro` was made.
fn quadratic(bytes: usize, schema: &str) -> Vec<u8> {
    let records = bytes / 4;
    let counts: Vec<i64> = (0..records)
        .map(|i| (((1 << 20).max(64 * (bytes - 4 * i))) / 72) as i64)
        .collect();
    let mut writer = WriterBuilder::new()
        .block_bytes(usize::MAX)
        .block_records(u64::MAX)
        .build_datums(schema, Vec::new())
        .unwrap();
    let mut datum = Vec::new();
    for count in counts {
        datum.clear();
        write_long(&mut datum, count);
        datum.push(0);
        writer.append_encoded(&datum).unwrap();
    }
    writer.finish().unwrap()
}

/// Counts the items of the `array<null>` records `items` yields until it ends, errs or
/// passes `bound`; returns the count and the error.
fn count_items<I: Iterator<Item = Result<usize, Error>>>(
    items: I,
    bound: u64,
) -> (u64, Option<Error>) {
    let mut total = 0u64;
    for record in items {
        match record {
            Ok(n) => total += n as u64,
            Err(e) => return (total, Some(e)),
        }
        if total > bound {
            break;
        }
    }
    (total, None)
}

fn json_items(file: &[u8]) -> (u64, Option<Error>) {
    let reader = JsonReader::new(file).unwrap();
    // A record's items are its field's; an array's its own.
    let len = |v: serde_json::Value| v.get("items").unwrap_or(&v).as_array().map_or(0, Vec::len);
    let items = reader.map(|v| v.map(len));
    count_items(items, linear_bound(file.len()))
}

fn typed_items(file: &[u8]) -> (u64, Option<Error>) {
    let reader = Reader::<Nulls, _>::new(file).unwrap();
    count_items(
        reader.map(|r| r.map(|r| r.items.len())),
        linear_bound(file.len()),
    )
}

/// The file's block is refused once its budget is spent, at a located record.
fn assert_linear((items, error): (u64, Option<Error>), len: usize) {
    assert!(
        items <= linear_bound(len),
        "{items} items from a file of {len} bytes"
    );
    match error {
        Some(Error::Record { block: 0, .. }) => {}
        other => panic!("expected the budget to end block 0, got {other:?}"),
    }
}

#[test]
fn the_shared_quadratic_file_reads_in_linear_items() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile/slow-quadratic-container-array-null-16k.avro");
    let file = std::fs::read(path).unwrap();
    assert_linear(json_items(&file), file.len());
}

#[test]
fn a_larger_quadratic_file_reads_in_linear_items_with_every_reader() {
    let array = r#"{"type":"array","items":"null"}"#;
    let file = quadratic(256 << 10, array);
    assert_linear(json_items(&file), file.len());
    let record = r#"{"type":"record","name":"Nulls","namespace":"test.budget",
        "fields":[{"name":"items","type":{"type":"array","items":"null"}}]}"#;
    let file = quadratic(256 << 10, record);
    assert_linear(typed_items(&file), file.len());
}

#[test]
fn records_within_the_block_budget_are_all_read() {
    // 100 records of 600 nulls each: 60,000 items in one block of 300 bytes, under the
    // 65,536 any block may hold.
    let record = r#"{"type":"record","name":"Nulls","namespace":"test.budget",
        "fields":[{"name":"items","type":{"type":"array","items":"null"}}]}"#;
    let mut writer = WriterBuilder::new()
        .build_datums(record, Vec::new())
        .unwrap();
    for _ in 0..100 {
        let mut datum = Vec::new();
        write_long(&mut datum, 600);
        datum.push(0);
        writer.append_encoded(&datum).unwrap();
    }
    let file = writer.finish().unwrap();
    let (items, error) = typed_items(&file);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(items, 60_000);
    let (items, error) = json_items(&file);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(items, 60_000);
}
