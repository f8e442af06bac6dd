//! Every error kind: its message, and the line:column it points at (checked by hand against
//! the inputs below; columns count characters from 1).

use avdl_parser::{parse_file, parse_str, Error, ErrorKind, ParseOptions};

fn error(source: &str) -> Error {
    match parse_str(source, "t.avdl", &ParseOptions::default()) {
        Ok(file) => panic!("expected an error, got {}", file.json()),
        Err(e) => e,
    }
}

#[track_caller]
fn assert_error(source: &str, kind: ErrorKind, message: &str, line_column: (usize, usize)) {
    let e = error(source);
    assert_eq!(e.kind(), kind, "{e:?}");
    assert_eq!(e.message(), message, "{e:?}");
    assert_eq!(e.line_column(), Some(line_column), "{e:?}");
    assert_eq!(e.file(), Some("t.avdl"));
    let (line, column) = line_column;
    assert_eq!(e.to_string(), format!("t.avdl:{line}:{column}: {message}"));
}

#[test]
fn syntax_errors_say_what_was_expected() {
    // A missing `;` is reported where it is missing, at the end of the line before.
    assert_error(
        "protocol P {\n  record R {\n    int x\n  }\n}",
        ErrorKind::Syntax,
        "expected `,`, `;` or `=`, found `}`",
        (3, 10),
    );
    assert_error(
        "protocol P {\n  record R {\n    int x // note\n    /* more */\n    string y;\n  }\n}",
        ErrorKind::Syntax,
        "expected `,`, `;` or `=`, found `string`",
        (3, 10),
    );
    // On one line, the token found is the place.
    assert_error(
        "protocol P {\n  record R { int x string y; }\n}",
        ErrorKind::Syntax,
        "expected `,`, `;` or `=`, found `string`",
        (2, 20),
    );
    assert_error(
        "protocol P {\n  record R { string s = ; }\n}",
        ErrorKind::Syntax,
        "expected a JSON value, found `;`",
        (2, 25),
    );
    assert_error("protocol P {\n  record R {} ;\n}", ErrorKind::Syntax, "expected `@`, `enum`, `fixed`, `import`, `}`, a message or a record, error, enum or fixed declaration, found `;`", (2, 15));
    assert_error("protocol P {\n  record R { int x; }\n", ErrorKind::Syntax, "expected `@`, `enum`, `fixed`, `import`, `}`, a message or a record, error, enum or fixed declaration, found the end of the file", (3, 1));
    assert_error(
        "protocol P {\n  record R { int x; /* open\n}",
        ErrorKind::Syntax,
        "unterminated comment: `/*` without `*/`",
        (2, 21),
    );
}

#[test]
fn characters_outside_the_grammar_are_errors() {
    assert_error(
        "protocol P {\n  record R { int $x; }\n}",
        ErrorKind::Syntax,
        "expected `?`, `@` or a field name, found `$`",
        (2, 18),
    );
    assert_error(
        "protocol P { record R { int x = +1; } }",
        ErrorKind::Syntax,
        "expected a JSON value, found `+`",
        (1, 33),
    );
}

#[test]
fn bytes_that_are_not_utf8_are_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.avdl");
    std::fs::write(&path, b"protocol P { record R { int x\xff; } }").unwrap();
    let e = parse_file(&path, &ParseOptions::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidUtf8);
    assert_eq!(e.message(), "invalid UTF-8: the file must be UTF-8 text");
    assert_eq!(e.line_column(), Some((1, 30)));
}

#[test]
fn unknown_type_names_suggest_the_closest_defined_name() {
    let e = error("@namespace(\"shop\") protocol P {\n  record Customer {}\n  record Order { Custmer who; }\n}");
    assert_eq!(e.kind(), ErrorKind::UndefinedName);
    assert_eq!(e.message(), "Undefined schema: shop.Custmer");
    assert_eq!(e.line_column(), Some((3, 18)));
    assert_eq!(e.help_text(), Some("did you mean `shop.Customer`?"));
    // No fallback to the null namespace, as in the reference.
    let e = error("@namespace(\"n\") protocol P {\n  @namespace(\"\") record Foo {}\n  record R { Foo f; }\n}");
    assert_eq!(e.message(), "Undefined schema: n.Foo");
}

