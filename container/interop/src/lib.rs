//! Types generated from Avro's interop schema (`schemas/interop.avsc` of the conformance
//! folder), and the helpers of the container-file tests that exchange files with Python `avro`
//! and JavaScript `avsc` (this crate's `tests/`, and the CLI's tests of `avdl2rs cat`).

/// The generated types (`org.apache.avro.Interop` and the types it uses).
pub mod schema {
    avdl2rs::include_generated!("interop");
}

pub mod support;
