//! `cargo run -p warehouse`: encodes a stock movement, decodes it and prints both, with the
//! schema facts of the event type.

use avdl2rs::{Avro, AvroSchema};
use warehouse::StockMoved;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let now = avdl2rs::chrono::DateTime::from(std::time::SystemTime::now());
    let movement = warehouse::sample_movement(now);
    let body = movement.to_avro_bytes()?;
    println!(
        "{} ({} bytes of Avro binary)",
        StockMoved::FULL_NAME,
        body.len()
    );
    println!(
        "fingerprint (CRC-64-AVRO): {:016x}",
        StockMoved::FINGERPRINT
    );
    let decoded = StockMoved::from_avro_bytes(&body)?;
    println!("decoded: {decoded:#?}");
    Ok(())
}
