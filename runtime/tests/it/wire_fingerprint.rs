//! The CRC-64-AVRO fingerprint against apache-avro's and against the specification's
//! bit-at-a-time definition.

use apache_avro::rabin::Rabin;
use apache_avro::Schema;
use avdl2rs::fingerprint::rabin_fingerprint;
use proptest::prelude::*;

/// The specification's definition, one bit at a time without a table: start from EMPTY,
/// and for each byte xor it in and shift eight times, xoring EMPTY when a one falls out.
fn by_the_spec(bytes: &[u8]) -> u64 {
    const EMPTY: u64 = 0xc15d_213a_a4d7_a795;
    let mut fp = EMPTY;
    for &byte in bytes {
        fp ^= u64::from(byte);
        for _ in 0..8 {
            fp = (fp >> 1) ^ if fp & 1 == 1 { EMPTY } else { 0 };
        }
    }
    fp
}

/// apache-avro's fingerprint of a schema, and the canonical form it fingerprinted.
fn apache(json: &str) -> (String, u64) {
    let schema = Schema::parse_str(json).unwrap();
    let bytes = schema.fingerprint::<Rabin>().bytes;
    (
        schema.canonical_form(),
        u64::from_le_bytes(bytes.try_into().unwrap()),
    )
}

#[test]
fn primitive_and_named_schemas_match_apache_avro() {
    for json in [
        r#""int""#,
        r#""string""#,
        r#""null""#,
        r#"{"type": "array", "items": "long"}"#,
        r#"{"type": "record", "name": "Ping", "namespace": "shop", "fields": [{"name": "id", "type": "long"}]}"#,
    ] {
        let (canonical, fingerprint) = apache(json);
        assert_eq!(
            rabin_fingerprint(canonical.as_bytes()),
            fingerprint,
            "{canonical}"
        );
    }
}

#[test]
fn known_values_of_primitive_canonical_forms() {
    // The canonical forms of "int" and "string" are the quoted names; the values are
    // apache-avro's and the bit-at-a-time definition's.
    assert_eq!(apache(r#""int""#).1, rabin_fingerprint(br#""int""#));
    assert_eq!(by_the_spec(br#""int""#), rabin_fingerprint(br#""int""#));
    assert_eq!(apache(r#""string""#).1, rabin_fingerprint(br#""string""#));
    assert_eq!(rabin_fingerprint(b""), 0xc15d_213a_a4d7_a795);
}

proptest! {
    #[test]
    fn the_table_agrees_with_the_definition(bytes in prop::collection::vec(any::<u8>(), 0..100)) {
        prop_assert_eq!(rabin_fingerprint(&bytes), by_the_spec(&bytes));
    }
}
