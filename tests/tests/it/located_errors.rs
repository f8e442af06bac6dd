//! Errors found after parsing point at the IDL source: code generation's default checks name
//! the IDL file, line and column of the default, and the parser reports every undefined name
//! or invalid default of a file at once (up to a limit), each located.

use avdl2rs_codegen::{Generator, Options};
use avdl_parser::{parse_str, ErrorKind, ParseOptions};

fn errors(source: &str) -> Vec<(ErrorKind, String, (usize, usize))> {
    let error = match parse_str(source, "t.avdl", &ParseOptions::default()) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e,
    };
    std::iter::once(&error)
        .chain(error.related_errors())
        .map(|e| (e.kind(), e.message().to_owned(), e.line_column().unwrap()))
        .collect()
}

#[test]
fn every_invalid_default_of_a_file_is_reported() {
    let found =
        errors("protocol P {\n  record R {\n    int a = \"x\";\n    string b = 1;\n  }\n}\n");
    let expected = [
        (
            ErrorKind::InvalidDefault,
            "Invalid default for field a: \"x\" not a \"int\"".to_owned(),
            (3, 13),
        ),
        (
            ErrorKind::InvalidDefault,
            "Invalid default for field b: 1 not a \"string\"".to_owned(),
            (4, 16),
        ),
    ];
    assert_eq!(found, expected);
}

#[test]
fn every_undefined_name_is_reported_up_to_a_limit() {
    let found = errors("protocol P {\n  record S { Foo f; Bar b; }\n}\n");
    let places: Vec<(usize, usize)> = found.iter().map(|(_, _, at)| *at).collect();
    assert_eq!(places, [(2, 14), (2, 21)]);
    assert!(found
        .iter()
        .all(|(kind, ..)| *kind == ErrorKind::UndefinedName));
    let many: String = (0..50)
        .map(|i| format!("  record R{i} {{ Missing{i} m; }}\n"))
        .collect();
    let found = errors(&format!("protocol P {{\n{many}}}\n"));
    assert_eq!(found.len(), 20);
    assert_eq!(found[19].2, (21, 16));
}

#[test]
fn a_default_code_generation_refuses_points_into_the_idl_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dated.avdl");
    let idl = "@namespace(\"d\")\nprotocol P {\n  record Dated {\n    string id;\n    date day = 1681601653;\n  }\n}\n";
    std::fs::write(&path, idl).unwrap();
    let mut generator = Generator::new(Options::default());
    generator.add_file(&path, &[]).unwrap();
    let error = generator.generate().unwrap_err().to_string();
    let at = format!("{}:5:16: d.Dated.day: invalid default: ", path.display());
    assert!(error.starts_with(&at), "{error}");
    assert!(error.contains("chrono::NaiveDate"), "{error}");
}

#[test]
fn every_default_code_generation_refuses_is_reported_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dates.avdl");
    let idl = "protocol P {\n  record Dated {\n    date day = 1681601653;\n    date other = -100000000;\n  }\n  record T { time_ms t = 90000000; }\n}\n";
    std::fs::write(&path, idl).unwrap();
    let mut generator = Generator::new(Options::default());
    generator.add_file(&path, &[]).unwrap();
    let error = match generator.generate().unwrap_err() {
        avdl2rs_codegen::Error::Idl { source } => source,
        other => panic!("not located in the IDL file: {other}"),
    };
    let places: Vec<(usize, usize)> = std::iter::once(&error)
        .chain(error.related_errors())
        .map(|e| e.line_column().unwrap())
        .collect();
    assert_eq!(places, [(3, 16), (4, 18), (6, 26)]);
}
