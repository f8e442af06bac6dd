use avdl2rs::{Avro, AvroOneOf};

mod v1 {
    #[derive(avdl2rs::Avro)]
    #[avro(namespace = "shop")]
    pub struct Created {
        pub id: i64,
    }
}

/// Another Rust type for the same Avro type `shop.Created`.
#[derive(Avro)]
#[avro(namespace = "shop")]
struct Created {
    id: i64,
    note: String,
}

#[derive(AvroOneOf)]
enum Event {
    Old(v1::Created),
    New(Created),
}

fn main() {}
