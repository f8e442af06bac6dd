//! Types generated from Avro's interop schema (`schemas/interop.avsc` of the conformance
//! folder), for the container-file tests in `tests/` that exchange files with Python `avro`
//! and JavaScript `avsc`.

/// The generated types (`org.apache.avro.Interop` and the types it uses).
pub mod schema {
    avdl2rs::include_generated!("interop");
}
