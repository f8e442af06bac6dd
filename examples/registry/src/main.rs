//! Registers the orders schema with the registry named by `AVDL2RS_SCHEMA_REGISTRY_URL`,
//! produces framed order events and consumes them into the generated type.

use registry_example::{config_from_env, produce_and_consume};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let config = match config_from_env() {
        Ok(config) => config,
        Err(e) => {
            eprintln!("{e}: start a registry and set it (see the README)");
            std::process::exit(2);
        }
    };
    let run = produce_and_consume(config, "orders")?;
    println!("subject orders-value, schema id {}", run.schema_id);
    for (frame, order) in run.frames.iter().zip(&run.consumed) {
        let hex: String = frame.iter().map(|b| format!("{b:02x}")).collect();
        println!("{hex} -> {order:?}");
    }
    Ok(())
}