#[test]
fn different_redefinitions_are_errors() {
    assert_error(
        "@namespace(\"ns\") protocol P {\n  record Foo {}\n  record Foo { int x; }\n}",
        ErrorKind::Redefinition,
        "Can't redefine: ns.Foo",
        (3, 10),
    );
    // Properties count; docs do not (see cases/redefinition.avdl).
    assert_error(
        "protocol P {\n  @foo(1) record S {}\n  record S {}\n}",
        ErrorKind::Redefinition,
        "Can't redefine: S",
        (3, 10),
    );
}

#[test]
fn defaults_must_match_their_type() {
    assert_error(
        "protocol P {\n  record R {\n    int x = \"a\";\n  }\n}",
        ErrorKind::InvalidDefault,
        "Invalid default for field x: \"a\" not a \"int\"",
        (3, 13),
    );
    assert_error(
        "protocol P { record R { int x = 3000000000; } }",
        ErrorKind::InvalidDefault,
        "Invalid default for field x: 3000000000 not a \"int\"",
        (1, 33),
    );
    assert_error(
        "protocol P { record R { long x = 1.0; } }",
        ErrorKind::InvalidDefault,
        "Invalid default for field x: 1.0 not a \"long\"",
        (1, 34),
    );
    assert_error(
        "protocol P { record R { boolean b = \"true\"; } }",
        ErrorKind::InvalidDefault,
        "Invalid default for field b: \"true\" not a \"boolean\"",
        (1, 37),
    );
    // A record default must give every field without a default; checked on forward references too.
    assert_error(
        "protocol P {\n  record R { Later l = {}; }\n  record Later { int x; }\n}",
        ErrorKind::InvalidDefault,
        "Invalid default for field l: {} not a \"Later\"",
        (2, 24),
    );
    assert_error(
        "protocol P { void m(int a = null); }",
        ErrorKind::InvalidDefault,
        "Invalid default for field a: null not a \"int\"",
        (1, 29),
    );
}

#[test]
fn decimal_precision_and_scale_are_checked() {
    assert_error(
        "protocol P {\n  record R { decimal(2, 3) d; }\n}",
        ErrorKind::InvalidDecimal,
        "Invalid decimal scale: 3 (greater than precision: 2)",
        (2, 14),
    );
    assert_error(
        "protocol P {\n  record R { decimal(0) d; }\n}",
        ErrorKind::InvalidDecimal,
        "Invalid decimal precision: 0 (must be positive)",
        (2, 14),
    );
    assert_error(
        "protocol P {\n  record R { decimal(3, -1) d; }\n}",
        ErrorKind::InvalidDecimal,
        "Invalid decimal scale: -1 (must be positive)",
        (2, 14),
    );
}

#[test]
fn references_cannot_be_annotated() {
    assert_error(
        "protocol P {\n  fixed MD5(16);\n  record R { @foo(\"bar\") MD5 hash; }\n}",
        ErrorKind::AnnotatedReference,
        "Type references may not be annotated",
        (3, 26),
    );
    assert_error(
        "protocol P { fixed F(1); record R { array<@x(1) F> a; } }",
        ErrorKind::AnnotatedReference,
        "Type references may not be annotated",
        (1, 49),
    );
}

#[test]
fn oneway_messages_must_return_void() {
    assert_error(
        "protocol P {\n  int ping() oneway;\n}",
        ErrorKind::OnewayNotVoid,
        "one-way message 'ping' must return void",
        (2, 3),
    );
}

