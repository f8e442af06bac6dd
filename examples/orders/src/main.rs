//! `cargo run -p orders [SCHEMA_ID]`: frames a sample order for Kafka, prints the bytes,
//! reads them back and prints the subject names of its schema.

use std::process::ExitCode;

fn main() -> ExitCode {
    let schema_id = match std::env::args().nth(1).map(|a| a.parse::<i32>()) {
        None => 1,
        Some(Ok(id)) => id,
        Some(Err(e)) => {
            eprintln!("error: the schema id must be an i32: {e}");
            return ExitCode::from(2);
        }
    };
    let order = orders::sample_order();
    let message = orders::frame(&order, schema_id);
    println!("encoded (schema id {schema_id}): {}", orders::hex(&message));
    match orders::unframe(&orders::consumer(schema_id), &message) {
        Ok((id, decoded)) => println!("decoded (schema id {id}): {decoded:?}"),
        Err(e) => {
            eprintln!("error: cannot decode the message: {e}");
            return ExitCode::FAILURE;
        }
    }
    for (strategy, subject) in orders::subjects() {
        println!("{strategy}: {subject}");
    }
    ExitCode::SUCCESS
}
