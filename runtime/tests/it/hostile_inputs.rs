//! Hostile and damaged input: every malformed byte string is an error of the right kind at
//! the right offset, with the path into the datum, and never a panic or a huge allocation.

use avdl2rs::codec::{self, DecodeLimits, Reader};
use avdl2rs::{DecodeError, DecodeErrorKind};
use proptest::prelude::*;

/// A small record of the shape generated code has: `OrderEvent { id: long, items:
/// array<LineItem>, tags: map<string>, status: enum(3), note: union[null, string] }`,
/// `LineItem { sku: string, qty: int, gift: boolean }`, decoded the way generated code does.
#[derive(Debug, PartialEq)]
struct OrderEvent {
    id: i64,
    items: Vec<LineItem>,
    tags: std::collections::BTreeMap<String, String>,
    status: usize,
    note: Option<String>,
}

#[derive(Debug, PartialEq)]
struct LineItem {
    sku: String,
    qty: i32,
    gift: bool,
}

impl LineItem {
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let sku = r.read_string().map_err(|e| e.in_field("sku"))?.to_owned();
        let qty = r.read_int().map_err(|e| e.in_field("qty"))?;
        let gift = r.read_boolean().map_err(|e| e.in_field("gift"))?;
        Ok(Self { sku, qty, gift })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        codec::write_string(out, &self.sku);
        codec::write_int(out, self.qty);
        codec::write_boolean(out, self.gift);
    }
}

impl OrderEvent {
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Self::decode_fields(r).map_err(|e| e.in_type("OrderEvent"))
    }

    fn decode_fields(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let id = r.read_long().map_err(|e| e.in_field("id"))?;
        let items = r
            .read_array(|r| LineItem::decode(r).map_err(|e| e.in_type("LineItem")))
            .map_err(|e| e.in_field("items"))?;
        let tags = r
            .read_map(|r| r.read_string().map(str::to_owned))
            .map_err(|e| e.in_field("tags"))?;
        let status = r.read_enum_index(3).map_err(|e| e.in_field("status"))?;
        let note = match r.read_union_index(2).map_err(|e| e.in_field("note"))? {
            0 => None,
            _ => Some(r.read_string().map_err(|e| e.in_field("note"))?.to_owned()),
        };
        Ok(Self {
            id,
            items,
            tags,
            status,
            note,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        codec::write_long(out, self.id);
        codec::write_array(out, &self.items, |o, i| {
            i.encode(o);
            Ok(())
        })
        .unwrap();
        codec::write_map(out, self.tags.len(), &self.tags, |o, v| {
            codec::write_string(o, v);
            Ok(())
        })
        .unwrap();
        codec::write_int(out, self.status as i32);
        match &self.note {
            None => codec::write_int(out, 0),
            Some(note) => {
                codec::write_int(out, 1);
                codec::write_string(out, note);
            }
        }
    }
}

fn sample() -> OrderEvent {
    OrderEvent {
        id: 7,
        items: (0..5)
            .map(|i| LineItem {
                sku: format!("sku-{i}"),
                qty: i,
                gift: i % 2 == 0,
            })
            .collect(),
        tags: [("region".to_owned(), "eu".to_owned())].into(),
        status: 2,
        note: Some("fragile".to_owned()),
    }
}

fn sample_bytes() -> Vec<u8> {
    let mut out = Vec::new();
    sample().encode(&mut out);
    out
}

/// The offset of the string `needle` (its length prefix) in the sample's encoding.
fn offset_of(bytes: &[u8], needle: &str) -> usize {
    bytes
        .windows(needle.len())
        .position(|w| w == needle.as_bytes())
        .unwrap()
        - 1
}

#[test]
fn the_sample_round_trips() {
    let bytes = sample_bytes();
    let mut reader = Reader::new(&bytes);
    assert_eq!(OrderEvent::decode(&mut reader).unwrap(), sample());
    assert!(reader.is_empty());
}

#[test]
fn bad_utf8_names_the_field_path_and_offset() {
    let mut bytes = sample_bytes();
    let at = offset_of(&bytes, "sku-3");
    bytes[at + 1] = 0xff;
    let error = OrderEvent::decode(&mut Reader::new(&bytes)).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::InvalidUtf8);
    assert_eq!(error.path(), "OrderEvent.items[3].sku");
    assert_eq!(error.offset(), at);
    assert_eq!(
        error.to_string(),
        format!("cannot decode OrderEvent.items[3].sku at byte {at}: string is not valid UTF-8")
    );
}

#[test]
fn a_bad_boolean_names_its_field() {
    let mut bytes = sample_bytes();
    let at = offset_of(&bytes, "sku-1") + 1 + 5 + 1; // length, text, qty
    assert_eq!(bytes[at], 0);
    bytes[at] = 2;
    let error = OrderEvent::decode(&mut Reader::new(&bytes)).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::InvalidBoolean(2));
    assert_eq!(error.path(), "OrderEvent.items[1].gift");
    assert_eq!(error.offset(), at);
}

