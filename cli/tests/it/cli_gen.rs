//! `avdl2rs gen` run as a process: the code it prints is the code the library generates,
//! an IDL file gives the same code as its reference `.avpr`, `-` reads stdin, `-o` writes a
//! file or a module tree, the flags reach the generator, and failures exit 1 (located error)
//! or 2 (usage).

use crate::cli_support;

use std::path::{Path, PathBuf};

use avdl2rs_codegen::{Generator, MapType, Options, TimeCrate};
use cli_support::{path_str, run, stderr};

use avdl2rs_tests::{conformance_files, idl_include_dirs, idl_reference_cases, workspace_root};

/// The stdout of a successful run.
fn stdout_of(args: &[&str]) -> String {
    let output = run(args, "");
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    String::from_utf8(output.stdout).unwrap()
}

/// What the library generates for `file` with `options`.
fn library(file: &Path, options: Options, include_dirs: &[PathBuf]) -> String {
    let mut generator = Generator::new(options);
    generator.add_file(file, include_dirs).unwrap();
    generator.generate().unwrap()
}

fn orders_avdl() -> PathBuf {
    workspace_root().join("examples/orders/schemas/orders.avdl")
}

#[test]
fn prints_what_the_library_generates_for_every_reference_schema() {
    let files = conformance_files("schemas", &["avsc", "avpr"]);
    assert!(!files.is_empty());
    for file in files {
        let printed = stdout_of(&["gen", path_str(&file)]);
        assert_eq!(
            printed,
            library(&file, Options::default(), &[]),
            "{}",
            file.display()
        );
    }
}

#[test]
fn an_idl_file_gives_the_code_of_its_reference_json() {
    let mut compared = 0;
    let mut failures = Vec::new();
    for (input, expected) in idl_reference_cases() {
        let classpath = &idl_include_dirs(&input)[1];
        let from_idl = run(&["gen", "-I", path_str(classpath), path_str(&input)], "");
        let from_json = stdout_of(&["gen", path_str(&expected)]);
        compared += 1;
        if from_idl.stdout != from_json.as_bytes() {
            failures.push(format!(
                "{}: differs from the code of {} ({})",
                input.display(),
                expected.display(),
                stderr(&from_idl)
            ));
        }
    }
    assert!(compared > 0, "no IDL case with a reference output");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn dash_reads_idl_or_json_from_stdin() {
    let expected = stdout_of(&["gen", path_str(&orders_avdl())]);
    let idl = std::fs::read_to_string(orders_avdl()).unwrap();
    let output = run(&["gen", "-", "-o", "-"], &idl);
    assert!(output.status.success());
    assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);

    let json = stdout_of(&["idl", path_str(&orders_avdl())]);
    let output = run(&["gen", "-"], &json);
    assert!(output.status.success());
    assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
}

