//! Generates each version of the order events into its own file of `OUT_DIR`: `orders_v1.rs`
//! and `orders_v2.rs`, one per service release.

fn main() {
    for version in ["v1", "v2"] {
        avdl2rs_codegen::Builder::new(format!("orders_{version}"))
            .input(format!("schemas/{version}"))
            .build()
            .unwrap();
    }
}
