//! Generates the order types from the orders example's schema.

fn main() {
    avdl2rs_codegen::Builder::new("orders")
        .input("../orders/schemas")
        .build()
        .unwrap();
}
