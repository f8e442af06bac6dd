//! Decimals are written at their schema's scale and precision or refused, never written as
//! if their own scale were the schema's; they read back with a precision check; serde shows
//! a human-readable format the number and apache-avro the bytes it can resolve.

use apache_avro::types::Value as AvroValue;
use avdl2rs::logical::Decimal;
use avdl2rs::{Avro, AvroSchema, DecodeErrorKind, EncodeErrorKind};
use serde::{Deserialize, Serialize};

/// `record Price { decimal(12, 2) amount; union{null, decimal(12,2)} discount; }` with the
/// serde attributes generated code gives it.
#[derive(Avro, Serialize, Deserialize, Debug, PartialEq)]
struct Price {
    #[avro(precision = 12, scale = 2)]
    #[serde(
        serialize_with = "avdl2rs::__private::serde_decimal::serialize::<_, 12, 2>",
        deserialize_with = "avdl2rs::__private::serde_decimal::deserialize::<_, 12, 2>"
    )]
    amount: Decimal,
    #[avro(precision = 12, scale = 2)]
    #[serde(
        serialize_with = "avdl2rs::__private::serde_decimal::option::serialize::<_, 12, 2>",
        deserialize_with = "avdl2rs::__private::serde_decimal::option::deserialize::<_, 12, 2>"
    )]
    discount: Option<Decimal>,
}

/// `decimal(12, 2)` on a `fixed(6)`.
#[derive(Avro, Debug, PartialEq)]
struct FixedPrice {
    #[avro(precision = 12, scale = 2, fixed = "Amount", size = 6)]
    amount: Decimal,
}

fn price(amount: Decimal) -> Price {
    Price {
        amount,
        discount: None,
    }
}

fn apache_schema() -> apache_avro::Schema {
    apache_avro::Schema::parse_str(Price::SCHEMA_JSON).unwrap()
}

/// What apache-avro reads from our bytes: the `amount` field's unscaled bytes.
fn apache_amount(bytes: &[u8]) -> Vec<u8> {
    let schema = apache_schema();
    let value = apache_avro::reader::datum::GenericDatumReader::builder(&schema)
        .build()
        .unwrap()
        .read_value(&mut &bytes[..])
        .unwrap();
    let AvroValue::Record(fields) = value else {
        panic!("a record")
    };
    match &fields[0].1 {
        AvroValue::Decimal(d) => Vec::<u8>::try_from(d).unwrap(),
        other => panic!("a decimal, not {other:?}"),
    }
}

#[test]
fn a_finer_scale_is_refused_instead_of_being_read_ten_times_larger() {
    // 12.345 at scale 2 would need rounding; it used to be written as 123.45.
    let error = price(Decimal::from_i128(12_345, 3))
        .to_avro_bytes()
        .unwrap_err();
    assert_eq!(
        error.kind(),
        &EncodeErrorKind::DecimalScaleTooLarge {
            value: "12.345".into(),
            scale: 2
        }
    );
    assert_eq!(error.path(), "amount");
    // Trailing zeros are dropped exactly: 12.340 is 12.34.
    let bytes = price(Decimal::from_i128(12_340, 3))
        .to_avro_bytes()
        .unwrap();
    assert_eq!(
        Price::from_avro_bytes(&bytes).unwrap().amount,
        Decimal::from_i128(1234, 2)
    );
}

#[test]
fn coarser_scales_are_rescaled_exactly() {
    // rust_decimal 12.5 (scale 1) and 12 (scale 0) used to read back as 1.25 and 0.12.
    for (value, unscaled) in [
        (rust_decimal::Decimal::new(125, 1), 1250),
        (rust_decimal::Decimal::new(12, 0), 1200),
        (rust_decimal::Decimal::new(-5, 0), -500),
    ] {
        let bytes = price(value.into()).to_avro_bytes().unwrap();
        let back = Price::from_avro_bytes(&bytes).unwrap().amount;
        assert_eq!(back, Decimal::from_i128(unscaled, 2));
        assert_eq!(rust_decimal::Decimal::try_from(&back).unwrap(), value);
        // apache-avro reads the same unscaled value from our bytes.
        assert_eq!(
            apache_amount(&bytes),
            Decimal::from_i128(unscaled, 2).unscaled_bytes()
        );
    }
    // The same on a fixed: sign-extended to its 6 bytes.
    let bytes = FixedPrice {
        amount: Decimal::from_i128(-5, 0),
    }
    .to_avro_bytes()
    .unwrap();
    assert_eq!(bytes, [0xff, 0xff, 0xff, 0xff, 0xfe, 0x0c]);
}

