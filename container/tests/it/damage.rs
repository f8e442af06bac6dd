//! Damaged and hostile files: truncated anywhere, bytes flipped in the header, the sync
//! markers and the compressed data, counts and sizes of 2^62. Each gives an error (or, cut
//! exactly at a block boundary, a shorter file), never a panic or a large allocation; and a
//! reader can skip a damaged block and read the ones after it.

use avdl2rs::codec::write_long;
use avdl2rs::Avro;
use avdl2rs_container::{Codec, Damage, Error, JsonReader, Reader, WriterBuilder};

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.damage")]
struct Row {
    id: i64,
    text: String,
    values: Vec<i32>,
}

/// A record of one `long`: encoded exactly as the `long`.
#[derive(Avro, Debug, Clone, Copy, PartialEq)]
#[avro(namespace = "test.damage")]
struct Num {
    n: i64,
}

/// A record of one `bytes`.
#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.damage")]
struct Blob {
    data: Vec<u8>,
}

fn rows(n: usize) -> Vec<Row> {
    (0..n)
        .map(|i| Row {
            id: i as i64,
            text: format!("row number {i}"),
            values: (0..i as i32 % 4).collect(),
        })
        .collect()
}

/// Every codec that compresses.
const COMPRESSING: [Codec; 5] = [
    Codec::Deflate,
    Codec::Snappy,
    Codec::Zstandard,
    Codec::Bzip2,
    Codec::Xz,
];

const ROWS: usize = 40;
const PER_BLOCK: u64 = 10;

fn file(codec: Codec) -> Vec<u8> {
    let mut writer = WriterBuilder::new()
        .codec(codec)
        .block_records(PER_BLOCK)
        .build(Vec::new())
        .unwrap();
    writer.extend(&rows(ROWS)).unwrap();
    writer.finish().unwrap()
}

/// Decompressing on the reading thread, on one worker thread, and on three (with the whole
/// file of four blocks in flight at once).
const AHEAD: [usize; 3] = [0, 1, 3];

/// A reader of `file`, decompressing on `ahead` worker threads.
fn reader(file: &[u8], ahead: usize) -> Result<Reader<Row, &[u8]>, Error> {
    Ok(Reader::new(file)?.decompression_threads(ahead))
}

/// Reads `file` to the first error: the rows before it and the error.
fn read(file: &[u8], ahead: usize) -> (Vec<Row>, Option<Error>) {
    let mut reader = match reader(file, ahead) {
        Ok(reader) => reader,
        Err(e) => return (Vec::new(), Some(e)),
    };
    let mut read = Vec::new();
    for row in &mut reader {
        match row {
            Ok(row) => read.push(row),
            Err(e) => return (read, Some(e)),
        }
    }
    (read, None)
}

/// The offsets where blocks start, and the file's end.
fn block_starts(file: &[u8]) -> Vec<usize> {
    let sync = Reader::<Row, _>::new(file).unwrap().header().sync();
    let mut ends: Vec<usize> = file
        .windows(16)
        .enumerate()
        .filter(|(_, w)| *w == sync)
        .map(|(i, _)| i + 16)
        .collect();
    assert_eq!(ends.pop(), Some(file.len()));
    ends
}

#[test]
fn truncated_at_every_byte() {
    let all = rows(ROWS);
    for (codec, ahead) in [Codec::Null, Codec::Deflate, Codec::Snappy, Codec::Zstandard]
        .into_iter()
        .flat_map(|codec| AHEAD.map(|ahead| (codec, ahead)))
    {
        let file = file(codec);
        let starts = block_starts(&file);
        for cut in 0..file.len() {
            let (read, error) = read(&file[..cut], ahead);
            assert_eq!(
                read,
                all[..read.len()],
                "{codec} (ahead: {ahead}), cut at {cut}"
            );
            if let Some(block) = starts.iter().position(|&start| start == cut) {
                // Cut exactly between blocks: a valid, shorter file.
                assert!(
                    error.is_none(),
                    "{codec} (ahead: {ahead}), cut at {cut}: {error:?}"
                );
                assert_eq!(read.len() as u64, block as u64 * PER_BLOCK);
                continue;
            }
            match error {
                Some(Error::Block {
                    damage,
                    block,
                    offset,
                }) if cut > starts[0] => {
                    assert_eq!(
                        damage,
                        Damage::Truncated,
                        "{codec} (ahead: {ahead}), cut at {cut}"
                    );
                    assert_eq!(offset as usize, starts[block as usize]);
                    assert_eq!(read.len() as u64, block * PER_BLOCK);
                }
                Some(Error::BadMagic { .. } | Error::Header { .. }) if cut < starts[0] => {}
                other => panic!("{codec} (ahead: {ahead}), cut at {cut}: {other:?}"),
            }
        }
    }
}

