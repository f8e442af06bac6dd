use avdl2rs::{Avro, AvroOneOf};

#[derive(Avro)]
struct Created {
    id: i64,
}

#[derive(AvroOneOf)]
enum Event {
    Created(Created),
    Paid { id: i64 },
    Cancelled,
    Moved(Created, Created),
}

fn main() {}
