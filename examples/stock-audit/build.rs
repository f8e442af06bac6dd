//! Generates the audit types; the envelope `com.example.shared` they import is the warehouse
//! crate's, so both services share one `BusinessEvent` type.

use avdl2rs_codegen::{Builder, Options};

fn main() {
    Builder::new("audit")
        .input("schemas/audit.avdl")
        .include_dir("../warehouse/schemas/shared")
        .options(Options::default().extern_path(
            "com.example.shared",
            "::warehouse::schema::com::example::shared",
        ))
        .build()
        .unwrap();
}