#[test]
fn flipped_header_bytes_are_errors() {
    let file = file(Codec::Deflate);
    let header_end = block_starts(&file)[0];
    for at in 0..header_end {
        for flip in [0x01, 0x80, 0xff] {
            let mut damaged = file.clone();
            damaged[at] ^= flip;
            let (read, error) = read(&damaged, 0);
            // A flip inside the sync marker or the schema text may leave a valid header whose
            // blocks then do not match it; anything else is refused at the header.
            if error.is_none() {
                assert_eq!(read, rows(ROWS), "flip {flip:#x} at {at}");
            }
            let mut json = match JsonReader::new(damaged.as_slice()) {
                Ok(json) => json,
                Err(_) => continue,
            };
            for value in &mut json {
                if value.is_err() {
                    break;
                }
            }
        }
    }
}

#[test]
fn a_bad_sync_marker_is_located_and_skipped() {
    for (codec, ahead) in [Codec::Null, Codec::Deflate, Codec::Snappy]
        .into_iter()
        .flat_map(|codec| AHEAD.map(|ahead| (codec, ahead)))
    {
        let file = file(codec);
        let starts = block_starts(&file);
        let mut damaged = file.clone();
        // The sync marker that ends block 1 (just before block 2 starts).
        damaged[starts[2] - 3] ^= 0x55;
        let mut reader = reader(&damaged, ahead).unwrap();
        let first: Vec<Row> = (&mut reader).take(10).map(Result::unwrap).collect();
        assert_eq!(first, rows(10));
        let error = reader.next().unwrap().unwrap_err();
        match &error {
            Error::Block {
                block: 1,
                offset,
                damage: Damage::BadSync,
            } => assert_eq!(*offset as usize, starts[1]),
            other => panic!("{codec} (ahead: {ahead}): {other:?}"),
        }
        assert!(error.to_string().contains("block 1"), "{error}");
        assert!(reader.next().is_none(), "iteration stops after damage");
        reader.skip_damaged().unwrap();
        let rest: Vec<Row> = reader.map(Result::unwrap).collect();
        assert_eq!(rest, rows(ROWS)[20..], "{codec} (ahead: {ahead})");
    }
}

#[test]
fn flipped_compressed_bytes_are_errors_and_later_blocks_still_read() {
    let all = rows(ROWS);
    for (codec, ahead) in COMPRESSING
        .into_iter()
        .flat_map(|codec| AHEAD.map(|ahead| (codec, ahead)))
    {
        let file = file(codec);
        let starts = block_starts(&file);
        // Every byte of block 2's data: after its count (one byte) and its size varint,
        // before its sync marker.
        let size_len = file[starts[2] + 1..]
            .iter()
            .take_while(|&&b| b >= 0x80)
            .count()
            + 1;
        let (data_start, data_end) = (starts[2] + 1 + size_len, starts[3] - 16);
        let mut errors = 0;
        for at in data_start..data_end {
            let mut damaged = file.clone();
            damaged[at] ^= 0x21;
            let mut reader = reader(&damaged, ahead).unwrap();
            let mut before = Vec::new();
            let mut after = Vec::new();
            let mut failed = false;
            while let Some(row) = reader.next() {
                match row {
                    Ok(row) if failed => after.push(row),
                    Ok(row) => before.push(row),
                    Err(Error::Block { block: 2, .. } | Error::Record { block: 2, .. }) => {
                        failed = true;
                        reader.skip_damaged().unwrap();
                    }
                    Err(other) => panic!("{codec} (ahead: {ahead}), flip at {at}: {other}"),
                }
            }
            // Blocks 0, 1 and 3 read as written; block 2's records are lost after the error.
            assert_eq!(
                before[..20],
                all[..20],
                "{codec} (ahead: {ahead}), flip at {at}"
            );
            if failed {
                errors += 1;
                assert!(before.len() <= 30, "{codec} (ahead: {ahead}), flip at {at}");
                assert_eq!(after, all[30..], "{codec} (ahead: {ahead}), flip at {at}");
            } else if codec == Codec::Deflate {
                // A flip deflate cannot notice (it has no checksum) may change values.
                assert_eq!(before.len(), 40, "{codec} (ahead: {ahead}), flip at {at}");
                assert_eq!(
                    before[30..],
                    all[30..],
                    "{codec} (ahead: {ahead}), flip at {at}"
                );
            } else {
                // The other codecs check their data: a flip they let pass changed nothing.
                assert_eq!(before, all, "{codec} (ahead: {ahead}), flip at {at}");
            }
        }
        assert!(
            errors > (data_end - data_start) / 2,
            "{codec} (ahead: {ahead}): {errors} flips noticed"
        );
    }
}

/// The header of a file of `T` records with `codec` and the sync marker `[9; 16]`.
fn header_only<T: avdl2rs::AvroSchema + avdl2rs::AvroEncode>(codec: Codec) -> Vec<u8> {
    let writer = WriterBuilder::new()
        .codec(codec)
        .sync_marker([9; 16])
        .build::<T, _>(Vec::new())
        .unwrap();
    writer.finish().unwrap()
}

/// Appends a block of `count` records whose (compressed) data is `data`.
fn push_block(file: &mut Vec<u8>, count: i64, data: &[u8]) {
    write_long(file, count);
    write_long(file, data.len() as i64);
    file.extend_from_slice(data);
    file.extend_from_slice(&[9; 16]);
}

