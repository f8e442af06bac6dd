//! [`Salvage`]: the intact blocks of a damaged file, each damaged block reported with the
//! records lost and the bytes passed over to find the next one.

use avdl2rs::Avro;
use avdl2rs_container::{
    BlockReader, Codec, Damage, DamagedBlock, Error, Salvage, Salvaged, WriterBuilder,
};

#[derive(Avro, Debug, Clone, PartialEq)]
#[avro(namespace = "test.salvage")]
struct Entry {
    id: i64,
    label: String,
}

/// A file of four blocks of five entries, and where each block starts.
fn file(codec: Codec) -> (Vec<u8>, Vec<u64>) {
    let mut writer = WriterBuilder::new()
        .codec(codec)
        .block_records(5)
        .build(Vec::new())
        .unwrap();
    for id in 0..20 {
        let label = format!("entry {id}");
        writer.append(&Entry { id, label }).unwrap();
    }
    let file = writer.finish().unwrap();
    let mut reader = BlockReader::new(file.as_slice()).unwrap();
    let mut data = Vec::new();
    let mut offsets = Vec::new();
    while let Some(block) = reader.next_stored(&mut data).unwrap() {
        offsets.push(block.offset);
    }
    (file, offsets)
}

/// The salvage of `file`: the ids of the intact blocks' records, and the damaged blocks.
fn salvage(file: &[u8]) -> (Vec<i64>, Vec<DamagedBlock>) {
    let mut salvage = Salvage::new(file).unwrap();
    let (mut ids, mut damaged) = (Vec::new(), Vec::new());
    while let Some(step) = salvage.next_block().unwrap() {
        match step {
            Salvaged::Intact(block) => {
                assert_eq!(block.records.len() as u64, block.info.count);
                ids.extend(block.records.iter().map(|r| r["id"].as_i64().unwrap()));
            }
            Salvaged::Damaged(block) => damaged.push(block),
        }
    }
    (ids, damaged)
}

fn ids(blocks: &[i64]) -> Vec<i64> {
    blocks.iter().flat_map(|b| b * 5..b * 5 + 5).collect()
}

#[test]
fn an_intact_file_is_all_kept() {
    let (file, _) = file(Codec::Deflate);
    let (kept, damaged) = salvage(&file);
    assert_eq!(kept, ids(&[0, 1, 2, 3]));
    assert!(damaged.is_empty(), "{damaged:?}");
}

#[test]
fn a_bad_count_is_passed_over_to_the_next_sync_marker() {
    let (mut file, offsets) = file(Codec::Null);
    // A count varint that never ends: the block's size, and so its end, are unknown.
    let at = offsets[1] as usize;
    file[at..at + 12].fill(0xff);
    let (kept, damaged) = salvage(&file);
    assert_eq!(kept, ids(&[0, 2, 3]));
    let [block] = damaged.as_slice() else {
        panic!("{damaged:?}")
    };
    assert!(
        matches!(block.error, Error::Block { block: 1, offset, damage: Damage::BadCount(_) } if offset == offsets[1]),
        "{:?}",
        block.error
    );
    assert_eq!(block.records, None);
    // The count is given up after the 10 bytes a long takes at most; the rest of the block is
    // passed over.
    assert_eq!(block.skipped, offsets[2] - offsets[1] - 10);
}

#[test]
fn undecodable_records_lose_their_whole_block() {
    let (mut file, offsets) = file(Codec::Null);
    // Inside block 2's data: 0xff is no UTF-8 and ends no varint.
    let middle = ((offsets[2] + offsets[3]) / 2) as usize;
    file[middle - 8..middle + 8].fill(0xff);
    let (kept, damaged) = salvage(&file);
    assert_eq!(kept, ids(&[0, 1, 3]));
    let [block] = damaged.as_slice() else {
        panic!("{damaged:?}")
    };
    assert!(
        matches!(block.error, Error::Record { block: 2, .. }),
        "{:?}",
        block.error
    );
    assert_eq!((block.records, block.skipped), (Some(5), 0));
}

#[test]
fn a_truncated_last_block_is_reported_with_its_count() {
    let (mut file, offsets) = file(Codec::Snappy);
    file.truncate(offsets[3] as usize + 6);
    let (kept, damaged) = salvage(&file);
    assert_eq!(kept, ids(&[0, 1, 2]));
    let [block] = damaged.as_slice() else {
        panic!("{damaged:?}")
    };
    assert!(
        matches!(
            block.error,
            Error::Block {
                block: 3,
                damage: Damage::Truncated,
                ..
            }
        ),
        "{:?}",
        block.error
    );
    assert_eq!(block.records, Some(5));
}
