//! Every implementation does the same work: for the same value all write the same bytes as
//! apache-avro, and each reads every other's bytes back to the same value. Checked over
//! values that set and unset every optional field. The hand-written decoders refuse every
//! truncated input, as the generated one does; the resolving decode reads the earlier
//! versions of the shapes the resolving benchmark uses.

use std::fmt::Debug;

use avdl2rs::codec::Reader;
use avdl2rs::resolve::ResolutionPlan;
use avdl2rs_bench::codecs::{self, Codec, Shape, Visitor};
use avdl2rs_bench::evolution::{self, Evolved};
use avdl2rs_bench::hand::{checked, unchecked};
use avdl2rs_bench::values;

/// Seeds covering every combination of the (at most four) optional fields of a shape.
const SEEDS: std::ops::Range<u32> = 0..16;

/// Collects each implementation's encoding of the sample value.
#[derive(Default)]
struct Encodings(Vec<(&'static str, Vec<u8>)>);

impl Visitor for Encodings {
    fn visit<V: Debug, C: Codec<V>>(&mut self, name: &'static str, mut codec: C, value: &V) {
        let mut out = Vec::new();
        codec
            .encode(value, &mut out)
            .unwrap_or_else(|e| panic!("{name} cannot encode {value:?}: {e}"));
        self.0.push((name, out));
    }
}

/// Checks that each implementation reads every encoding back to the sample value.
struct ReadsAll<'a>(&'a [(&'static str, Vec<u8>)]);

impl Visitor for ReadsAll<'_> {
    fn visit<V, C>(&mut self, reader: &'static str, codec: C, value: &V)
    where
        V: PartialEq + Debug,
        C: Codec<V>,
    {
        for (writer, bytes) in self.0 {
            let decoded = codec
                .decode(bytes)
                .unwrap_or_else(|e| panic!("{reader} cannot read the bytes of {writer}: {e}"));
            assert_eq!(&decoded, value, "{reader} reading the bytes of {writer}");
        }
    }
}

/// Whether the bytes of an implementation must equal the generated code's byte for byte.
/// apache-avro's `Value` path copies a map into a `HashMap` of its own, so it writes map
/// entries in another order; its bytes are then checked for length and to read back equal.
fn writes_in_value_order(name: &str, has_map: bool) -> bool {
    !(has_map && name == "apache_value")
}

/// Runs the checks for the values of `build` over [`SEEDS`].
fn check_shape<T: Shape>(build: fn(u32) -> T, has_map: bool) {
    for seed in SEEDS {
        let value = build(seed);
        let mut encodings = Encodings::default();
        codecs::visit_all(&value, &mut encodings).expect("every implementation is prepared");
        let encodings = encodings.0;
        assert_eq!(encodings.len(), 6);
        let (last, expected) = encodings.last().expect("six encodings");
        assert_eq!(*last, "generated");
        let (first_serde, reference) = &encodings[1];
        assert_eq!(*first_serde, "apache_serde");
        assert_eq!(
            reference, expected,
            "generated differs from apache-avro, seed {seed}"
        );
        for (name, bytes) in &encodings {
            if writes_in_value_order(name, has_map) {
                assert_eq!(
                    bytes, expected,
                    "{name} differs from generated, seed {seed}"
                );
            } else {
                assert_eq!(bytes.len(), expected.len(), "{name} length, seed {seed}");
            }
        }
        codecs::visit_all(&value, &mut ReadsAll(&encodings)).expect("prepared");
        for (writer, bytes) in &encodings {
            let mut reader = Reader::new(bytes);
            T::decode(&mut reader).expect("checked above");
            assert!(reader.is_empty(), "generated decode left bytes of {writer}");
            let mut input = checked::Input::new(bytes);
            T::decode_checked(&mut input).expect("checked above");
            assert!(input.is_empty(), "checked decode left bytes of {writer}");
            let mut input = unchecked::Input::new(bytes);
            T::decode_unchecked(&mut input).expect("checked above");
            assert!(input.is_empty(), "unchecked decode left bytes of {writer}");
        }
        refuses_truncated::<T>(expected);
    }
}

/// Every proper prefix of `bytes` is refused by the generated decoder and both hand-written
/// ones, with an error rather than a panic or a value.
fn refuses_truncated<T: Shape>(bytes: &[u8]) {
    for len in 0..bytes.len() {
        let prefix = &bytes[..len];
        assert!(
            T::decode(&mut Reader::new(prefix)).is_err(),
            "generated, {len} bytes"
        );
        assert!(
            T::decode_checked(&mut checked::Input::new(prefix)).is_err(),
            "checked, {len} bytes"
        );
        assert!(
            T::decode_unchecked(&mut unchecked::Input::new(prefix)).is_none(),
            "unchecked, {len} bytes"
        );
    }
}

#[test]
fn order_event() {
    check_shape(values::order_event, false);
}

#[test]
fn log_line() {
    check_shape(values::log_line, false);
}

#[test]
fn click_event() {
    check_shape(values::click_event, false);
}

#[test]
fn metrics() {
    check_shape(values::metrics, true);
}

/// The resolving decode reads the bytes of each earlier version (written by apache-avro) as
/// the value with the new fields at their defaults, as the resolving benchmark assumes.
fn check_resolving<T: Shape + Evolved>(build: fn(u32) -> T) {
    let plan = ResolutionPlan::reading::<T>(T::WRITER_SCHEMA).expect("a compatible change");
    assert!(!plan.is_direct());
    for seed in SEEDS {
        let value = build(seed);
        let bytes = evolution::writer_bytes(&value).expect("apache-avro writes version 1");
        assert_eq!(
            plan.decode::<T>(&bytes).expect("resolves"),
            value.resolved()
        );
    }
}

#[test]
fn resolving_decode_of_earlier_versions() {
    check_resolving(values::order_event);
    check_resolving(values::log_line);
    check_resolving(values::click_event);
}
