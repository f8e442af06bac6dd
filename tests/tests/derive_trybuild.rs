//! Compile tests of `#[derive(Avro)]`: every supported shape compiles (`trybuild/pass`), every
//! unsupported one fails with the errors recorded beside it (`trybuild/fail/*.stderr`,
//! refreshed with `TRYBUILD=overwrite` and reviewed).

#[test]
fn derive_compiles_supported_shapes_and_rejects_the_others() {
    let cases = trybuild::TestCases::new();
    cases.pass("trybuild/pass/*.rs");
    cases.compile_fail("trybuild/fail/*.rs");
}
