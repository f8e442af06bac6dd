//! The example's message bytes, checked against the Avro specification's binary encoding
//! written out by hand, and its subject names against the Schema Registry's strategies.

use orders::{consumer, frame, sample_order, subjects, unframe, OrderEvent};

/// `sample_order()` framed with schema id 1, byte by byte.
const EXPECTED: &[u8] = &[
    0x00, // Confluent magic byte
    0x00, 0x00, 0x00, 0x01, // schema id 1, big-endian
    0x54, // id: int 42, zig-zag 84
    0x00, 0x00, 0x00, 0x00, 0x00, 0xe0, 0x58, 0x40, // amount: double 99.5, little-endian
    0x0e, // user_id: int 7, zig-zag 14
    0x06, b'C', b'N', b'Y', // currency: length 3 (zig-zag 6), then the UTF-8 bytes
    0x02, // discount: union branch 1 (double), zig-zag 2
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x14, 0x40, // double 5.0
];

#[test]
fn the_framed_order_is_the_specified_bytes() {
    assert_eq!(frame(&sample_order(), 1), EXPECTED);
    assert_eq!(
        orders::hex(&frame(&sample_order(), 1)),
        "0000000001540000000000e058400e06434e59020000000000001440"
    );
}

#[test]
fn the_message_decodes_back_with_its_schema_id() {
    let message = frame(&sample_order(), 0x0102_0304);
    assert_eq!(&message[1..5], &[1, 2, 3, 4]);
    assert_eq!(
        unframe(&consumer(0x0102_0304), &message).unwrap(),
        (0x0102_0304, sample_order())
    );

    let no_discount = OrderEvent {
        discount: None,
        ..sample_order()
    };
    let message = frame(&no_discount, 9);
    assert_eq!(message.last(), Some(&0x00), "union branch 0 is null");
    assert_eq!(unframe(&consumer(9), &message).unwrap(), (9, no_discount));
    // An id the registry does not know is refused, not read as if it were this schema.
    assert!(unframe(&consumer(8), &message).is_err());
}

#[test]
fn a_message_without_the_magic_byte_is_rejected() {
    let mut message = frame(&sample_order(), 1);
    message[0] = 1;
    assert!(unframe(&consumer(1), &message).is_err());
    assert!(unframe(&consumer(1), &message[..3]).is_err());
}

#[test]
fn subjects_follow_the_three_strategies() {
    let subjects = subjects();
    assert_eq!(subjects[0].1, "orders-value");
    assert_eq!(subjects[1].1, "com.example.orders.OrderEvent");
    assert_eq!(subjects[2].1, "orders-com.example.orders.OrderEvent");
}

#[test]
fn the_binary_prints_the_hex_and_the_decoded_order() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_orders"))
        .arg("1")
        .output()
        .unwrap();
    assert!(output.status.success());
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        stdout.contains(&format!("encoded (schema id 1): {}", orders::hex(EXPECTED))),
        "{stdout}"
    );
    assert!(
        stdout.contains("decoded (schema id 1): OrderEvent {"),
        "{stdout}"
    );
    assert!(stdout.contains("TopicRecordNameStrategy: orders-com.example.orders.OrderEvent"));
}
