//! Generates the current order events into `OUT_DIR/order_events.rs` and the first release's
//! `OrderPaid` into `OUT_DIR/order_paid_v1.rs`.

fn main() {
    avdl2rs_codegen::Builder::new("order_events")
        .input("schemas/order_events.avdl")
        .build()
        .unwrap();
    avdl2rs_codegen::Builder::new("order_paid_v1")
        .input("schemas/v1")
        .build()
        .unwrap();
}
