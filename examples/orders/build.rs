//! Generates the Rust types of `schemas/` into `OUT_DIR/orders.rs` on every build that
//! changes a schema.

fn main() {
    avdl2rs_codegen::Builder::new("orders")
        .input("schemas")
        .build()
        .unwrap();
}
