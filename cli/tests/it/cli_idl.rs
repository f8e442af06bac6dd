//! The `avdl2rs idl` and `idl2schemata` commands, run as processes on the freshly built binary:
//! outputs equal the reference cases, `-` means stdin/stdout, and the exit codes are 0 (ok),
//! 1 (invalid input, located error on stderr) and 2 (usage).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::cli_support::cli_binary;
use avdl2rs_tests::{files_with_extension, idl_include_dirs, idl_reference_cases, json_diff};
use serde_json::Value;

/// Runs the binary with `args` and `stdin`.
fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(cli_binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("avdl2rs starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The reference cases: input file and expected JSON.
fn cases() -> Vec<(PathBuf, Value)> {
    idl_reference_cases()
        .into_iter()
        .map(|(input, expected)| {
            let json = serde_json::from_str(&std::fs::read_to_string(expected).unwrap()).unwrap();
            (input, json)
        })
        .collect()
}

/// The include options for the reference case `input`.
fn include_args(input: &Path) -> [String; 4] {
    let [input_dir, classpath] = idl_include_dirs(input);
    [
        "-I".into(),
        input_dir.display().to_string(),
        "--include".into(),
        classpath.display().to_string(),
    ]
}

#[test]
fn idl_prints_the_reference_json_of_every_case() {
    let mut failures = Vec::new();
    let cases = cases();
    assert!(!cases.is_empty());
    for (input, expected) in &cases {
        let includes = include_args(input);
        let mut args: Vec<&str> = vec!["idl"];
        args.extend(includes.iter().map(String::as_str));
        args.push(input.to_str().unwrap());
        let output = run(&args, "");
        if !output.status.success() {
            failures.push(format!(
                "{}: exit {:?}: {}",
                input.display(),
                output.status.code(),
                stderr(&output)
            ));
            continue;
        }
        let actual: Value = serde_json::from_slice(&output.stdout).expect("stdout is JSON");
        let diff = json_diff(expected, &actual);
        if !diff.is_empty() {
            failures.push(format!("{}:\n    {}", input.display(), diff.join("\n    ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn idl_writes_to_a_named_output_file() {
    let (input, expected) = cases().into_iter().next().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let includes = include_args(&input);
    let mut args: Vec<&str> = vec!["idl"];
    args.extend(includes.iter().map(String::as_str));
    args.extend([input.to_str().unwrap(), out.to_str().unwrap()]);
    let output = run(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(written, expected);
}

#[test]
fn dash_reads_stdin_and_writes_stdout() {
    let (input, expected) = cases()
        .into_iter()
        .find(|(input, _)| !std::fs::read_to_string(input).unwrap().contains("import "))
        .expect("a case without imports");
    let text = std::fs::read_to_string(&input).unwrap();
    for args in [vec!["idl", "-", "-"], vec!["idl"]] {
        let output = run(&args, &text);
        assert!(output.status.success(), "{}", stderr(&output));
        let actual: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(actual, expected, "{} via stdin", input.display());
    }
    // Imports from stdin are found in the include directories.
    let imports = "protocol P { import schema \"foo.avsc\"; record R { org.foo.Foo f; } }";
    let includes = include_args(&input);
    let mut args = vec!["idl"];
    args.extend(includes.iter().map(String::as_str));
    let output = run(&args, imports);
    assert!(output.status.success(), "{}", stderr(&output));
}

/// Every named definition in a JSON protocol or schema, by full name.
fn named_definitions(value: &Value, namespace: Option<&str>, out: &mut BTreeMap<String, Value>) {
    match value {
        Value::Array(items) => items
            .iter()
            .for_each(|v| named_definitions(v, namespace, out)),
        Value::Object(obj) => {
            let ns = match obj.get("namespace").and_then(Value::as_str) {
                Some("") => None,
                Some(ns) => Some(ns),
                None => namespace,
            };
            let kind = obj.get("type").and_then(Value::as_str).unwrap_or("");
            let is_named = ["record", "error", "enum", "fixed"].contains(&kind);
            if let (true, Some(name)) = (is_named, obj.get("name").and_then(Value::as_str)) {
                let full = match ns {
                    Some(ns) if !name.contains('.') => format!("{ns}.{name}"),
                    _ => name.to_owned(),
                };
                out.insert(full, value.clone());
            }
            for v in obj.values() {
                named_definitions(v, ns, out);
            }
        }
        _ => {}
    }
}

/// The parts of a definition that do not depend on where it is written.
fn shape(definition: &Value) -> Value {
    let field_names: Vec<Value> = definition["fields"]
        .as_array()
        .map(|f| f.iter().map(|f| f["name"].clone()).collect())
        .unwrap_or_default();
    serde_json::json!({
        "type": definition["type"], "name": definition["name"], "symbols": definition["symbols"],
        "size": definition["size"], "fields": field_names,
    })
}

#[test]
fn idl2schemata_writes_one_schema_per_named_type_of_every_case() {
    let mut failures = Vec::new();
    for (input, expected) in cases() {
        let includes = include_args(&input);
        let mut definitions = BTreeMap::new();
        let protocol_ns = expected.get("namespace").and_then(Value::as_str);
        named_definitions(&expected, protocol_ns, &mut definitions);
        let out = tempfile::tempdir().unwrap();
        let mut args: Vec<&str> = vec!["idl2schemata"];
        args.extend(includes.iter().map(String::as_str));
        args.extend([input.to_str().unwrap(), out.path().to_str().unwrap()]);
        let output = run(&args, "");
        if !output.status.success() {
            failures.push(format!("{}: {}", input.display(), stderr(&output)));
            continue;
        }
        let expected_files: Vec<String> = definitions
            .keys()
            .map(|full| format!("{}.avsc", full.rsplit('.').next().unwrap()))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        let written: Vec<String> = files_with_extension(out.path(), "avsc")
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        if expected.get("protocol").is_some() && written != expected_files {
            failures.push(format!(
                "{}: wrote {written:?}, expected {expected_files:?}",
                input.display()
            ));
            continue;
        }
        for file in files_with_extension(out.path(), "avsc") {
            let schema: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let ns = schema
                .get("namespace")
                .and_then(Value::as_str)
                .filter(|ns| !ns.is_empty());
            let name = schema["name"].as_str().unwrap_or_default();
            let full = ns.map_or(name.to_owned(), |ns| format!("{ns}.{name}"));
            match definitions.get(&full) {
                Some(definition) if shape(definition) == shape(&schema) => {}
                Some(definition) => failures.push(format!(
                    "{}: {full}: {schema} vs {definition}",
                    input.display()
                )),
                None => failures.push(format!("{}: unexpected type {full}", input.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_error_on_a_very_long_line_shows_only_a_window_of_it() {
    // A minified schema is one line of any length; the snippet shows the part around the error.
    let dir = tempfile::tempdir().unwrap();
    let fields: Vec<String> = (0..2000)
        .map(|i| format!(r#"{{"name":"f{i}","type":"int"}}"#))
        .collect();
    let schema = format!(
        r#"{{"type":"record","name":"Big","fields":[{},{{"name":"last","type":"int"}},]}}"#,
        fields.join(",")
    );
    std::fs::write(dir.path().join("big.avsc"), &schema).unwrap();
    let main = dir.path().join("main.avdl");
    std::fs::write(&main, "protocol P {\n  import schema \"big.avsc\";\n}\n").unwrap();
    let output = run(&["idl", main.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    let column = schema.rfind(']').unwrap() + 1;
    assert!(err.contains(&format!("big.avsc:1:{column}\n")), "{err}");
    assert!(err.contains(r#"{"name":"last","type":"int"},]}"#), "{err}");
    assert!(err.len() < 1000, "{} bytes of error output", err.len());
}

#[test]
fn invalid_input_exits_1_with_the_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.avdl");
    std::fs::write(&bad, "protocol P {\n  record R {\n    int x\n  }\n}\n").unwrap();
    let output = run(&["idl", bad.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let err = stderr(&output);
    assert!(
        err.starts_with(&format!(
            "error: expected `,`, `;` or `=`, found `}}`\n --> {}:3:10\n",
            bad.display()
        )),
        "{err}"
    );
    assert!(err.contains("    int x"), "the snippet is shown: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );

    let output = run(
        &["idl", dir.path().join("missing.avdl").to_str().unwrap()],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("cannot read"),
        "{}",
        stderr(&output)
    );

    let output = run(
        &["idl2schemata", "-", dir.path().to_str().unwrap()],
        "protocol P { record R { Nope n; } }",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with("error: Undefined schema: Nope\n --> <stdin>:1:25\n"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["idl", "--no-such-flag"][..],
        &[][..],
        &["frobnicate"][..],
        &["idl", "a", "b", "c"][..],
    ] {
        let output = run(args, "");
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!stderr(&output).is_empty());
    }
}

#[test]
fn help_and_version_exit_0() {
    let output = run(&["--version"], "");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        format!("avdl2rs {}", env!("CARGO_PKG_VERSION"))
    );
    for args in [
        &["--help"][..],
        &["idl", "--help"][..],
        &["idl2schemata", "--help"][..],
    ] {
        let output = run(args, "");
        assert_eq!(output.status.code(), Some(0));
        let help = String::from_utf8_lossy(&output.stdout);
        assert!(help.contains("Example"), "{args:?}: {help}");
        assert!(
            args.len() == 1 || help.contains("--include"),
            "{args:?}: {help}"
        );
    }
}
