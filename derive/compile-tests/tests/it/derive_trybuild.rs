//! Compile tests of `#[derive(Avro)]`: every unsupported shape fails with the errors recorded
//! beside it (`tests/trybuild/fail/*.stderr`, refreshed with `TRYBUILD=overwrite` and
//! reviewed). The supported shapes are the test targets of `tests/pass/`, each a crate that
//! must compile and run.

#[test]
fn derive_rejects_unsupported_shapes() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/trybuild/fail/*.rs");
}
