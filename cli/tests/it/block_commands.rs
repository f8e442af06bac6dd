//! `concat` and `recodec` on the built binary: the same records as the inputs for every pair
//! of codecs (read by the generated type, and by Python `avro` for the codecs it has),
//! blocks really copied (a file of N blocks concatenated twice has 2N blocks, each the bytes
//! of its source), metadata kept, and refusals: another schema, a damaged input (block and
//! offset), the output among the inputs.

use std::path::{Path, PathBuf};

use avdl2rs_container::{BlockReader, Codec, Reader, WriterBuilder};
use avdl2rs_container_interop::support::{avro_files, order_records, python, run, PYTHON_CODECS};
use orders::OrderEvent;

use crate::cli_support::{code, path_str, run as avdl2rs, stderr};

/// A file of `records` compressed with `codec`, 100 records a block, with user metadata.
fn orders_file(dir: &Path, name: &str, codec: Codec, records: &[OrderEvent]) -> PathBuf {
    let path = dir.join(name);
    let mut writer = WriterBuilder::new()
        .codec(codec)
        .block_records(100)
        .metadata("producer", "orders-service")
        .build::<OrderEvent, _>(std::fs::File::create(&path).unwrap())
        .unwrap();
    writer.extend(records).unwrap();
    writer.finish().unwrap();
    path
}

fn read(path: &Path) -> (Codec, Vec<OrderEvent>) {
    let reader = Reader::<OrderEvent, _>::new(std::fs::File::open(path).unwrap()).unwrap();
    assert_eq!(
        reader.header().get("producer"),
        Some(&b"orders-service"[..]),
        "{}",
        path.display()
    );
    let codec = reader.header().codec();
    (codec, reader.collect::<Result<_, _>>().unwrap())
}

/// The blocks of `path` as stored.
fn stored_blocks(path: &Path) -> Vec<Vec<u8>> {
    let mut reader = BlockReader::new(std::fs::File::open(path).unwrap()).unwrap();
    let mut blocks = Vec::new();
    let mut data = Vec::new();
    while reader.next_stored(&mut data).unwrap().is_some() {
        blocks.push(data.clone());
    }
    blocks
}

fn succeeds(args: &[&str]) {
    let output = avdl2rs(args, "");
    assert_eq!(code(&output), 0, "{args:?}: {}", stderr(&output));
}

/// Python `avro` reads `path` as the orders script's records.
fn python_reads(python: &Path, path: &Path) {
    let verdict = run(avro_files(python).args(["check", "orders"]).arg(path));
    assert_eq!(verdict.trim(), "ok", "{}", path.display());
}

#[test]
fn concat_keeps_the_records_for_every_pair_of_codecs() {
    let dir = tempfile::tempdir().unwrap();
    let records = order_records();
    let (head, tail) = records.split_at(700);
    for first in Codec::ALL {
        let a = orders_file(dir.path(), &format!("a-{first}.avro"), first, head);
        for second in Codec::ALL {
            let b = orders_file(dir.path(), &format!("b-{second}.avro"), second, tail);
            let out = dir.path().join(format!("out-{first}-{second}.avro"));
            succeeds(&["concat", path_str(&a), path_str(&b), path_str(&out)]);
            assert_eq!(read(&out), (first, records.clone()), "{first} + {second}");
            let out = dir.path().join(format!("out-{first}-{second}-xz.avro"));
            succeeds(&[
                "concat",
                "--codec",
                "xz",
                path_str(&a),
                path_str(&b),
                path_str(&out),
            ]);
            assert_eq!(
                read(&out),
                (Codec::Xz, records.clone()),
                "{first} + {second}"
            );
        }
    }
}

#[test]
fn concat_copies_the_blocks_it_does_not_recompress() {
    let dir = tempfile::tempdir().unwrap();
    for codec in Codec::ALL {
        let input = orders_file(dir.path(), "in.avro", codec, &order_records());
        let out = dir.path().join("twice.avro");
        succeeds(&["concat", path_str(&input), path_str(&input), path_str(&out)]);
        let blocks = stored_blocks(&input);
        assert_eq!(blocks.len(), 15, "{codec}");
        let copied = stored_blocks(&out);
        assert_eq!(copied.len(), 30, "{codec}");
        for (i, block) in copied.iter().enumerate() {
            assert!(block == &blocks[i % 15], "{codec}: block {i} is not a copy");
        }
        let twice: Vec<OrderEvent> = order_records().into_iter().cycle().take(3000).collect();
        assert_eq!(read(&out), (codec, twice), "{codec}");
    }
}

