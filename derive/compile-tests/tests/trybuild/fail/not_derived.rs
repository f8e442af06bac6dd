use avdl2rs::Avro;

struct Plain {
    value: i32,
}

#[derive(Avro)]
struct Holder {
    plain: Plain,
}

fn main() {}