#[test]
fn missing_imports_list_the_places_searched() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root.avdl");
    std::fs::write(&root, "protocol P {\n  import idl \"missing.avdl\";\n}").unwrap();
    let include = dir.path().join("inc");
    let options = ParseOptions {
        include_dirs: vec![include.clone()],
    };
    let e = parse_file(&root, &options).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ImportNotFound);
    assert_eq!(e.message(), "import not found: \"missing.avdl\"");
    assert_eq!(e.line_column(), Some((2, 14)));
    let searched = format!(
        "searched: {}, {}",
        dir.path().join("missing.avdl").display(),
        include.join("missing.avdl").display()
    );
    assert_eq!(e.help_text(), Some(searched.as_str()));
}

#[test]
fn unreadable_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let e = parse_file(dir.path().join("nope.avdl"), &ParseOptions::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(e.message().starts_with("cannot read "), "{e:?}");
    assert_eq!(e.line_column(), None);
}

#[test]
fn invalid_imported_json_is_located() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("bad.avsc"),
        "/* header */\n{\"type\": \"record\",\n \"name\": }",
    )
    .unwrap();
    let root = dir.path().join("root.avdl");
    std::fs::write(&root, "protocol P { import schema \"bad.avsc\"; }").unwrap();
    let e = parse_file(&root, &ParseOptions::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidJson);
    assert_eq!(
        e.file(),
        Some(dir.path().join("bad.avsc").display().to_string().as_str())
    );
    assert_eq!(e.line_column(), Some((3, 10)));
    assert!(
        e.message().starts_with("invalid JSON: expected value"),
        "{e:?}"
    );
}

#[test]
fn unions_are_checked() {
    assert_error(
        "protocol P {\n  record R { union { null, string? } u; }\n}",
        ErrorKind::InvalidUnion,
        "Nested union: a union may not directly contain another union (or a `T?`)",
        (2, 28),
    );
    assert_error(
        "protocol P {\n  record R { union { int, string, int } u; }\n}",
        ErrorKind::InvalidUnion,
        "Duplicate in union: int",
        (2, 35),
    );
    assert_error(
        "protocol P {\n  record R { null? n; }\n}",
        ErrorKind::InvalidUnion,
        "`null?` is not a type: null is already nullable",
        (2, 14),
    );
}

#[test]
fn files_without_protocol_or_schema_are_errors() {
    assert_error(
        "// nothing here\n",
        ErrorKind::Empty,
        "the file defines neither a protocol nor a schema",
        (1, 1),
    );
    assert_error(
        "namespace a.b;\n",
        ErrorKind::Empty,
        "the file defines neither a protocol nor a schema",
        (1, 1),
    );
}

#[test]
fn repeats_are_found_in_long_lists_too() {
    // Long lists are checked through a hash set, short ones pairwise: both report the first
    // name that repeats an earlier one, where it repeats.
    let fields: String = (0..100).map(|i| format!("int f{i};\n")).collect();
    assert_error(
        &format!("protocol P {{\nrecord R {{\n{fields}long f7;\nlong f3;\n}}\n}}"),
        ErrorKind::Duplicate,
        "Duplicate field f7 in record R",
        (103, 6),
    );
    let symbols: String = (0..100).map(|i| format!("S{i}, ")).collect();
    assert_error(
        &format!("protocol P {{\nenum E {{ {symbols}S50 }}\n}}"),
        ErrorKind::Duplicate,
        "Duplicate enum symbol: S50",
        (2, 10 + symbols.chars().count()),
    );
}