#[test]
fn more_digits_than_the_precision_are_refused_both_ways() {
    // 16 digits do not fit decimal(12, 2).
    let error = price(Decimal::from_i128(1_234_567_890_123_456, 2))
        .to_avro_bytes()
        .unwrap_err();
    assert_eq!(
        error.kind(),
        &EncodeErrorKind::DecimalPrecisionTooLarge {
            value: "12345678901234.56".into(),
            precision: 12
        }
    );
    // Rescaling can make a value too wide: 1e10 at scale 2 has 13 digits.
    let error = price(Decimal::from_i128(10_000_000_000, 0))
        .to_avro_bytes()
        .unwrap_err();
    assert!(matches!(
        error.kind(),
        EncodeErrorKind::DecimalPrecisionTooLarge { .. }
    ));
    // Twelve digits fit.
    let widest = Decimal::from_i128(-999_999_999_999, 2);
    let bytes = price(widest.clone()).to_avro_bytes().unwrap();
    assert_eq!(Price::from_avro_bytes(&bytes).unwrap().amount, widest);
    // Bytes of a 13-digit unscaled value are refused when read.
    let mut bytes = Vec::new();
    avdl2rs::codec::write_bytes(
        &mut bytes,
        Decimal::from_i128(1_000_000_000_000, 2).unscaled_bytes(),
    );
    bytes.push(0);
    let error = Price::from_avro_bytes(&bytes).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            DecodeErrorKind::InvalidLogicalValue {
                logical_type: "decimal",
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(error.path(), "amount");
}

#[test]
fn json_sees_the_decimal_string() {
    let value = Price {
        amount: Decimal::from_i128(1234, 2),
        discount: Some(Decimal::from_i128(5, 1)),
    };
    let json = serde_json::to_string(&value).unwrap();
    // Written at the schema's scale: 0.5 as 0.50.
    assert_eq!(json, r#"{"amount":"12.34","discount":"0.50"}"#);
    // The string "12.34" used to be read as its UTF-8 bytes: 2112952860.68.
    let back: Price = serde_json::from_str(r#"{"amount":"12.34","discount":null}"#).unwrap();
    assert_eq!(back.amount, Decimal::from_i128(1234, 2));
    assert_eq!(
        serde_json::from_str::<Price>(&json).unwrap().discount,
        Some(Decimal::from_i128(50, 2))
    );
    // Text that does not fit the schema is an error, not a rounding.
    assert!(serde_json::from_str::<Price>(r#"{"amount":"1.234","discount":null}"#).is_err());
    // The bare type: its text.
    assert_eq!(
        serde_json::to_string(&Decimal::from_i128(-5, 3)).unwrap(),
        r#""-0.005""#
    );
}

#[test]
fn apache_avro_to_value_resolves_and_reads_back() {
    let value = Price {
        amount: Decimal::from_i128(1234, 2),
        discount: Some(Decimal::from_i128(-1, 0)),
    };
    let schema = apache_schema();
    // This failed with "Precision 12 too small" while the shortest bytes were written.
    let avro = apache_avro::to_value(&value)
        .unwrap()
        .resolve(&schema)
        .unwrap();
    let bytes = apache_avro::writer::datum::GenericDatumWriter::builder(&schema)
        .build()
        .unwrap()
        .write_value_to_vec(avro.clone())
        .unwrap();
    assert_eq!(Price::from_avro_bytes(&bytes).unwrap(), {
        Price {
            discount: Some(Decimal::from_i128(-100, 2)),
            ..value
        }
    });
    assert_eq!(
        apache_avro::from_value::<Price>(&avro).unwrap().amount,
        Decimal::from_i128(1234, 2)
    );
}

#[test]
fn decimals_parse_display_and_debug_as_numbers() {
    let parse = |text: &str| text.parse::<Decimal>().unwrap();
    assert_eq!(parse("12.50"), Decimal::from_i128(1250, 2));
    assert_eq!(parse("-0.005"), Decimal::from_i128(-5, 3));
    assert_eq!(parse("+7"), Decimal::from_i128(7, 0));
    assert_eq!(parse("1.5e3"), Decimal::from_i128(1500, 0));
    assert_eq!(parse("25E-4"), Decimal::from_i128(25, 4));
    assert_eq!(parse("-128"), Decimal::new(vec![0x80], 0));
    assert_eq!(parse(".5"), Decimal::from_i128(5, 1));
    let wide = "3402823669209384634633746074317682.11456";
    assert_eq!(parse(wide).to_string(), wide);
    for bad in ["", "-", "1.2.3", "1,5", "e5", "1e99999999", "0x10", " 1"] {
        assert!(bad.parse::<Decimal>().is_err(), "{bad:?}");
    }
    assert_eq!(format!("{:?}", parse("-12.50")), "Decimal(-12.50)");
    assert_eq!(parse("0.00").precision(), 1);
    assert_eq!(parse("-999.99").precision(), 5);
    // Every i64 at a few scales survives text and back.
    for unscaled in [
        0i128,
        1,
        -1,
        127,
        128,
        -129,
        i64::MAX.into(),
        i64::MIN.into(),
    ] {
        for scale in [0, 2, 19] {
            let value = Decimal::from_i128(unscaled, scale);
            assert_eq!(parse(&value.to_string()), value);
        }
    }
}
