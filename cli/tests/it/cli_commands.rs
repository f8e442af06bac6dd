//! What every `avdl2rs` subcommand shares, run as processes on the built binary: help with
//! examples and `-I/--include`, imports found through include directories, the same located
//! error for a bad file, exit code 1 or 2 and never a panic for any mistaken input; and the
//! `idl2schemata` files checked type by type against the reference cases by their Parsing
//! Canonical Form.

use crate::cli_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use avdl2rs::schema::{Schema, SchemaSet};
use cli_support::{path_str, run, stderr};

use avdl2rs_tests::{files_with_extension, idl_include_dirs, idl_reference_cases};

/// The subcommands `avdl2rs --help` lists.
fn subcommands() -> Vec<String> {
    let output = run(&["--help"], "");
    assert_eq!(output.status.code(), Some(0));
    let help = String::from_utf8(output.stdout).unwrap();
    let listed = help
        .split("Commands:")
        .nth(1)
        .expect("a Commands section")
        .lines()
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect();
    listed
}

/// The commands that read Avro data files rather than schemas, so have no include directories.
const DATA_FILE_COMMANDS: [&str; 7] = [
    "cat",
    "getschema",
    "getmeta",
    "count",
    "concat",
    "recodec",
    "repair",
];

/// The commands that read JSON schemas only, which import nothing.
const JSON_SCHEMA_COMMANDS: [&str; 1] = ["toidl"];

/// The commands that look at each IDL file on its own, never at its imports.
const ONE_FILE_COMMANDS: [&str; 1] = ["fmt"];

#[test]
fn every_subcommand_has_help_with_examples_and_include_directories() {
    let commands = subcommands();
    for expected in ["idl", "idl2schemata", "gen"] {
        assert!(commands.iter().any(|c| c == expected), "{commands:?}");
    }
    for command in &commands {
        let output = run(&[command, "--help"], "");
        assert_eq!(output.status.code(), Some(0), "{command}");
        let help = String::from_utf8(output.stdout).unwrap();
        assert!(help.contains("Example"), "{command}: {help}");
        let without_imports = DATA_FILE_COMMANDS
            .iter()
            .chain(&JSON_SCHEMA_COMMANDS)
            .chain(&ONE_FILE_COMMANDS);
        if !without_imports.into_iter().any(|c| c == command) {
            assert!(help.contains("-I, --include <DIR>"), "{command}: {help}");
        }
    }
}

/// A protocol importing `money.avdl`, which is only in the include directory.
fn importing_project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let shared = dir.path().join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::write(
        shared.join("money.avdl"),
        "@namespace(\"shop.common\")\nprotocol Common { record Money { long units; } }\n",
    )
    .unwrap();
    let main = dir.path().join("main.avdl");
    std::fs::write(
        &main,
        "@namespace(\"shop\")\nprotocol Shop {\n  import idl \"money.avdl\";\n  \
         record Order { shop.common.Money total; }\n}\n",
    )
    .unwrap();
    (dir, main, shared)
}

#[test]
fn imports_are_found_through_include_directories_in_every_command() {
    let (dir, main, shared) = importing_project();
    let out = dir.path().join("out");
    for command in ["idl", "idl2schemata", "gen"] {
        let mut args = vec![command, path_str(&main)];
        if command == "idl2schemata" {
            args.push(path_str(&out));
        }
        let without = run(&args, "");
        assert_eq!(without.status.code(), Some(1), "{command}");
        assert!(
            stderr(&without).contains("money.avdl"),
            "{command}: {}",
            stderr(&without)
        );

        let mut with = vec![command, "-I", path_str(&shared)];
        with.extend(&args[1..]);
        let output = run(&with, "");
        assert!(output.status.success(), "{command}: {}", stderr(&output));
    }
    assert!(out.join("Money.avsc").is_file() && out.join("Order.avsc").is_file());
}

#[test]
fn a_bad_file_gets_the_same_located_error_from_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.avdl");
    std::fs::write(
        &bad,
        "protocol P {\n  record R {\n    int x;\n    Nope y;\n  }\n}\n",
    )
    .unwrap();
    let located = format!("{}:4:5", bad.display());
    let out = dir.path().join("out");
    for args in [
        vec!["idl", path_str(&bad)],
        vec!["idl2schemata", path_str(&bad), path_str(&out)],
        vec!["gen", path_str(&bad)],
    ] {
        let output = run(&args, "");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let err = stderr(&output);
        assert!(err.contains(&located), "{args:?}: {err}");
        assert!(err.contains("Nope y;"), "{args:?} shows the line: {err}");
    }
    assert!(!out.exists(), "idl2schemata wrote output for a bad file");
}