#[test]
fn names_symbols_and_fields_are_checked() {
    assert_error(
        "protocol P {\n  record R { int x; long x; }\n}",
        ErrorKind::Duplicate,
        "Duplicate field x in record R",
        (2, 26),
    );
    assert_error(
        "protocol P {\n  void m(int a, long a);\n}",
        ErrorKind::Duplicate,
        "Duplicate parameter a in message m",
        (2, 22),
    );
    assert_error(
        "protocol P {\n  enum E { A, B, A }\n}",
        ErrorKind::Duplicate,
        "Duplicate enum symbol: A",
        (2, 18),
    );
    assert_error(
        "protocol P {\n  enum E { A, B } = C;\n}",
        ErrorKind::Duplicate,
        "The Enum Default: C is not in the enum symbol set: [A, B]",
        (2, 21),
    );
    assert_error(
        "protocol P { record a-b {} }",
        ErrorKind::InvalidName,
        "Illegal character in: a-b",
        (1, 21),
    );
    assert_error(
        "protocol P { record int.x.string {} }",
        ErrorKind::InvalidName,
        "Illegal name: string",
        (1, 21),
    );
    assert_error(
        "protocol int {}",
        ErrorKind::InvalidName,
        "Illegal name: int",
        (1, 10),
    );
}

#[test]
fn annotations_are_checked_where_they_are_written() {
    assert_error(
        "protocol P {\n  record R { @namespace(\"x\") string s; }\n}",
        ErrorKind::InvalidAnnotation,
        "Can't set reserved property: namespace",
        (2, 25),
    );
    assert_error(
        "protocol P {\n  record R { string @order(\"up\") s; }\n}",
        ErrorKind::InvalidAnnotation,
        "@order(...) must contain \"ASCENDING\", \"DESCENDING\" or \"IGNORE\"",
        (2, 28),
    );
    assert_error(
        "protocol P { @doc(\"x\") record R {} }",
        ErrorKind::InvalidAnnotation,
        "Can't set reserved property: doc",
        (1, 19),
    );
    assert_error(
        "protocol P { @namespace(1) record R {} }",
        ErrorKind::InvalidAnnotation,
        "@namespace(...) must contain a String value",
        (1, 25),
    );
    assert_error(
        "protocol P { record R { @logicalType(\"time-micros\") date d; } }",
        ErrorKind::InvalidAnnotation,
        "Can't overwrite property: logicalType",
        (1, 53),
    );
}