#[test]
fn output_goes_to_a_file_or_a_module_tree() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("orders.rs");
    let output = run(
        &["gen", path_str(&orders_avdl()), "-o", path_str(&file)],
        "",
    );
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
    let expected = library(&orders_avdl(), Options::default(), &[]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), expected);

    let tree = dir.path().join("generated/");
    let output = run(
        &["gen", path_str(&orders_avdl()), "-o", path_str(&tree)],
        "",
    );
    assert!(output.status.success());
    let root = std::fs::read_to_string(tree.join("mod.rs")).unwrap();
    assert!(root.contains(r#"include!("com.rs")"#), "{root}");
    let leaf = std::fs::read_to_string(tree.join("com/example/orders.rs")).unwrap();
    assert!(leaf.contains("pub struct OrderEvent"), "{leaf}");
}

#[test]
fn flags_select_the_generator_options() {
    let options = Options::default()
        .map_type(MapType::BTreeMap)
        .time_crate(TimeCrate::Time)
        .flat_modules(true)
        .extra_derive("PartialOrd")
        .apache_avro_schema(true)
        .runtime_path("crate::rt");
    let printed = stdout_of(&[
        "gen",
        path_str(&orders_avdl()),
        "--map-type",
        "btree-map",
        "--time-crate",
        "time",
        "--flat-modules",
        "--derive",
        "PartialOrd",
        "--apache-avro",
        "--runtime-path",
        "crate::rt",
    ]);
    assert_eq!(printed, library(&orders_avdl(), options, &[]));
    assert_ne!(printed, library(&orders_avdl(), Options::default(), &[]));
}

#[test]
fn extern_paths_take_types_from_elsewhere() {
    let options =
        Options::default().extern_path("com.example.orders", "::shared::com::example::orders");
    let printed = stdout_of(&[
        "gen",
        path_str(&orders_avdl()),
        "--extern-path",
        "com.example.orders=::shared::com::example::orders",
    ]);
    assert_eq!(printed, library(&orders_avdl(), options, &[]));
    assert!(!printed.contains("pub struct OrderEvent"), "{printed}");
    assert!(
        printed.contains("< ::shared::com::example::orders::OrderEvent as ::avdl2rs::AvroSchema >"),
        "{printed}"
    );
    // The check compares with the fingerprint the type has when generated from the same
    // file (the orders example crate's build does that).
    let fingerprint = <orders::OrderEvent as avdl2rs::AvroSchema>::FINGERPRINT;
    assert!(
        printed.contains(&format!("::FINGERPRINT == {fingerprint}u64")),
        "{printed}"
    );
}

#[test]
fn one_of_flags_add_enums_with_or_without_a_catch_all() {
    let options = Options::default()
        .one_of(
            "com.example.orders.Events",
            ["com.example.orders.OrderEvent"],
        )
        .one_of_with_other("AnyEvent", ["com.example.orders.OrderEvent"]);
    let printed = stdout_of(&[
        "gen",
        path_str(&orders_avdl()),
        "--one-of",
        "com.example.orders.Events=com.example.orders.OrderEvent",
        "--one-of",
        "AnyEvent=com.example.orders.OrderEvent,*",
    ]);
    assert_eq!(printed, library(&orders_avdl(), options, &[]));
    assert!(printed.contains("pub enum Events {"), "{printed}");
    assert!(
        printed.contains("Other(::avdl2rs::generic::GenericRecord)"),
        "{printed}"
    );
}

#[test]
fn a_one_of_of_no_named_type_exits_1_and_a_malformed_one_exits_2() {
    let output = run(
        &[
            "gen",
            path_str(&orders_avdl()),
            "--one-of",
            "E=com.example.orders.Nope",
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        stderr(&output).trim_end(),
        "error: invalid option: one-of enum `E`: `com.example.orders.Nope` is no named type of the schemas"
    );
    for value in ["E", "E=", "=a.B", "E=*,a.B", "E=a.B,,c.D"] {
        let output = run(&["gen", path_str(&orders_avdl()), "--one-of", value], "");
        assert_eq!(output.status.code(), Some(2), "{value}");
        assert!(stderr(&output).contains("--one-of"), "{value}");
    }
}

#[test]
fn include_directories_resolve_imports() {
    let dir = tempfile::tempdir().unwrap();
    let main = dir.path().join("main.avdl");
    std::fs::write(
        &main,
        "@namespace(\"com.example.refunds\")\nprotocol Refunds {\n  import idl \"orders.avdl\";\n  \
         record Refund { com.example.orders.OrderEvent order; }\n}\n",
    )
    .unwrap();
    let without = run(&["gen", path_str(&main)], "");
    assert_eq!(without.status.code(), Some(1));
    let schemas = orders_avdl().parent().unwrap().to_path_buf();
    let printed = stdout_of(&["gen", "--include", path_str(&schemas), path_str(&main)]);
    assert!(printed.contains("pub struct Refund"), "{printed}");
    assert!(printed.contains("pub struct OrderEvent"), "{printed}");
}

#[test]
fn invalid_input_exits_1_with_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.avdl");
    std::fs::write(&bad, "protocol P {\n  record R {\n    int x\n  }\n}\n").unwrap();
    let output = run(&["gen", path_str(&bad)], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let err = stderr(&output);
    assert!(
        err.contains(&format!(" --> {}:3:10\n", bad.display())),
        "{err}"
    );
    assert!(err.contains("3 |     int x"), "the snippet is shown: {err}");

    let bad_json = dir.path().join("bad.avsc");
    std::fs::write(&bad_json, r#"{"type": "record", "name": "R", "fields": 3}"#).unwrap();
    let missing = dir.path().join("missing.avdl");
    for args in [
        vec!["gen", path_str(&bad_json)],
        vec!["gen", path_str(&missing)],
        vec!["gen", "-"],
    ] {
        let output = run(&args, "protocol P { record R { Nope n; } }");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let err = stderr(&output);
        assert!(
            !err.is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["gen"][..],
        &["gen", "x.avdl", "--map-type", "vec"][..],
        &["gen", "x.avdl", "--no-such-flag"][..],
        &["gen", "x.avdl", "-o"][..],
    ] {
        let output = run(args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(!output.stderr.is_empty());
    }
}

#[test]
fn help_shows_examples_and_every_flag() {
    let help = stdout_of(&["gen", "--help"]);
    for flag in [
        "Examples:",
        "--include",
        "--output",
        "--map-type",
        "--time-crate",
        "--flat-modules",
        "--derive",
        "--apache-avro",
        "--runtime-path",
        "--one-of",
    ] {
        assert!(help.contains(flag), "{flag} missing from:\n{help}");
    }
}
