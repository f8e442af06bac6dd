use avdl2rs::Avro;

#[derive(Avro)]
enum SameType {
    First(i32),
    Second(i32),
}

#[derive(Avro)]
enum OptionalBranch {
    Maybe(Option<String>),
    Count(i64),
}

#[derive(Avro)]
enum Recursive {
    Leaf(i32),
    List(Vec<Recursive>),
}

#[derive(Avro)]
struct OptionalUnion {
    maybe: Option<SameTypeFree>,
}

#[derive(Avro)]
enum SameTypeFree {
    Number(i64),
    Text(String),
}

fn main() {}