#[test]
fn numbers_out_of_range_are_errors() {
    assert_error(
        "protocol P { record R { long x = 99999999999999999999; } }",
        ErrorKind::InvalidNumber,
        "integer literal `99999999999999999999` does not fit in 64 bits",
        (1, 34),
    );
    assert_error(
        "protocol P { fixed F(-4); }",
        ErrorKind::InvalidNumber,
        "Malformed data. Length is negative: -4",
        (1, 22),
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!(
        "protocol P {{ record R {{ {}int{} x; }} }}",
        "array<".repeat(5000),
        ">".repeat(5000)
    );
    let e = error(&deep);
    assert_eq!(e.kind(), ErrorKind::TooDeep);
    assert_eq!(e.message(), "brackets nested more than 100 levels deep");
    let json = format!(
        "protocol P {{ record R {{ int x = {}1{}; }} }}",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    assert_eq!(error(&json).kind(), ErrorKind::TooDeep);
    // Just under the limit parses.
    let ok = format!(
        "protocol P {{ record R {{ {}int{} x; }} }}",
        "array<".repeat(90),
        ">".repeat(90)
    );
    assert!(parse_str(&ok, "t.avdl", &ParseOptions::default()).is_ok());
}

#[test]
fn deep_inlining_of_forward_references_is_bounded() {
    // Each record refers to the next one, defined later: the first use inlines the whole chain.
    let mut text = String::from("protocol P {\n");
    for i in 0..3000 {
        text.push_str(&format!("  record R{i} {{ R{}? next = null; }}\n", i + 1));
    }
    text.push_str("  record R3000 {}\n}\n");
    let e = error(&text);
    assert_eq!(e.kind(), ErrorKind::TooDeep);
    assert_eq!(
        e.message(),
        "named types nest more than 1000 levels deep when written out"
    );
    // A shorter chain is written out fully inlined.
    let short: String = (0..100)
        .map(|i| format!("record R{i} {{ R{}? next = null; }}\n", i + 1))
        .collect();
    let file = parse_str(
        &format!("protocol P {{ {short} record R100 {{}} }}"),
        "t.avdl",
        &ParseOptions::default(),
    )
    .unwrap();
    assert_eq!(file.json()["types"].as_array().unwrap().len(), 1);
}

#[test]
fn misspelt_keywords_name_the_word_and_the_keyword() {
    let cases = [
        // Declarations, in a protocol (read as a message until the brace) and a schema file.
        (
            "protocol P {\n  recrod OrderEvent {\n    int id;\n  }\n}",
            "recrod",
            "record",
            (2, 3),
        ),
        (
            "protocol P {\n  enmu Color { RED }\n}",
            "enmu",
            "enum",
            (2, 3),
        ),
        ("protocol P {\n  fixd MD5(16);\n}", "fixd", "fixed", (2, 3)),
        (
            "protocol P {\n  imprt idl \"x.avdl\";\n}",
            "imprt",
            "import",
            (2, 3),
        ),
        (
            "namespace n;\nrecrod R { int x; }",
            "recrod",
            "record",
            (2, 1),
        ),
        (
            "protocol P {\n  @namespace(\"a;b\") eror E { }\n}",
            "eror",
            "error",
            (2, 21),
        ),
        // Types written with a bracket, where a field or a parameter starts.
        (
            "protocol P {\n  record R {\n    arary<int> xs;\n  }\n}",
            "arary",
            "array",
            (3, 5),
        ),
        (
            "protocol P {\n  record R { unoin { null, int } u; }\n}",
            "unoin",
            "union",
            (2, 14),
        ),
        (
            "protocol P {\n  record R { decmal(9, 2) d; }\n}",
            "decmal",
            "decimal",
            (2, 14),
        ),
        (
            "protocol P {\n  void f(mapp<int> m);\n}",
            "mapp",
            "map",
            (2, 10),
        ),
    ];
    for (text, word, keyword, at) in cases {
        let message = format!("unknown keyword `{word}`; did you mean `{keyword}`?");
        assert_error(text, ErrorKind::Syntax, &message, at);
    }
}

#[test]
fn an_undefined_name_stays_one_with_a_built_in_type_as_the_hint() {
    let e = error("protocol P {\n  record R {\n    strign name;\n  }\n}");
    assert_eq!(e.kind(), ErrorKind::UndefinedName);
    assert_eq!(e.message(), "Undefined schema: strign");
    assert_eq!(e.line_column(), Some((3, 5)));
    assert_eq!(e.help_text(), Some("did you mean `string`?"));
    let e = error("@namespace(\"n\") protocol P {\n  record R { timestmp_ms t; }\n}");
    assert_eq!(e.help_text(), Some("did you mean `timestamp_ms`?"));
    // A name that is no near miss of anything is just undefined.
    let e = error("protocol P {\n  record R { Nope n; }\n}");
    assert_eq!(e.kind(), ErrorKind::UndefinedName);
    assert_eq!(e.help_text(), None);
    // Nor is a word far from every keyword taken for one.
    let e = error("protocol P {\n  Shipment Order { }\n}");
    assert_eq!(e.message(), "expected `(`, found `{`");
}

#[test]
fn rendered_errors_read_like_the_compilers() {
    let e = error("protocol P {\n  record R {\n    Nope a;\n    Nope b;\n  }\n}");
    let expected = "error: Undefined schema: Nope\n --> t.avdl:3:5\n  |\n3 |     Nope a;\n  |     ^^^^\n\n\
                    error: Undefined schema: Nope\n --> t.avdl:4:5\n  |\n4 |     Nope b;\n  |     ^^^^\n";
    assert_eq!(e.render(avdl_parser::render::Style::Plain), expected);
}
