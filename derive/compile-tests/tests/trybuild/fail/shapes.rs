use avdl2rs::Avro;

#[derive(Avro)]
struct Tuple(i32, String);

#[derive(Avro)]
struct Unit;

#[derive(Avro)]
struct Generic<T> {
    value: T,
}

#[derive(Avro)]
enum Mixed {
    A,
    B(i32),
    C { x: i32 },
}

#[derive(Avro)]
enum Empty {}

fn main() {}
