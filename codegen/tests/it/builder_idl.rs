//! IDL inputs: imports are followed, listed among the files read (for
//! `cargo:rerun-if-changed`), and found through include directories.

use crate::builder_support;

use builder_support::{fixture, scratch_dir};

use avdl2rs_codegen::Builder;

#[test]
fn imported_files_are_read_and_their_types_generated() {
    let out = scratch_dir("idl_import");
    let built = Builder::new("orders")
        .input(fixture("idl/orders.avdl"))
        .out_dir(&out)
        .cargo_instructions(false)
        .build()
        .unwrap();
    assert_eq!(built.files_read[0], fixture("idl/orders.avdl"));
    assert!(
        built
            .files_read
            .iter()
            .any(|f| f.ends_with("builder_fixtures/idl/common.avdl")),
        "{:?}",
        built.files_read
    );
    let names: Vec<_> = built.types.iter().map(|t| t.full_name.as_str()).collect();
    assert!(names.contains(&"shop.common.Money"), "{names:?}");
    assert!(names.contains(&"shop.orders.Order"), "{names:?}");
}

#[test]
fn imports_not_beside_the_file_are_found_in_include_directories() {
    let work = scratch_dir("idl_include_dirs");
    let main = work.join("main.avdl");
    std::fs::write(
        &main,
        "@namespace(\"shop.orders\")\nprotocol Main {\n  import idl \"common.avdl\";\n  \
         record Refund { shop.common.Money amount; }\n}\n",
    )
    .unwrap();
    let mut builder = Builder::new("main");
    builder
        .input(&main)
        .out_dir(&work)
        .cargo_instructions(false);
    let without = builder.build().unwrap_err().to_string();
    assert!(without.contains("common.avdl"), "{without}");

    let built = builder.include_dir(fixture("idl")).build().unwrap();
    assert!(built
        .files_read
        .iter()
        .any(|f| f.ends_with("builder_fixtures/idl/common.avdl")));
    let text = std::fs::read_to_string(work.join("main.rs")).unwrap();
    assert!(text.contains("pub struct Refund"), "{text}");
    assert!(text.contains("pub struct Money"), "{text}");
}
