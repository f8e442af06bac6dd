//! The reviewed snapshots of `tests/snapshots/`, compiled as generated code for the tests
//! that use generated types beside hand-written or hostile input.
#![allow(dead_code)]

pub mod namespaces {
    include!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/snapshots/namespaces.rs"
    ));
}

pub mod recursion {
    include!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/snapshots/recursion.rs"
    ));
}

pub mod unions {
    include!(concat!(env!("CARGO_MANIFEST_DIR"), "/snapshots/unions.rs"));
}