#[test]
fn enum_and_union_indexes_out_of_range() {
    let bytes = sample_bytes();
    let note_at = offset_of(&bytes, "fragile");
    // The enum index precedes the union index, which precedes the note.
    let (status_at, union_at) = (note_at - 2, note_at - 1);

    let mut bad_enum = bytes.clone();
    bad_enum[status_at] = 6; // zig-zag 3
    let error = OrderEvent::decode(&mut Reader::new(&bad_enum)).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::EnumIndexOutOfRange {
            index: 3,
            symbols: 3
        }
    );
    assert_eq!(error.path(), "OrderEvent.status");
    assert_eq!(error.offset(), status_at);

    let mut bad_union = bytes;
    bad_union[union_at] = 1; // zig-zag -1
    let error = OrderEvent::decode(&mut Reader::new(&bad_union)).unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::UnionIndexOutOfRange {
            index: -1,
            branches: 2
        }
    );
    assert_eq!(
        error.to_string(),
        format!("cannot decode OrderEvent.note at byte {union_at}: union index -1 out of range for 2 branches")
    );
}

#[test]
fn map_values_are_named_by_key() {
    let mut bytes = sample_bytes();
    let at = offset_of(&bytes, "eu");
    bytes[at + 1] = 0xc0; // an overlong UTF-8 lead byte
    let error = OrderEvent::decode(&mut Reader::new(&bytes)).unwrap_err();
    assert_eq!(error.path(), r#"OrderEvent.tags["region"]"#);
}

#[test]
fn every_truncation_is_an_unexpected_end() {
    let bytes = sample_bytes();
    for len in 0..bytes.len() {
        let error = OrderEvent::decode(&mut Reader::new(&bytes[..len])).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                DecodeErrorKind::UnexpectedEof { .. }
                    | DecodeErrorKind::LengthTooLarge { .. }
                    | DecodeErrorKind::TooManyItems { .. }
            ),
            "{len}: {error}"
        );
        assert!(error.offset() <= len, "{len}: {error}");
        assert!(error.path().starts_with("OrderEvent."), "{len}: {error}");
    }
}

#[test]
fn a_length_of_two_to_the_62_is_refused_before_allocating() {
    let mut bytes = Vec::new();
    codec::write_long(&mut bytes, 1 << 62);
    bytes.extend_from_slice(b"abc");
    let error = Reader::new(&bytes).read_bytes().unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::LengthTooLarge {
            length: 1 << 62,
            remaining: 3
        }
    );
    assert_eq!(error.offset(), 0);
    assert_eq!(
        error.to_string(),
        "cannot decode at byte 0: length 4611686018427387904 is larger than the 3 bytes left"
    );
}

#[test]
fn negative_lengths_are_refused() {
    let mut bytes = vec![0x02]; // a leading int, so the offset is not 0
    codec::write_long(&mut bytes, -5);
    let mut reader = Reader::new(&bytes);
    reader.read_int().unwrap();
    let error = reader.read_string().unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::NegativeLength(-5));
    assert_eq!(error.offset(), 1);
}

#[test]
fn varints_longer_than_ten_bytes_are_refused() {
    let mut bytes = vec![0xff; 10];
    bytes.push(0x01);
    let error = Reader::new(&bytes).read_long().unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::VarintTooLong);
    assert_eq!(error.offset(), 0);
    // Ten bytes whose last carries bits past the 64th are too long as well.
    let mut overflow = vec![0xff; 9];
    overflow.push(0x02);
    let error = Reader::new(&overflow).read_long().unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::VarintTooLong);
    // A varint cut short is an unexpected end.
    let error = Reader::new(&[0x80, 0x80]).read_long().unwrap_err();
    assert!(matches!(
        error.kind(),
        DecodeErrorKind::UnexpectedEof { remaining: 2, .. }
    ));
}

#[test]
fn ints_beyond_32_bits_are_refused() {
    let mut bytes = Vec::new();
    codec::write_long(&mut bytes, i64::from(i32::MAX) + 1);
    let error = Reader::new(&bytes).read_int().unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::IntOverflow(2_147_483_648));
    assert_eq!(
        error.to_string(),
        "cannot decode at byte 0: int value 2147483648 overflows 32 bits"
    );
}