/// A file of `"long"` records whose only block has the given count and size varints and a
/// few bytes of data.
fn hostile_block(count: i64, size: i64) -> Vec<u8> {
    let mut file = header_only::<Num>(Codec::Null);
    write_long(&mut file, count);
    write_long(&mut file, size);
    file.extend_from_slice(&[2, 4, 6]);
    file.extend_from_slice(&[9; 16]);
    file
}

#[test]
fn hostile_counts_and_sizes_are_errors_without_allocating() {
    let huge = 1i64 << 62;
    let cases = [
        (huge, 3),
        (3, huge),
        (-1, 3),
        (3, -1),
        (i64::MAX, i64::MAX),
        (1 << 20, 3),
    ];
    for (count, size) in cases {
        let file = hostile_block(count, size);
        let error = Reader::<Num, _>::new(file.as_slice())
            .unwrap()
            .find_map(Result::err)
            .unwrap_or_else(|| panic!("count {count}, size {size}: no error"));
        let Error::Block {
            block: 0, damage, ..
        } = &error
        else {
            panic!("count {count}, size {size}: {error}");
        };
        match damage {
            Damage::BadCount(_) => assert!(count < 0),
            Damage::BadSize(_) => assert!(!(0..=1 << 28).contains(&size)),
            Damage::CountTooLarge { .. } => assert!(count > 3),
            other => panic!("count {count}, size {size}: {other}"),
        }
    }
    // The valid block reads.
    let file = hostile_block(3, 3);
    let values: Vec<Num> = Reader::new(file.as_slice())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(values, [Num { n: 1 }, Num { n: 2 }, Num { n: 3 }]);
}

/// Zstandard data as streaming writers (Java, apache-avro) make it: frames without their
/// decompressed size in the header, which the reader must size by trying.
fn streamed_zstd(data: &[u8]) -> Vec<u8> {
    let frame = zstd::stream::encode_all(data, 3).unwrap();
    assert!(matches!(
        zstd::zstd_safe::get_frame_content_size(&frame),
        Ok(None)
    ));
    frame
}

#[test]
fn zstandard_frames_without_their_size_and_several_per_block_read() {
    let nums = |range: std::ops::Range<i64>| -> (Vec<Num>, Vec<u8>) {
        let mut bytes = Vec::new();
        range.clone().for_each(|n| write_long(&mut bytes, n));
        (range.map(|n| Num { n }).collect(), bytes)
    };
    let mut file = header_only::<Num>(Codec::Zstandard);
    // Two frames in one block.
    let (first, bytes) = nums(0..1000);
    let mut data = streamed_zstd(&bytes[..700]);
    data.extend(streamed_zstd(&bytes[700..]));
    push_block(&mut file, 1000, &data);
    // Data that expands far beyond any first guess: 300,000 records of 1 (the byte 0x02).
    push_block(&mut file, 300_000, &streamed_zstd(&[2; 300_000]));
    let read: Vec<Num> = Reader::new(file.as_slice())
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(read.len(), 301_000);
    assert_eq!(read[..1000], first);
    assert!(read[1000..].iter().all(|num| *num == Num { n: 1 }));
}

#[test]
fn streamed_zstandard_bombs_are_refused() {
    let mut file = header_only::<Blob>(Codec::Zstandard);
    let mut record = Vec::new();
    write_long(&mut record, 1 << 20);
    record.resize(record.len() + (1 << 20), 0);
    push_block(&mut file, 1, &streamed_zstd(&record));
    assert_expands_beyond_the_limit(&file, "streamed zstandard");
}

/// `file` holds one block of one `Blob` of 1 MiB of zeros: a reader limited to 256 KiB
/// blocks refuses it, and one with the default limit reads it.
fn assert_expands_beyond_the_limit(file: &[u8], what: &str) {
    let mut reader = Reader::<Blob, _>::new(file)
        .unwrap()
        .max_block_bytes(256 << 10);
    let error = reader.next().unwrap().unwrap_err();
    assert!(
        matches!(&error, Error::Block { block: 0, damage: Damage::Decompress(why), .. } if why.contains("limit")),
        "{what}: {error}"
    );
    let read: Vec<Blob> = Reader::new(file).unwrap().map(Result::unwrap).collect();
    assert!(
        read == [Blob {
            data: vec![0; 1 << 20]
        }],
        "{what}"
    );
}

#[test]
fn blocks_that_expand_beyond_the_limit_are_refused() {
    let zeros = vec![0u8; 1 << 20];
    for codec in COMPRESSING {
        let mut writer = WriterBuilder::new()
            .codec(codec)
            .build::<Blob, _>(Vec::new())
            .unwrap();
        writer
            .append(&Blob {
                data: zeros.clone(),
            })
            .unwrap();
        let file = writer.finish().unwrap();
        assert!(file.len() < 64 << 10, "{codec}: {} bytes", file.len());
        assert_expands_beyond_the_limit(&file, codec.name());
    }
}
