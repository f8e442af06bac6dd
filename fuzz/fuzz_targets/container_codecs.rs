//! Every codec on files that start valid: the fuzzer's records are written by the
//! `DatumWriter` with the codec, schema and block size it picks, then a few bytes are
//! flipped where it says, and the file is read by every reader. Undamaged, the blocks must
//! decompress to exactly the records written, in order.
//!
//! Input: codec, schema, records per block, number of flips (each a little-endian 16-bit
//! offset and a mask), then the records, each a length byte and that many bytes.
#![no_main]

use avdl2rs_container::{Codec, WriterBuilder};
use avdl2rs_fuzz::container::{read_blocks, read_json, read_typed, SCHEMAS, SYNC};
use avdl2rs_fuzz::generated::{LinkedList, Tree};
use libfuzzer_sys::fuzz_target;

/// The fuzzer's choices, read from the front of the input.
struct Plan<'a> {
    codec: Codec,
    schema: &'static str,
    block_records: u64,
    flips: Vec<(usize, u8)>,
    records: Vec<&'a [u8]>,
}

impl<'a> Plan<'a> {
    fn read(input: &'a [u8]) -> Option<Self> {
        let (&[codec, schema, block_records, flips], mut rest) = input.split_first_chunk()?;
        let mut flip = Vec::new();
        for _ in 0..flips % 4 {
            let (&[low, high, mask], after) = rest.split_first_chunk()?;
            flip.push((usize::from(u16::from_le_bytes([low, high])), mask));
            rest = after;
        }
        let mut records = Vec::new();
        while let Some((&len, after)) = rest.split_first() {
            let (record, after) = after.split_at(usize::from(len).min(after.len()));
            records.push(record);
            rest = after;
        }
        Some(Plan {
            codec: Codec::ALL[usize::from(codec) % Codec::ALL.len()],
            schema: SCHEMAS[usize::from(schema) % SCHEMAS.len()],
            block_records: 1 + u64::from(block_records % 8),
            flips: flip,
            records,
        })
    }

    fn write(&self) -> Vec<u8> {
        let mut writer = WriterBuilder::new()
            .codec(self.codec)
            .block_records(self.block_records)
            .sync_marker(SYNC)
            .build_datums(self.schema, Vec::new())
            .expect("every codec is compiled in and every schema is valid");
        for record in &self.records {
            writer.append_encoded(record).expect("writing to memory");
        }
        writer.finish().expect("writing to memory")
    }
}

fuzz_target!(|input: &[u8]| {
    let Some(plan) = Plan::read(input) else {
        return;
    };
    let mut file = plan.write();
    for &(offset, mask) in &plan.flips {
        let len = file.len();
        file[offset % len] ^= mask;
    }
    if plan.flips.is_empty() || plan.flips.iter().all(|&(_, mask)| mask == 0) {
        let blocks = read_blocks(&file, true).expect("the header just written");
        let count: u64 = blocks.iter().map(|(count, _)| count).sum();
        let data: Vec<u8> = blocks.into_iter().flat_map(|(_, data)| data).collect();
        assert_eq!(count, plan.records.len() as u64, "records in the blocks");
        assert_eq!(data, plan.records.concat(), "the blocks' data");
    }
    read_typed::<Tree>(&file, 0);
    read_typed::<LinkedList>(&file, 1);
    drop(read_json(&file));
    drop(read_blocks(&file, false));
    drop(read_blocks(&file, true));
});
