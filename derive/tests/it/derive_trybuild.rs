//! Compile tests of `#[derive(Avro)]`: every supported shape compiles (`tests/trybuild/pass`),
//! every unsupported one fails with the errors recorded beside it
//! (`tests/trybuild/fail/*.stderr`, refreshed with `TRYBUILD=overwrite` and reviewed).

#[test]
fn derive_compiles_supported_shapes_and_rejects_the_others() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/trybuild/pass/*.rs");
    cases.compile_fail("tests/trybuild/fail/*.rs");
}
