//! `DatumWriter` and `BlockReader`: records already encoded written with a schema given at run
//! time, blocks copied as stored (byte for byte, closed by the new file's sync marker) and
//! recompressed in every other codec, each file read back by the typed reader and by
//! apache-avro's.

use avdl2rs::{Avro, AvroEncode, AvroSchema};
use avdl2rs_container::{BlockReader, Codec, Error, Reader, WriterBuilder};

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.copy")]
struct Line {
    sku: String,
    qty: i32,
    note: Option<String>,
}

fn lines(n: usize) -> Vec<Line> {
    (0..n)
        .map(|i| Line {
            sku: format!("sku-{i}"),
            qty: i as i32 * 3 - 40,
            note: (i % 3 == 0).then(|| "third".into()),
        })
        .collect()
}

/// A file of `values` in blocks of 10, written from their encodings by a `DatumWriter`.
fn datum_file(codec: Codec, values: &[Line], sync: [u8; 16]) -> Vec<u8> {
    let mut writer = WriterBuilder::new()
        .codec(codec)
        .block_records(10)
        .sync_marker(sync)
        .build_datums(Line::SCHEMA_JSON, Vec::new())
        .unwrap();
    for value in values {
        let mut datum = Vec::new();
        value.encode(&mut datum).unwrap();
        writer.append_encoded(&datum).unwrap();
    }
    writer.finish().unwrap()
}

fn read(file: &[u8]) -> Vec<Line> {
    Reader::new(file)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// apache-avro's reading of `file`, in its own generic values, compared with the encodings
/// of `expected` read by apache-avro from plain bytes.
fn apache_reads(file: &[u8], expected: &[Line]) {
    let schema = apache_avro::Schema::parse_str(Line::SCHEMA_JSON).unwrap();
    let read: Vec<_> = apache_avro::Reader::new(file)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let wanted: Vec<_> = expected
        .iter()
        .map(|line| {
            let bytes = line.to_avro_bytes().unwrap();
            apache_avro::reader::datum::GenericDatumReader::builder(&schema)
                .build()
                .unwrap()
                .read_value(&mut bytes.as_slice())
                .unwrap()
        })
        .collect();
    assert_eq!(read, wanted);
}

/// Every block of `file` as stored.
fn stored_blocks(file: &[u8]) -> Vec<Vec<u8>> {
    let mut reader = BlockReader::new(file).unwrap();
    let mut blocks = Vec::new();
    let mut data = Vec::new();
    while reader.next_stored(&mut data).unwrap().is_some() {
        blocks.push(data.clone());
    }
    blocks
}

#[test]
fn datums_make_the_same_file_as_the_typed_writer() {
    let values = lines(25);
    let sync = [7; 16];
    for codec in Codec::ALL {
        let ours = datum_file(codec, &values, sync);
        let mut typed = WriterBuilder::new()
            .codec(codec)
            .block_records(10)
            .sync_marker(sync)
            .build::<Line, _>(Vec::new())
            .unwrap();
        typed.extend(&values).unwrap();
        assert_eq!(ours, typed.finish().unwrap(), "{codec}");
        assert_eq!(read(&ours), values, "{codec}");
    }
    let error = WriterBuilder::new()
        .build_datums(r#"{"type":"record","name":"R"}"#, Vec::new())
        .unwrap_err();
    assert!(matches!(error, Error::Schema(_)), "{error}");
}

#[test]
fn copied_blocks_keep_their_bytes_and_take_the_new_sync_marker() {
    let values = lines(35);
    for codec in Codec::ALL {
        let input = datum_file(codec, &values, [1; 16]);
        let mut writer = WriterBuilder::new()
            .codec(codec)
            .sync_marker([2; 16])
            .build_datums(Line::SCHEMA_JSON, Vec::new())
            .unwrap();
        for _ in 0..2 {
            let mut reader = BlockReader::new(input.as_slice()).unwrap();
            assert_eq!(reader.header().codec(), codec);
            let mut stored = Vec::new();
            while let Some(block) = reader.next_stored(&mut stored).unwrap() {
                writer.copy_block(&block, codec, &stored).unwrap();
            }
        }
        let output = writer.finish().unwrap();
        let input_blocks = stored_blocks(&input);
        assert_eq!(input_blocks.len(), 4, "{codec}");
        let output_blocks = stored_blocks(&output);
        assert_eq!(output_blocks.len(), 8, "{codec}");
        for (i, block) in output_blocks.iter().enumerate() {
            assert_eq!(block, &input_blocks[i % 4], "{codec}: block {i}");
        }
        // The old marker appears nowhere after the header: every block ends with the new one.
        assert!(!output.windows(16).any(|w| w == [1; 16]), "{codec}");
        let twice: Vec<Line> = values.iter().chain(&values).cloned().collect();
        assert_eq!(read(&output), twice, "{codec}");
        if matches!(codec, Codec::Null | Codec::Deflate | Codec::Snappy) {
            apache_reads(&output, &twice);
        }
    }
}

#[test]
fn blocks_recompressed_in_every_codec_hold_the_same_records() {
    let values = lines(35);
    for from in Codec::ALL {
        let input = datum_file(from, &values, [3; 16]);
        for to in Codec::ALL {
            let mut writer = WriterBuilder::new()
                .codec(to)
                .build_datums(Line::SCHEMA_JSON, Vec::new())
                .unwrap();
            let mut reader = BlockReader::new(input.as_slice()).unwrap();
            let mut data = Vec::new();
            let mut blocks = 0;
            while let Some(block) = reader.next_decompressed(&mut data).unwrap() {
                assert_eq!(block.number, blocks);
                writer.append_block(&block, &data).unwrap();
                blocks += 1;
            }
            assert_eq!(blocks, 4);
            let output = writer.finish().unwrap();
            assert_eq!(stored_blocks(&output).len(), 4, "{from} to {to}");
            assert_eq!(read(&output), values, "{from} to {to}");
        }
    }
}

#[test]
fn a_block_of_another_codec_is_not_copied() {
    let input = datum_file(Codec::Deflate, &lines(5), [4; 16]);
    let mut reader = BlockReader::new(input.as_slice()).unwrap();
    let mut stored = Vec::new();
    let block = reader.next_stored(&mut stored).unwrap().unwrap();
    let mut writer = WriterBuilder::new()
        .build_datums(Line::SCHEMA_JSON, Vec::new())
        .unwrap();
    let error = writer
        .copy_block(&block, Codec::Deflate, &stored)
        .unwrap_err();
    assert!(matches!(error, Error::CodecMismatch { .. }), "{error}");
    assert_eq!(read(&writer.finish().unwrap()), []);
}

#[test]
fn a_damaged_block_read_as_stored_is_located() {
    let input = datum_file(Codec::Null, &lines(25), [5; 16]);
    let cut = &input[..input.len() - 20];
    let mut reader = BlockReader::new(cut).unwrap();
    let mut stored = Vec::new();
    assert!(reader.next_stored(&mut stored).unwrap().is_some());
    assert!(reader.next_stored(&mut stored).unwrap().is_some());
    let error = reader.next_stored(&mut stored).unwrap_err();
    assert!(matches!(error, Error::Block { block: 2, .. }), "{error}");
    assert!(
        error.to_string().contains("the file ends inside the block"),
        "{error}"
    );
    assert!(reader.next_stored(&mut stored).unwrap().is_none());
}