#[test]
fn mistaken_input_never_panics() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("binary.avdl");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x80, b'{']).unwrap();
    let empty = dir.path().join("empty.avdl");
    std::fs::write(&empty, "").unwrap();
    let deep = dir.path().join("deep.avdl");
    std::fs::write(
        &deep,
        "protocol P { record R { ".to_string() + &"array<".repeat(5000),
    )
    .unwrap();
    let json = dir.path().join("bad.avsc");
    std::fs::write(
        &json,
        r#"{"type": "record", "name": "R", "fields": [{"name": 1}]}"#,
    )
    .unwrap();
    let unknown = dir.path().join("schema.txt");
    std::fs::write(&unknown, "record").unwrap();
    let missing = dir.path().join("missing.avdl");
    let inputs = [&binary, &empty, &deep, &missing, &dir.path().to_path_buf()];
    let out = dir.path().join("out");
    let mut cases: Vec<Vec<&str>> = Vec::new();
    for input in inputs {
        cases.push(vec!["idl", path_str(input)]);
        cases.push(vec!["idl2schemata", path_str(input), path_str(&out)]);
        cases.push(vec!["gen", path_str(input)]);
    }
    cases.push(vec!["gen", path_str(&json)]);
    cases.push(vec!["gen", path_str(&unknown)]);
    cases.push(vec!["gen", "-"]);
    cases.push(vec!["idl", "-"]);
    for args in &cases {
        let output = run(args, "\u{0}garbage");
        let err = stderr(&output);
        assert!(
            matches!(output.status.code(), Some(1 | 2)),
            "{args:?}: {:?} {err}",
            output.status.code()
        );
        assert!(!err.trim().is_empty(), "{args:?}: no message");
        assert!(
            !err.contains("panicked") && !err.contains("stack backtrace"),
            "{args:?}: {err}"
        );
    }
}

/// The Parsing Canonical Form of every named type in a protocol or schema file, by simple
/// name (several types may share one).
fn canonical_forms(file: &Path) -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut set = SchemaSet::new();
    if file.extension().is_some_and(|e| e == "avpr") {
        set.parse_protocol(&text).unwrap();
    } else {
        set.parse_str(&text).unwrap();
    }
    let mut forms: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for named in set.iter() {
        let form = set.canonical_form(&Schema::named(named.name.clone()));
        forms.entry(named.name.name.clone()).or_default().push(form);
    }
    forms
}

/// The Parsing Canonical Form of one `.avsc` file's schema.
fn canonical_form_of(file: &Path) -> String {
    let mut set = SchemaSet::new();
    let schema = set
        .parse_str(&std::fs::read_to_string(file).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    set.canonical_form(&schema)
}

#[test]
fn idl2schemata_files_have_the_canonical_form_of_the_reference_types() {
    let cases = idl_reference_cases();
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for (input, expected) in cases {
        let out = tempfile::tempdir().unwrap();
        let [input_dir, classpath] = idl_include_dirs(&input);
        let output = run(
            &[
                "idl2schemata",
                "-I",
                path_str(&input_dir),
                "-I",
                path_str(&classpath),
                path_str(&input),
                path_str(out.path()),
            ],
            "",
        );
        if !output.status.success() {
            failures.push(format!("{}: {}", input.display(), stderr(&output)));
            continue;
        }
        let is_protocol = expected.extension().is_some_and(|e| e == "avpr");
        let mut forms = canonical_forms(&expected);
        for file in files_with_extension(out.path(), "avsc") {
            let name = file.file_stem().unwrap().to_string_lossy().into_owned();
            let Some(candidates) = forms.remove(&name) else {
                if is_protocol {
                    failures.push(format!("{}: unexpected {name}.avsc", input.display()));
                }
                continue;
            };
            let actual = canonical_form_of(&file);
            if !candidates.contains(&actual) {
                failures.push(format!(
                    "{}: {name}.avsc is {actual}, expected one of {candidates:?}",
                    input.display()
                ));
            }
        }
        for missing in forms.keys() {
            failures.push(format!("{}: no {missing}.avsc", input.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