#[test]
fn block_counts_beyond_the_item_budget_are_refused() {
    // A billion items announced, three bytes follow: past the default budget of a short
    // input (65,536 items).
    let mut bytes = Vec::new();
    codec::write_long(&mut bytes, 1_000_000_000);
    bytes.extend_from_slice(&[0, 0, 0]);
    let error = Reader::new(&bytes)
        .read_array(|r| r.read_int())
        .unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::TooManyItems {
            count: 1_000_000_000,
            limit: 65_536
        }
    );
    // Negative counts, i64::MIN included, are checked the same way.
    let mut min = Vec::new();
    codec::write_long(&mut min, i64::MIN);
    codec::write_long(&mut min, 0);
    let error = Reader::new(&min).read_array(|r| r.read_int()).unwrap_err();
    assert!(matches!(
        error.kind(),
        DecodeErrorKind::TooManyItems { count, .. } if *count == 1 << 63
    ));
    // A negative byte size is refused.
    let error = Reader::new(&[0x01, 0x01, 0x00])
        .skip_blocks(|r| r.skip_long())
        .unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::BadBlockSize(-1));
}

#[test]
fn arrays_of_null_share_one_item_budget() {
    // Ten blocks of four nulls (zero bytes each), 11 bytes in all: 40 items, within the
    // budget even though they outnumber the bytes.
    let bytes = [[0x08; 10].as_slice(), &[0x00]].concat();
    assert_eq!(
        Reader::new(&bytes).read_array(|_| Ok(())).unwrap().len(),
        40
    );
    // With a budget of 10 items the third block is refused where it starts.
    let limits = DecodeLimits {
        max_items: 10,
        ..DecodeLimits::for_input_len(bytes.len())
    };
    let error = Reader::with_limits(&bytes, limits)
        .read_array(|_| Ok(()))
        .unwrap_err();
    assert_eq!(
        error.kind(),
        &DecodeErrorKind::TooManyItems {
            count: 4,
            limit: 10
        }
    );
    assert_eq!(error.offset(), 2);
}

#[test]
fn trailing_bytes_are_reported() {
    let reader = Reader::new(&[0x00]);
    let error = reader.finish().unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::TrailingBytes(1));
}

/// Reading a value at the start of `bytes` and skipping it end at the same offset, or fail
/// with the same error.
fn skip_agrees_with_read<'a, T: std::fmt::Debug>(
    bytes: &'a [u8],
    read: impl FnOnce(&mut Reader<'a>) -> Result<T, DecodeError>,
    skip: impl FnOnce(&mut Reader<'a>) -> Result<(), DecodeError>,
) -> Result<(), TestCaseError> {
    let mut reader = Reader::new(bytes);
    let mut skipper = Reader::new(bytes);
    match (read(&mut reader), skip(&mut skipper)) {
        (Ok(_), Ok(())) => prop_assert_eq!(reader.position(), skipper.position()),
        (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
        (a, b) => prop_assert!(false, "read {:?}, skipped {:?}", a, b),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Flipping any bits of a valid message gives a value or an error, never a panic, and
    /// an error always points inside the input.
    #[test]
    fn bit_flips_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), 0u8..8), 1..6)) {
        let mut bytes = sample_bytes();
        for (index, bit) in flips {
            let at = index.index(bytes.len());
            bytes[at] ^= 1 << bit;
        }
        if let Err(error) = OrderEvent::decode(&mut Reader::new(&bytes)) {
            prop_assert!(error.offset() <= bytes.len());
            prop_assert!(!error.to_string().is_empty());
        }
    }

    /// Random bytes never panic either, and never make the reader produce more items than
    /// its item budget.
    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = OrderEvent::decode(&mut Reader::new(&bytes));
        if let Ok(items) = Reader::new(&bytes).read_array(|_| Ok(())) {
            prop_assert!(items.len() <= DecodeLimits::for_input_len(bytes.len()).max_items);
        }
        let _ = Reader::new(&bytes).skip_blocks(|r| r.skip_bytes());
    }

    /// Skipping a varint, which looks at eight bytes at once, ends where reading it ends,
    /// and fails where reading it fails, with the same error: for varints of every length
    /// (continuation bits set on all but a random last byte, or on all of them), followed
    /// by a random number of other bytes.
    #[test]
    fn skipping_a_varint_agrees_with_reading_it(
        len in 1usize..13,
        last in any::<u8>(),
        tail in prop::collection::vec(any::<u8>(), 0..10),
        high in any::<u8>(),
    ) {
        let mut bytes: Vec<u8> = (1..len).map(|i| 0x80 | (high.rotate_left(i as u32) & 0x7f)).collect();
        bytes.push(last);
        bytes.extend(tail);
        skip_agrees_with_read(&bytes, Reader::read_long, Reader::skip_long)?;
    }

    /// Skipping `bytes`, which handles one-byte lengths inline, agrees with reading them:
    /// every first byte (lengths 0 to 63, negative ones, the first byte of longer ones),
    /// before fewer, as many or more bytes than it announces.
    #[test]
    fn skipping_bytes_agrees_with_reading_them(
        first in any::<u8>(),
        rest in prop::collection::vec(any::<u8>(), 0..140),
    ) {
        let mut bytes = vec![first];
        bytes.extend(rest);
        skip_agrees_with_read(&bytes, Reader::read_bytes, Reader::skip_bytes)?;
    }
}
