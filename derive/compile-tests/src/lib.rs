//! Nothing but a package for the compile tests of `#[derive(Avro)]` (`tests/`): the shapes
//! the derive supports compile and run (`tests/pass/`), the others fail to compile with the
//! errors recorded beside them (`tests/trybuild/fail/`).
