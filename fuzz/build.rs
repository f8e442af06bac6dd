//! Generates the fuzzed types from the codegen snapshot inputs: recursion through options,
//! arrays, maps, mutual references and unions, and unions of every kind.

fn main() {
    avdl2rs_codegen::Builder::new("fuzzed")
        .input("../tests/snapshots/recursion.avsc")
        .input("../tests/snapshots/unions.avsc")
        .build()
        .unwrap();
}
