//! The formatter against its targets: the reference files of Java's IDL writer are fixed
//! points of its layout, every conformance input and example keeps its meaning (the
//! compiler's JSON of the formatted text equals that of the original, key order included),
//! and formatting is idempotent.

use std::path::{Path, PathBuf};

use avdl_parser::format::{format, FormatOptions};
use avdl_parser::idl_writer::Indent;
use avdl_parser::ParseOptions;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate lives in the workspace")
        .to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn writer_reference(name: &str) -> String {
    read(&workspace().join("conformance/idl-writer").join(name))
}

fn options(width: usize) -> FormatOptions {
    FormatOptions {
        indent: Indent { width },
    }
}

fn fmt(text: &str, width: usize) -> String {
    format(text, "test.avdl", &options(width)).unwrap_or_else(|e| panic!("{e}"))
}

/// `text` with each line's leading spaces multiplied by `factor` (an indent of 2 made 4).
fn reindented(text: &str, from: usize, to: usize) -> String {
    text.lines()
        .map(|line| {
            let spaces = line.len() - line.trim_start_matches(' ').len();
            format!("{}{}\n", " ".repeat(spaces / from * to), &line[spaces..])
        })
        .collect()
}

#[test]
fn the_java_writers_schema_file_is_a_fixed_point() {
    let text = writer_reference("idl_utils_test_schema.avdl");
    assert_eq!(fmt(&text, 2), text);
    assert_eq!(fmt(&text, 4), reindented(&text, 2, 4));
}

#[test]
fn the_java_writers_protocol_takes_todays_layout_and_keeps_its_json() {
    let text = writer_reference("idl_utils_test_protocol.avdl");
    // The reference's README: today's writer puts the symbols on their own indented line;
    // its JSON arrays take `, ` between items.
    let expected = text
        .replace(
            "enum Flag {ON, OFF, CANARY}",
            "enum Flag {\n        ON, OFF, CANARY\n    }",
        )
        .replace(r#"["text","msg"]"#, r#"["text", "msg"]"#);
    assert_ne!(expected, text);
    let once = fmt(&text, 4);
    assert_eq!(once, expected);
    assert_eq!(fmt(&once, 4), once);
    assert_eq!(fmt(&text, 2), reindented(&expected, 4, 2));
    assert_eq!(json_of(&text, &[]), json_of(&once, &[]));
}

/// The compiler's JSON text for `text`, imports searched in `include_dirs`.
fn json_of(text: &str, include_dirs: &[PathBuf]) -> String {
    let options = ParseOptions {
        include_dirs: include_dirs.to_vec(),
    };
    avdl_parser::parse_str(text, "test.avdl", &options)
        .unwrap_or_else(|e| panic!("{e}"))
        .to_json_string(true)
}

/// Every `.avdl` file under `dir`, sorted.
fn avdl_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable folder").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            avdl_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "avdl") {
            found.push(path);
        }
    }
}

/// `dir` and every folder under it.
fn folders(dir: &Path, found: &mut Vec<PathBuf>) {
    found.push(dir.to_path_buf());
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a readable folder").path();
        if path.is_dir() {
            folders(&path, found);
        }
    }
}

/// The conformance inputs (with their class path), this crate's cases and the examples'
/// schemas, as files and the folders their imports are found in.
fn corpus() -> Vec<(PathBuf, Vec<PathBuf>)> {
    let root = workspace();
    let mut cases = Vec::new();
    let mut inputs = Vec::new();
    avdl_files(&root.join("conformance/idl/input"), &mut inputs);
    let classpath = root.join("conformance/idl/classpath");
    for input in inputs {
        let dir = input.parent().expect("a folder").to_path_buf();
        cases.push((input, vec![dir, classpath.clone()]));
    }
    // This crate's own cases, which import from `include/`.
    let cases_dir = root.join("avdl-parser/tests/cases");
    let mut own = Vec::new();
    avdl_files(&cases_dir, &mut own);
    for case in own {
        cases.push((case, vec![cases_dir.clone(), cases_dir.join("include")]));
    }
    // The examples' build scripts find imports in their own and each other's `schemas/`.
    let mut example_dirs = Vec::new();
    for example in std::fs::read_dir(root.join("examples")).expect("a readable folder") {
        let schemas = example.expect("a readable folder").path().join("schemas");
        if schemas.is_dir() {
            folders(&schemas, &mut example_dirs);
        }
    }
    let mut examples = Vec::new();
    avdl_files(&root.join("examples"), &mut examples);
    for example in examples {
        let mut include_dirs = vec![example.parent().expect("a folder").to_path_buf()];
        include_dirs.extend(example_dirs.iter().cloned());
        cases.push((example, include_dirs));
    }
    assert!(
        cases.len() >= 10,
        "too few IDL files found: {}",
        cases.len()
    );
    cases
}