#[test]
fn recodec_recompresses_every_block_for_every_pair_of_codecs() {
    let dir = tempfile::tempdir().unwrap();
    let records = order_records();
    for from in Codec::ALL {
        let input = orders_file(dir.path(), &format!("in-{from}.avro"), from, &records);
        for to in Codec::ALL {
            let out = dir.path().join(format!("out-{from}-{to}.avro"));
            succeeds(&[
                "recodec",
                "--codec",
                to.name(),
                path_str(&input),
                path_str(&out),
            ]);
            assert_eq!(read(&out), (to, records.clone()), "{from} to {to}");
            assert_eq!(stored_blocks(&out).len(), 15, "{from} to {to}");
        }
    }
    // Through pipes.
    let input = orders_file(dir.path(), "pipe.avro", Codec::Snappy, &records);
    let output = avdl2rs_tests::run_with_stdin(
        crate::cli_support::cli_binary(),
        &["recodec", "--codec", "deflate", "-", "-"],
        &std::fs::read(&input).unwrap(),
    );
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let piped = dir.path().join("piped.avro");
    std::fs::write(&piped, &output.stdout).unwrap();
    assert_eq!(read(&piped), (Codec::Deflate, records));
}

#[test]
#[ignore = "needs Python avro (.ci/container-interop)"]
fn python_reads_what_concat_and_recodec_write() {
    let python = python();
    let dir = tempfile::tempdir().unwrap();
    let records = order_records();
    let (head, tail) = records.split_at(700);
    let xz = orders_file(dir.path(), "all-xz.avro", Codec::Xz, &records);
    for codec in PYTHON_CODECS {
        // The head's blocks are copied, the tail's recompressed into the head's codec.
        let a = orders_file(dir.path(), &format!("a-{codec}.avro"), codec, head);
        let b = orders_file(dir.path(), &format!("b-{codec}.avro"), Codec::Xz, tail);
        let joined = dir.path().join(format!("joined-{codec}.avro"));
        succeeds(&["concat", path_str(&a), path_str(&b), path_str(&joined)]);
        python_reads(&python, &joined);
        let recompressed = dir.path().join(format!("recodec-{codec}.avro"));
        succeeds(&[
            "recodec",
            "--codec",
            codec.name(),
            path_str(&xz),
            path_str(&recompressed),
        ]);
        python_reads(&python, &recompressed);
    }
}

#[test]
fn refusals_name_the_file_and_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let orders = orders_file(dir.path(), "orders.avro", Codec::Deflate, &order_records());
    let other = dir.path().join("other.avro");
    let mut writer = WriterBuilder::new()
        .build_datums(r#""long""#, std::fs::File::create(&other).unwrap())
        .unwrap();
    writer.append_encoded(&[10]).unwrap();
    writer.finish().unwrap();
    let out = dir.path().join("out.avro");

    let output = avdl2rs(
        &[
            "concat",
            path_str(&orders),
            path_str(&other),
            path_str(&out),
        ],
        "",
    );
    assert_eq!(code(&output), 1);
    assert!(
        stderr(&output).contains(&format!(
            "{}: its schema is not {}'s",
            path_str(&other),
            path_str(&orders)
        )),
        "{}",
        stderr(&output)
    );

    let bytes = std::fs::read(&orders).unwrap();
    let cut = dir.path().join("cut.avro");
    std::fs::write(&cut, &bytes[..bytes.len() - 20]).unwrap();
    for args in [
        vec!["concat", path_str(&orders), path_str(&cut), path_str(&out)],
        vec!["recodec", "--codec", "null", path_str(&cut), path_str(&out)],
    ] {
        let output = avdl2rs(&args, "");
        assert_eq!(code(&output), 1, "{args:?}");
        let text = stderr(&output);
        assert!(
            text.contains(&format!("{}: damaged block 14 at byte", path_str(&cut)))
                && text.contains("the file ends inside the block"),
            "{args:?}: {text}"
        );
    }

    let output = avdl2rs(&["concat", path_str(&orders), path_str(&orders)], "");
    assert_eq!(code(&output), 1);
    assert!(
        stderr(&output).contains("both an input and the output"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read(&orders).unwrap(),
        bytes,
        "the input is untouched"
    );
    assert_eq!(code(&avdl2rs(&["concat", path_str(&orders)], "")), 2);
    assert_eq!(
        code(&avdl2rs(
            &["recodec", path_str(&orders), path_str(&out)],
            ""
        )),
        2
    );
}
