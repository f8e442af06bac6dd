//! A command that writes a file writes it whole or not at all: a failure part way through
//! leaves an existing file as it was and no temporary file beside it.

use std::path::Path;

use crate::cli_support::{code, path_str, stderr};

fn avdl2rs(args: &[&str], stdin: &[u8]) -> std::process::Output {
    avdl2rs_tests::run_with_stdin(crate::cli_support::cli_binary(), args, stdin)
}

/// The names of the entries of `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn fromjson_with_a_bad_third_line_leaves_the_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("n.avsc");
    std::fs::write(
        &schema,
        r#"{"type": "record", "name": "N", "fields": [{"name": "n", "type": "int"}]}"#,
    )
    .unwrap();
    let out = dir.path().join("n.avro");
    std::fs::write(&out, b"the old contents").unwrap();
    let written = avdl2rs(
        &[
            "fromjson",
            "--schema",
            path_str(&schema),
            "-o",
            path_str(&out),
        ],
        b"{\"n\": 1}\n{\"n\": 2}\n{\"n\": \"three\"}\n",
    );
    assert_eq!(code(&written), 1, "{}", stderr(&written));
    assert!(stderr(&written).contains(":3:"), "{}", stderr(&written));
    assert_eq!(std::fs::read(&out).unwrap(), b"the old contents");
    assert_eq!(entries(dir.path()), ["n.avro", "n.avsc"]);
}

#[test]
fn fromjson_that_succeeds_replaces_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("n.avsc");
    std::fs::write(&schema, r#""int""#).unwrap();
    let out = dir.path().join("n.avro");
    std::fs::write(&out, b"the old contents").unwrap();
    let written = avdl2rs(
        &[
            "fromjson",
            "--schema",
            path_str(&schema),
            "-o",
            path_str(&out),
        ],
        b"1\n2\n",
    );
    assert_eq!(code(&written), 0, "{}", stderr(&written));
    assert!(std::fs::read(&out).unwrap().starts_with(b"Obj\x01"));
    assert_eq!(entries(dir.path()), ["n.avro", "n.avsc"]);
}

#[test]
fn recodec_of_a_damaged_file_leaves_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let schema = dir.path().join("n.avsc");
    std::fs::write(&schema, r#""long""#).unwrap();
    let good = dir.path().join("good.avro");
    let numbers: String = (0..5000).map(|n| format!("{n}\n")).collect();
    let written = avdl2rs(
        &[
            "fromjson",
            "--schema",
            path_str(&schema),
            "-o",
            path_str(&good),
        ],
        numbers.as_bytes(),
    );
    assert_eq!(code(&written), 0, "{}", stderr(&written));
    // Cut the file inside its data: the header is read, a block is not.
    let bytes = std::fs::read(&good).unwrap();
    let cut = dir.path().join("cut.avro");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let out = dir.path().join("out.avro");
    let recoded = avdl2rs(
        &[
            "recodec",
            "--codec",
            "deflate",
            path_str(&cut),
            path_str(&out),
        ],
        b"",
    );
    assert_ne!(code(&recoded), 0, "a cut file was recoded");
    assert!(!out.exists(), "a half-written output was left");
    assert_eq!(entries(dir.path()), ["cut.avro", "good.avro", "n.avsc"]);
}

/// `fromjson --schema n.avsc -o path` of two numbers, with `n.avsc` an `int` schema written
/// in `dir`.
fn fromjson_to(dir: &Path, path: &Path) -> std::process::Output {
    let schema = dir.join("n.avsc");
    std::fs::write(&schema, r#""int""#).unwrap();
    avdl2rs(
        &[
            "fromjson",
            "--schema",
            path_str(&schema),
            "-o",
            path_str(path),
        ],
        b"1\n2\n",
    )
}

#[test]
fn output_through_a_symbolic_link_replaces_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("target.avro");
    std::fs::write(&target, b"the old contents").unwrap();
    let link = dir.path().join("link.avro");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let written = fromjson_to(dir.path(), &link);
    assert_eq!(code(&written), 0, "{}", stderr(&written));
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert!(std::fs::read(&target).unwrap().starts_with(b"Obj\x01"));
    assert_eq!(entries(dir.path()), ["link.avro", "n.avsc", "target.avro"]);
}

/// A named pipe (like `/dev/null` or a terminal) is a stream, not a file to replace: the
/// output goes into it and the pipe is still there afterwards.
#[test]
fn output_to_a_named_pipe_is_written_into_the_pipe() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .expect("coreutils `mkfifo` runs");
    assert!(made.success());
    let reader = {
        let pipe = pipe.clone();
        std::thread::spawn(move || std::fs::read(pipe).unwrap())
    };
    let written = fromjson_to(dir.path(), &pipe);
    assert_eq!(code(&written), 0, "{}", stderr(&written));
    // Checked first: were the pipe replaced, the reader would wait for a writer forever.
    assert!(std::fs::metadata(&pipe).unwrap().file_type().is_fifo());
    assert!(reader.join().unwrap().starts_with(b"Obj\x01"));
}