#[test]
fn every_conformance_input_and_example_keeps_its_json_and_is_a_fixed_point() {
    let mut failures = Vec::new();
    for (path, include_dirs) in corpus() {
        let text = read(&path);
        for width in [2, 4] {
            let once = fmt(&text, width);
            if fmt(&once, width) != once {
                failures.push(format!(
                    "{} (indent {width}): not idempotent",
                    path.display()
                ));
            }
            if json_of(&once, &include_dirs) != json_of(&text, &include_dirs) {
                failures.push(format!("{} (indent {width}): JSON differs", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Formats `text` with indent 2, checks that the compiler reads the same JSON from the result
/// and that it is a fixed point, and returns it.
fn checked(text: &str) -> String {
    let once = fmt(text, 2);
    assert_eq!(fmt(&once, 2), once, "not a fixed point:\n{once}");
    assert_eq!(
        json_of(&once, &[]),
        json_of(text, &[]),
        "JSON differs:\n{once}"
    );
    once
}

#[test]
fn blank_lines_set_declarations_apart_and_keep_the_authors_single_ones_elsewhere() {
    let text = "protocol P {\n\n\n  record A {\n\n    int a;\n\n\n\n    int b;\n    int c;\n\n  }\n  fixed F(2);\n  void m();\n\n\n  void n();\n  void o();\n}\n";
    assert_eq!(
        checked(text),
        "protocol P {\n  record A {\n    int a;\n\n    int b;\n    int c;\n  }\n\n  fixed F(2);\n\n  void m();\n\n  void n();\n  void o();\n}\n"
    );
}

#[test]
fn comments_keep_their_line_and_what_they_describe() {
    let text = "protocol P { // the protocol\n  record A {\n  int a; /** doc of b */ int b;   // about b\n\n   // closing remark\n  }\n}\n// the end\n";
    let formatted = checked(text);
    assert_eq!(
        formatted,
        "protocol P { // the protocol\n  record A {\n    int a;\n    /** doc of b */\n    int b; // about b\n\n    // closing remark\n  }\n}\n// the end\n"
    );
    let json = json_of(&formatted, &[]);
    assert!(json.contains("\"doc\": \"doc of b\""), "{json}");
}

#[test]
fn a_comment_among_symbols_or_parameters_puts_each_on_a_line_of_its_own() {
    let text = "protocol P { enum E { A, /* second */ B, C } void m(int a, /** doc */ int b); enum F {X,Y} = Y; }";
    assert_eq!(
        checked(text),
        "protocol P {\n  enum E {\n    A,\n    /* second */ B,\n    C\n  }\n\n  void m(\n    int a,\n    /** doc */\n    int b\n  );\n\n  enum F {\n    X, Y\n  } = Y;\n}\n"
    );
}

#[test]
fn a_block_comment_goes_with_the_token_it_is_written_before() {
    // Written right before a token on its line, it describes that token: it moves to the
    // token's new line, whether it stood on a line of its own or after the comma before.
    let text =
        "protocol P { void m(int a, /* b */ int b,\n  /* c */ int c, int d /* after d */\n); }";
    assert_eq!(
        checked(text),
        "protocol P {\n  void m(\n    int a,\n    /* b */ int b,\n    /* c */ int c,\n    int d /* after d */\n  );\n}\n"
    );
    // One written at the end of a line stays there.
    let text = "protocol P { enum E { A, /* after A */\n B } }";
    assert_eq!(
        checked(text),
        "protocol P {\n  enum E {\n    A, /* after A */\n    B\n  }\n}\n"
    );
}

#[test]
fn a_token_glued_to_the_one_before_is_glued_to_a_comment_before_it() {
    let text = "protocol P { enum E { A /* a */ , B } record R { array<int /* i */ > xs /* x */ ; union { null /* n */ , int } u = null; } }";
    assert_eq!(
        checked(text),
        "protocol P {\n  enum E {\n    A /* a */,\n    B\n  }\n\n  record R {\n    array<int /* i */> xs /* x */;\n    union{null /* n */, int} u = null;\n  }\n}\n"
    );
}

#[test]
fn a_line_comment_inside_a_line_continues_it_one_level_deeper() {
    let text =
        "protocol P { record A { map< // values\n int> m = {\"a\" : 1, // one\n\"b\":2}; } }";
    assert_eq!(
        checked(text),
        "protocol P {\n  record A {\n    map< // values\n      int> m = {\"a\":1, // one\n      \"b\":2};\n  }\n}\n"
    );
}

#[test]
fn json_values_are_spaced_as_the_idl_writer_spaces_them() {
    let values = [
        serde_json::json!({"a": [1, "x", {"b": null}], "c": {}, "d": []}),
        serde_json::json!([[], [true, false], "s p a c e d", -1.5]),
        serde_json::json!("only"),
    ];
    for value in values {
        let text = format!(
            "protocol P {{ @p( {} ) record R {{ }} }}",
            serde_json::to_string_pretty(&value).unwrap()
        );
        let expected = avdl_parser::idl_writer::layout::annotation("p", &value);
        assert_eq!(
            checked(&text),
            format!("protocol P {{\n  {expected}\n  record R {{\n  }}\n}}\n")
        );
    }
}

#[test]
fn types_take_the_java_writers_spacing_and_literals_stay_as_written() {
    let text = "namespace n ; schema  union { null , array < @a(1) int > } ; fixed F ( 0x10 ) ; record R { decimal ( 9 , 2 ) ? d ; long l = 0x7fL; }";
    assert_eq!(
        checked(text),
        "namespace n;\n\nschema union{null, array<@a(1) int>};\n\nfixed F(0x10);\n\nrecord R {\n  decimal(9,2)? d;\n  long l = 0x7fL;\n}\n"
    );
}

#[test]
fn a_syntax_error_is_the_compilers_located_error() {
    let text = "protocol P {\n  record A { int a }\n}\n";
    let error = format(text, "bad.avdl", &options(2)).unwrap_err();
    assert_eq!(error.file(), Some("bad.avdl"));
    assert_eq!(error.line_column(), Some((2, 20)));
    let compiler = avdl_parser::parse_str(text, "bad.avdl", &ParseOptions::default()).unwrap_err();
    assert_eq!(error.message(), compiler.message());
}

#[test]
fn bytes_that_are_not_utf8_are_an_error_at_the_first_bad_one() {
    let bytes = b"protocol P {\n  record A { string \xff a; }\n}\n";
    let error = avdl_parser::format::format_bytes(bytes, "bad.avdl", &options(2)).unwrap_err();
    assert_eq!(error.line_column(), Some((2, 21)));
    assert!(error.message().contains("UTF-8"), "{}", error.message());
}

#[test]
fn what_follows_a_ctrl_z_and_files_of_comments_only_are_kept() {
    assert_eq!(fmt("", 2), "");
    assert_eq!(fmt("  // only a comment  \n\n", 2), "// only a comment\n");
    let text = "protocol P{}\u{1A} anything {{";
    assert_eq!(fmt(text, 2), "protocol P {\n}\n\u{1A} anything {{");
}

#[test]
fn deep_json_nesting_up_to_the_compilers_limit_formats() {
    let depth = 98;
    let text = format!(
        "protocol P {{ record R {{ array<int> a = {}{}; }} }}",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let formatted = fmt(&text, 2);
    assert!(formatted.contains(&format!("a = {}", "[".repeat(depth))));
    let too_deep = text.replace("= [", "= [[[[");
    assert!(format(&too_deep, "deep.avdl", &options(2)).is_err());
}

/// `text` relaid by hand: each line break that does not end a line comment made a space (or
/// `\r\n`, when `crlf`), runs of spaces varied in length.
fn relaid(text: &str, crlf: bool) -> String {
    use avdl_parser::syntax::{lex, SyntaxKind};
    let tokens = lex(text);
    let mut out = String::new();
    for (i, token) in tokens.iter().enumerate() {
        let piece = &text[usize::from(token.range.start())..usize::from(token.range.end())];
        let after_line_comment = i > 0 && tokens[i - 1].kind == SyntaxKind::LineComment;
        match token.kind {
            SyntaxKind::Newline if crlf => out.push_str("\r\n"),
            SyntaxKind::Newline if after_line_comment => out.push('\n'),
            SyntaxKind::Newline => out.push(' '),
            SyntaxKind::Whitespace => out.push_str(&" ".repeat(1 + i % 3)),
            _ => out.push_str(piece),
        }
    }
    out
}

#[test]
fn every_file_relaid_by_hand_keeps_its_json_and_formats_to_a_fixed_point() {
    let mut failures = Vec::new();
    for (path, include_dirs) in corpus() {
        let original = read(&path);
        for crlf in [false, true] {
            let text = relaid(&original, crlf);
            let once = fmt(&text, 2);
            if fmt(&once, 2) != once {
                failures.push(format!("{} (crlf {crlf}): not idempotent", path.display()));
            }
            if json_of(&once, &include_dirs) != json_of(&original, &include_dirs) {
                failures.push(format!("{} (crlf {crlf}): JSON differs", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every schema and protocol JSON of the conformance cases.
fn conformance_json() -> Vec<PathBuf> {
    let root = workspace();
    let mut files = Vec::new();
    for dir in [
        "conformance/schemas",
        "conformance/idl/output",
        "conformance/idl/input",
    ] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .expect("a conformance folder")
            .map(|entry| entry.expect("a readable folder").path())
            .filter(|p| p.extension().is_some_and(|e| e == "avsc" || e == "avpr"))
            .collect();
        entries.sort();
        files.extend(entries);
    }
    files
}

#[test]
fn what_the_idl_writer_writes_from_json_is_a_fixed_point_of_the_formatter() {
    let mut written = 0;
    let mut failures = Vec::new();
    for path in conformance_json() {
        let json: serde_json::Value = serde_json::from_str(&read(&path)).expect("JSON");
        for width in [2, 4] {
            // The writer refuses what IDL cannot say; those files have nothing to compare.
            let Ok(idl) = avdl_parser::idl_writer::to_idl(&json, Indent { width }) else {
                continue;
            };
            written += 1;
            if fmt(&idl, width) != idl {
                failures.push(format!(
                    "{} (indent {width}):\n{idl}\n--- formatted:\n{}",
                    path.display(),
                    fmt(&idl, width)
                ));
            }
        }
    }
    assert!(
        written >= 10,
        "only {written} files written by the IDL writer"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
