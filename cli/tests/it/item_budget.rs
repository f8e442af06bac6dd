//! What `fromjson` and `jsontofrag` write, `cat` and `fragtojson` read back with their
//! default budgets: an `array<null>` datum of more items than a reader takes for its bytes
//! is refused when written, naming the limit, and a container file's blocks are split so
//! that each stays within the budget its readers give it.

use std::path::{Path, PathBuf};

use crate::cli_support::{code, path_str, stderr, stdout};

fn avdl2rs(args: &[&str]) -> std::process::Output {
    avdl2rs_tests::run_with_stdin(crate::cli_support::cli_binary(), args, b"")
}

fn schema() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile/fromjson-unreadable-array-null.avsc")
}

/// A JSON array of `n` nulls.
fn nulls(n: usize) -> String {
    format!("[{}]", vec!["null"; n].join(","))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn more_nulls_than_a_reader_takes_are_refused_when_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "nulls.json", &nulls(70_000));
    let avro = dir.path().join("nulls.avro");
    let schema = schema();
    let written = avdl2rs(&[
        "fromjson",
        "--schema",
        path_str(&schema),
        path_str(&input),
        "-o",
        path_str(&avro),
    ]);
    assert_eq!(code(&written), 1, "{}", stderr(&written));
    assert!(
        stderr(&written).contains("70000 array items"),
        "{}",
        stderr(&written)
    );
    assert!(stderr(&written).contains("65536"), "{}", stderr(&written));
    let frag = avdl2rs(&[
        "jsontofrag",
        "--schema",
        path_str(&schema),
        path_str(&input),
    ]);
    assert_eq!(code(&frag), 1, "{}", stderr(&frag));
    assert!(frag.stdout.is_empty());
    assert!(stderr(&frag).contains("65536"), "{}", stderr(&frag));
}

#[test]
fn what_the_writers_write_the_readers_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let schema = schema();
    // Three datums of 60,000 nulls: each within a reader's budget, together past a block's.
    let one = nulls(60_000);
    let input = write(dir.path(), "nulls.json", &format!("{one}\n{one}\n{one}\n"));
    let avro = dir.path().join("nulls.avro");
    let written = avdl2rs(&[
        "fromjson",
        "--schema",
        path_str(&schema),
        path_str(&input),
        "-o",
        path_str(&avro),
    ]);
    assert_eq!(code(&written), 0, "{}", stderr(&written));
    let read = avdl2rs(&["cat", path_str(&avro)]);
    assert_eq!(code(&read), 0, "{}", stderr(&read));
    let values: Vec<serde_json::Value> = stdout(&read)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(values.len(), 3);
    assert!(values.iter().all(|v| v.as_array().unwrap().len() == 60_000));

    let single = write(dir.path(), "one.json", &one);
    let frag = avdl2rs(&[
        "jsontofrag",
        "--schema",
        path_str(&schema),
        path_str(&single),
    ]);
    assert_eq!(code(&frag), 0, "{}", stderr(&frag));
    let bin = dir.path().join("one.bin");
    std::fs::write(&bin, &frag.stdout).unwrap();
    let back = avdl2rs(&["fragtojson", "--schema", path_str(&schema), path_str(&bin)]);
    assert_eq!(code(&back), 0, "{}", stderr(&back));
    let value: serde_json::Value = serde_json::from_str(&stdout(&back)).unwrap();
    assert_eq!(value.as_array().unwrap().len(), 60_000);
}
