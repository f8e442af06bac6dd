//! Memory taken on a block's word: a compressed block announcing its decompressed length is
//! refused, as a located damaged block, before that length is allocated. Measured with a
//! counting global allocator, which is why this is a test binary of its own: the peak of the
//! bytes allocated at once, not the resident set, so untouched allocations count too.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use avdl2rs_container::{
    count_records, BlockInfo, BlockReader, Codec, Damage, Error, JsonReader, WriterBuilder,
};

/// Counts the bytes allocated now and the most allocated at once.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on to the system allocator.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(now, Ordering::SeqCst);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as for `alloc`.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::SeqCst);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One measurement at a time: the tests of this binary run on parallel threads.
static MEASURING: Mutex<()> = Mutex::new(());

/// The most bytes reading a hostile file may allocate above what was allocated before.
const BOUND: usize = 4 << 20;

/// The bytes `read` allocated at its peak, above what was allocated when it started.
fn peak_of<T>(read: impl FnOnce() -> T) -> (usize, T) {
    let _one = MEASURING.lock().unwrap_or_else(|e| e.into_inner());
    let base = CURRENT.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    let value = read();
    (PEAK.load(Ordering::SeqCst) - base, value)
}

fn shared_snappy_file() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hostile/memory-snappy-announced-256mib.avro");
    std::fs::read(path).unwrap()
}

/// A file of `blocks` blocks of `codec` whose stored data is `stored`, copied as it is.
fn file_of(codec: Codec, blocks: u64, stored: &[u8]) -> Vec<u8> {
    let mut writer = WriterBuilder::new()
        .codec(codec)
        .build_datums(r#""null""#, Vec::new())
        .unwrap();
    for number in 0..blocks {
        let block = BlockInfo {
            number,
            offset: 0,
            count: 1,
        };
        writer.copy_block(&block, codec, stored).unwrap();
    }
    writer.finish().unwrap()
}

/// Snappy data announcing 256 MiB (the preamble), then a literal of one byte, then the CRC.
fn snappy_claim() -> Vec<u8> {
    let mut data = vec![0x80, 0x80, 0x80, 0x80, 0x01];
    data.extend_from_slice(&[0, 0, 0, 0, 0, 0]);
    data
}

/// A zstd frame whose header announces 200 MiB of content (8-byte content size, single
/// segment), then one RLE block of one byte.
fn zstd_claim() -> Vec<u8> {
    let mut frame = vec![0x28, 0xb5, 0x2f, 0xfd, 0xe0];
    frame.extend_from_slice(&(200u64 << 20).to_le_bytes());
    frame.extend_from_slice(&[0x0b, 0x00, 0x00, 0x00]);
    frame
}

/// Reads every block of `file` through `reader`, skipping damaged ones; returns the errors.
fn damaged_blocks(file: &[u8]) -> Vec<Error> {
    let mut reader = BlockReader::new(file).unwrap();
    let mut data = Vec::new();
    let mut errors = Vec::new();
    loop {
        match reader.next_decompressed(&mut data) {
            Ok(Some(_)) => {}
            Ok(None) => return errors,
            Err(e) => {
                errors.push(e);
                reader.skip_damaged().unwrap();
            }
        }
    }
}

/// Every error is a damaged block refused for what it announced, located at its block.
fn assert_refused_claims(errors: &[Error], blocks: u64) {
    assert_eq!(errors.len() as u64, blocks, "{errors:?}");
    for (number, error) in errors.iter().enumerate() {
        match error {
            Error::Block {
                block,
                damage: Damage::Decompress(why),
                ..
            } if *block == number as u64 && why.contains("announces") => {}
            other => panic!("block {number}: {other:?}"),
        }
    }
}

#[test]
fn the_shared_snappy_file_is_refused_before_its_claim_is_allocated() {
    let file = shared_snappy_file();
    let (peak, counted) = peak_of(|| count_records(file.as_slice()));
    assert!(peak < BOUND, "counting took {peak} bytes");
    match counted {
        Err(Error::Block {
            block: 0,
            offset: 59,
            damage: Damage::Decompress(_),
        }) => {}
        other => panic!("{other:?}"),
    }
    let (peak, errors) = peak_of(|| damaged_blocks(&file));
    assert!(peak < BOUND, "reading the blocks took {peak} bytes");
    assert_refused_claims(&errors, 8);
}

#[test]
fn claims_are_refused_in_every_block_on_worker_threads_too() {
    let file = file_of(Codec::Snappy, 200, &snappy_claim());
    let (peak, errors) = peak_of(|| damaged_blocks(&file));
    assert!(peak < BOUND, "reading the blocks took {peak} bytes");
    assert_refused_claims(&errors, 200);
    let (peak, first) = peak_of(|| {
        let mut reader = JsonReader::new(file.as_slice()).unwrap();
        reader.next()
    });
    assert!(peak < BOUND, "the JSON reader took {peak} bytes");
    assert!(
        matches!(first, Some(Err(Error::Block { block: 0, .. }))),
        "{first:?}"
    );
}

#[test]
fn a_zstd_frame_announcing_more_than_it_can_hold_is_refused() {
    let file = file_of(Codec::Zstandard, 20, &zstd_claim());
    let (peak, errors) = peak_of(|| damaged_blocks(&file));
    assert!(peak < BOUND, "reading the blocks took {peak} bytes");
    assert_refused_claims(&errors, 20);
}
