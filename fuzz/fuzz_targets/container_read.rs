//! Container files as they arrive: any bytes, read by the typed reader (directly when the
//! file has the type's schema, through resolution otherwise, decompressing on the calling
//! thread and on a worker), the JSON reader and the block reader (as stored and
//! decompressed), each skipping damaged blocks to the end. The seeds are files of every
//! codec, so the mutations reach each decompressor.
#![no_main]

use avdl2rs_fuzz::container::{read_blocks, read_json, read_typed};
use avdl2rs_fuzz::generated::{LinkedList, Tree};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|file: &[u8]| {
    read_typed::<Tree>(file, 0);
    read_typed::<LinkedList>(file, 1);
    drop(read_json(file));
    drop(read_blocks(file, false));
    drop(read_blocks(file, true));
});
