//! `avdl2rs repair` and `cat --skip-damaged` on files Python `avro` wrote in blocks of ten
//! records, then damaged: bytes of the middle block's data overwritten, its sync marker
//! overwritten, the file cut inside its last block. The repaired file holds exactly the
//! records Python wrote in the other blocks, the report names the damaged block, and the
//! exit codes are 0 (nothing damaged), 1 (records lost) and 2 (could not run).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use avdl2rs_container::{BlockReader, Header};
use avdl2rs_container_interop::support::{python, run};
use serde_json::Value;

use crate::cli_support::{cli_binary, code, path_str, stderr, stdout};

const SCHEMA: &str = r#"{"type":"record","name":"Reading","namespace":"test.repair",
  "fields":[{"name":"id","type":"long"},{"name":"name","type":"string"},
            {"name":"score","type":"double"}]}"#;

fn avdl2rs(args: &[&str]) -> Output {
    avdl2rs_tests::run_with_stdin(cli_binary(), args, b"")
}

/// A file Python wrote with `codec` in three blocks, and the records it wrote, by block.
struct Written {
    path: PathBuf,
    blocks: Vec<Vec<Value>>,
    /// Where each block starts.
    offsets: Vec<u64>,
}

fn python_file(python: &Path, dir: &Path, codec: &str) -> Written {
    let schema = dir.join("reading.avsc");
    std::fs::write(&schema, SCHEMA).unwrap();
    let path = dir.join(format!("readings-{codec}.avro"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/blocks_file.py");
    let printed = run(Command::new(python)
        .arg(script)
        .arg(&schema)
        .arg(&path)
        .args([codec, "3"]));
    let records = json_lines(&printed);
    let blocks = records.chunks(10).map(<[Value]>::to_vec).collect();
    let mut reader = BlockReader::new(std::fs::File::open(&path).unwrap()).unwrap();
    let mut offsets = Vec::new();
    let mut data = Vec::new();
    while let Some(block) = reader.next_stored(&mut data).unwrap() {
        assert_eq!(block.count, 10);
        offsets.push(block.offset);
    }
    assert_eq!(offsets.len(), 3, "Python wrote blocks of ten records");
    Written {
        path,
        blocks,
        offsets,
    }
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// `file` changed by `change`, written beside it as `name`.
fn damaged(file: &Path, name: &str, change: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
    let mut bytes = std::fs::read(file).unwrap();
    change(&mut bytes);
    let path = file.with_file_name(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Repairs `input`; checks the exit code 1, that the output holds `kept` (read back by
/// `cat`) with the input's schema, codec and metadata, and that the report names `block`
/// at `offset`; returns the report.
fn assert_repaired(input: &Path, kept: &[Value], block: usize, offset: u64) -> String {
    let out = input.with_extension("repaired.avro");
    let repaired = avdl2rs(&["repair", path_str(input), path_str(&out)]);
    let report = stderr(&repaired);
    assert_eq!(code(&repaired), 1, "{report}");
    assert!(
        report.contains(&format!("damaged block {block} at byte {offset}")),
        "{report}"
    );
    assert!(report.contains("10 records lost"), "{report}");
    let read = avdl2rs(&["cat", path_str(&out)]);
    assert_eq!(code(&read), 0, "{}", stderr(&read));
    assert_eq!(json_lines(&stdout(&read)), kept);
    let header = |path: &Path| -> Header {
        let reader = BlockReader::new(std::fs::File::open(path).unwrap()).unwrap();
        reader.header().clone()
    };
    let (before, after) = (header(input), header(&out));
    assert_eq!(after.schema_json(), before.schema_json());
    assert_eq!(after.codec(), before.codec());
    assert_eq!(
        after.metadata().get("written.by"),
        before.metadata().get("written.by")
    );
    report
}

#[test]
#[ignore = "needs Python avro (.ci/container-interop)"]
fn repair_keeps_the_blocks_around_overwritten_data() {
    let python = python();
    let dir = tempfile::tempdir().unwrap();
    for codec in ["null", "snappy"] {
        let file = python_file(&python, dir.path(), codec);
        let (start, end) = (file.offsets[1] as usize, file.offsets[2] as usize);
        let input = damaged(&file.path, &format!("data-{codec}.avro"), |bytes| {
            // 0xff never is UTF-8 and never ends a varint: no record of this schema decodes
            // through 20 of them, and snappy's checksum fails.
            let middle = (start + end) / 2;
            bytes[middle - 10..middle + 10].fill(0xff);
        });
        let kept = [file.blocks[0].clone(), file.blocks[2].clone()].concat();
        assert_repaired(&input, &kept, 1, file.offsets[1]);

        // `cat --skip-damaged` prints the same records and reports the same block.
        let cat = avdl2rs(&["cat", "--skip-damaged", path_str(&input)]);
        assert_eq!(code(&cat), 1, "{}", stderr(&cat));
        assert_eq!(json_lines(&stdout(&cat)), kept);
        let report = stderr(&cat);
        assert!(
            report.contains(&format!("damaged block 1 at byte {start}")),
            "{report}"
        );
        // Without it, the damaged block ends `cat`.
        assert_eq!(code(&avdl2rs(&["cat", path_str(&input)])), 1);
    }
}

#[test]
#[ignore = "needs Python avro (.ci/container-interop)"]
fn repair_passes_over_a_wrong_sync_marker() {
    let python = python();
    let dir = tempfile::tempdir().unwrap();
    let file = python_file(&python, dir.path(), "deflate");
    let sync_end = file.offsets[2] as usize;
    let input = damaged(&file.path, "sync.avro", |bytes| {
        bytes[sync_end - 16..sync_end].fill(0xaa);
    });
    let kept = [file.blocks[0].clone(), file.blocks[2].clone()].concat();
    let report = assert_repaired(&input, &kept, 1, file.offsets[1]);
    assert!(report.contains("sync marker"), "{report}");
}

#[test]
#[ignore = "needs Python avro (.ci/container-interop)"]
fn repair_keeps_the_blocks_before_a_truncated_one() {
    let python = python();
    let dir = tempfile::tempdir().unwrap();
    let file = python_file(&python, dir.path(), "null");
    let cut = file.offsets[2] as usize + 20;
    let input = damaged(&file.path, "cut.avro", |bytes| bytes.truncate(cut));
    let kept = [file.blocks[0].clone(), file.blocks[1].clone()].concat();
    let report = assert_repaired(&input, &kept, 2, file.offsets[2]);
    assert!(
        report.contains("the file ends inside the block"),
        "{report}"
    );
}

#[test]
#[ignore = "needs Python avro (.ci/container-interop)"]
fn an_intact_file_is_copied_with_exit_0() {
    let python = python();
    let dir = tempfile::tempdir().unwrap();
    let file = python_file(&python, dir.path(), "deflate");
    let out = dir.path().join("copy.avro");
    let repaired = avdl2rs(&["repair", path_str(&file.path), path_str(&out)]);
    assert_eq!(code(&repaired), 0, "{}", stderr(&repaired));
    assert!(stderr(&repaired).is_empty(), "{}", stderr(&repaired));
    let read = avdl2rs(&["cat", path_str(&out)]);
    assert_eq!(json_lines(&stdout(&read)), file.blocks.concat());
}

/// What cannot be repaired changes nothing: exit 2, the output left as it was.
#[test]
fn a_file_that_cannot_be_repaired_leaves_the_output_alone() {
    let dir = tempfile::tempdir().unwrap();
    let not_avro = dir.path().join("not.avro");
    std::fs::write(&not_avro, b"not a container file").unwrap();
    let out = dir.path().join("out.avro");
    std::fs::write(&out, b"before").unwrap();
    let repaired = avdl2rs(&["repair", path_str(&not_avro), path_str(&out)]);
    assert_eq!(code(&repaired), 2, "{}", stderr(&repaired));
    assert!(stderr(&repaired).contains("not an Avro object container file"));
    assert_eq!(std::fs::read(&out).unwrap(), b"before");
    let missing = avdl2rs(&[
        "repair",
        path_str(&dir.path().join("missing.avro")),
        path_str(&out),
    ]);
    assert_eq!(code(&missing), 2, "{}", stderr(&missing));
    assert_eq!(std::fs::read(&out).unwrap(), b"before");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temporary file is left"
    );
}
