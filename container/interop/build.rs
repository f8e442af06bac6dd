//! Generates the types of the conformance folder's `schemas/interop.avsc`, the schema Avro's
//! own interop tests exchange files with, into `OUT_DIR/interop/`.

fn main() {
    println!("cargo:rerun-if-env-changed=AVDL2RS_CONFORMANCE");
    let schema = avdl2rs_tests::conformance_dir().join("schemas/interop.avsc");
    avdl2rs_codegen::Builder::new("interop")
        .input(schema)
        .build()
        .unwrap();
}
