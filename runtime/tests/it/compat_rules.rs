//! The schema-resolution rules of the Avro specification, one by one, through
//! `compat::can_read`.

use avdl2rs::compat::{can_read, IncompatibilityKind as Kind};

use crate::compat_support;
use compat_support::parse;

/// The kinds and locations of every incompatibility of `reader` reading `writer`.
fn problems(reader: &str, writer: &str) -> Vec<(Kind, String)> {
    let (r, w) = (parse(reader), parse(writer));
    can_read(r.as_ref(), w.as_ref())
        .into_iter()
        .map(|i| (i.kind, i.location))
        .collect()
}

fn reads(reader: &str, writer: &str) -> bool {
    problems(reader, writer).is_empty()
}

fn record(name: &str, fields: &str) -> String {
    format!(r#"{{"type":"record","name":"{name}","namespace":"n","fields":[{fields}]}}"#)
}

#[test]
fn primitives_read_only_themselves_and_their_promotions() {
    let all = [
        "null", "boolean", "int", "long", "float", "double", "bytes", "string",
    ];
    let promotions = [
        ("int", "long"),
        ("int", "float"),
        ("int", "double"),
        ("long", "float"),
        ("long", "double"),
        ("float", "double"),
        ("string", "bytes"),
        ("bytes", "string"),
    ];
    for writer in all {
        for reader in all {
            let expected = writer == reader || promotions.contains(&(writer, reader));
            let (r, w) = (format!("\"{reader}\""), format!("\"{writer}\""));
            assert_eq!(reads(&r, &w), expected, "{writer} read as {reader}");
        }
    }
    assert_eq!(
        problems(r#""int""#, r#""long""#),
        [(Kind::TypeMismatch, "/".into())]
    );
}

#[test]
fn logical_types_resolve_as_their_base_types_except_decimal_parameters() {
    assert!(reads(
        r#"{"type":"long","logicalType":"timestamp-millis"}"#,
        r#""int""#
    ));
    assert!(reads(r#""int""#, r#"{"type":"int","logicalType":"date"}"#));
    let decimal = |p: u32, s: u32| {
        format!(r#"{{"type":"bytes","logicalType":"decimal","precision":{p},"scale":{s}}}"#)
    };
    assert!(reads(&decimal(5, 2), &decimal(5, 2)));
    assert_eq!(
        problems(&decimal(5, 2), &decimal(6, 2))[0].0,
        Kind::DecimalMismatch
    );
    assert!(reads(&decimal(5, 2), r#""bytes""#));
}

#[test]
fn records_match_fields_by_name_and_alias_and_need_defaults_for_new_fields() {
    let v1 = record(
        "R",
        r#"{"name":"a","type":"int"},{"name":"gone","type":"string"}"#,
    );
    // Reordered, one field dropped (ignored), one added with a default, one promoted.
    let v2 = record(
        "R",
        r#"{"name":"added","type":"string","default":"x"},{"name":"a","type":"long"}"#,
    );
    assert!(reads(&v2, &v1));
    let no_default = record(
        "R",
        r#"{"name":"a","type":"int"},{"name":"b","type":"int"}"#,
    );
    assert_eq!(
        problems(&no_default, &v1),
        [(Kind::ReaderFieldMissingDefault, "/fields/b".into())]
    );
    let renamed = record("R", r#"{"name":"alpha","type":"int","aliases":["a"]}"#);
    assert!(reads(&renamed, &v1));
    let wrong = record("R", r#"{"name":"a","type":"string"}"#);
    assert_eq!(
        problems(&wrong, &v1),
        [(Kind::TypeMismatch, "/fields/a/type".into())]
    );
}

#[test]
fn every_incompatibility_is_reported_not_only_the_first() {
    let writer = record(
        "R",
        r#"{"name":"a","type":"int"},{"name":"b","type":"int"}"#,
    );
    let reader = record(
        "R",
        r#"{"name":"a","type":"string"},{"name":"b","type":"boolean"},{"name":"c","type":"int"}"#,
    );
    assert_eq!(
        problems(&reader, &writer),
        [
            (Kind::TypeMismatch, "/fields/a/type".into()),
            (Kind::TypeMismatch, "/fields/b/type".into()),
            (Kind::ReaderFieldMissingDefault, "/fields/c".into()),
        ]
    );
}

#[test]
fn named_types_match_by_unqualified_name_or_reader_alias() {
    let writer = record("Old", r#"{"name":"a","type":"int"}"#);
    let other_ns =
        r#"{"type":"record","name":"elsewhere.Old","fields":[{"name":"a","type":"int"}]}"#;
    assert!(reads(other_ns, &writer));
    let renamed = r#"{"type":"record","name":"n.New","aliases":["Old"],"fields":[{"name":"a","type":"int"}]}"#;
    assert!(reads(renamed, &writer));
    let unrelated = record("New", r#"{"name":"a","type":"int"}"#);
    assert_eq!(
        problems(&unrelated, &writer),
        [(Kind::NameMismatch, "/name".into())]
    );
}

#[test]
fn enums_need_every_writer_symbol_unless_the_reader_has_a_default() {
    let writer = r#"{"type":"enum","name":"E","symbols":["A","B","C"]}"#;
    let fewer = r#"{"type":"enum","name":"E","symbols":["A","B"]}"#;
    let fewer_with_default = r#"{"type":"enum","name":"E","symbols":["A","B","U"],"default":"U"}"#;
    let more = r#"{"type":"enum","name":"E","symbols":["C","B","A","D"]}"#;
    assert_eq!(
        problems(fewer, writer),
        [(Kind::MissingEnumSymbols, "/symbols".into())]
    );
    assert!(reads(fewer_with_default, writer));
    assert!(reads(more, writer));
}

#[test]
fn fixed_types_need_the_same_name_and_size() {
    let f =
        |name: &str, size: usize| format!(r#"{{"type":"fixed","name":"{name}","size":{size}}}"#);
    assert!(reads(&f("F", 4), &f("F", 4)));
    assert_eq!(
        problems(&f("F", 4), &f("F", 5)),
        [(Kind::FixedSizeMismatch, "/size".into())]
    );
    assert_eq!(problems(&f("G", 4), &f("F", 4))[0].0, Kind::NameMismatch);
}

#[test]
fn arrays_and_maps_resolve_their_items_and_values() {
    assert!(reads(
        r#"{"type":"array","items":"long"}"#,
        r#"{"type":"array","items":"int"}"#
    ));
    assert_eq!(
        problems(
            r#"{"type":"array","items":"int"}"#,
            r#"{"type":"array","items":"long"}"#
        ),
        [(Kind::TypeMismatch, "/items".into())]
    );
    assert_eq!(
        problems(
            r#"{"type":"map","values":"int"}"#,
            r#"{"type":"map","values":"string"}"#
        ),
        [(Kind::TypeMismatch, "/values".into())]
    );
    assert_eq!(
        problems(
            r#"{"type":"map","values":"int"}"#,
            r#"{"type":"array","items":"int"}"#
        )[0]
        .0,
        Kind::TypeMismatch
    );
}

#[test]
fn unions_need_a_reader_branch_for_every_writer_branch() {
    // Writer union, reader union: every writer branch must be readable.
    assert!(reads(
        r#"["null","long","string"]"#,
        r#"["string","int","null"]"#
    ));
    assert_eq!(
        problems(r#"["null","string"]"#, r#"["null","int","string"]"#),
        [(Kind::MissingUnionBranch, "/1".into())]
    );
    // Reader union, writer not: one branch must read it.
    assert!(reads(r#"["null","double"]"#, r#""int""#));
    assert_eq!(
        problems(r#"["null","string"]"#, r#""int""#),
        [(Kind::MissingUnionBranch, "/".into())]
    );
    // Writer union, reader not: every branch must be readable by the reader.
    assert!(reads(r#""long""#, r#"["int","long"]"#));
    assert_eq!(
        problems(r#""string""#, r#"["null","string"]"#),
        [(Kind::TypeMismatch, "/0".into())]
    );
}

#[test]
fn the_selected_union_branch_is_resolved_deeply() {
    let writer = record("R", r#"{"name":"a","type":"int"}"#);
    let reader = format!(
        r#"["null",{}]"#,
        record(
            "R",
            r#"{"name":"a","type":"int"},{"name":"b","type":"int"}"#
        )
    );
    assert_eq!(
        problems(&reader, &writer),
        [(Kind::ReaderFieldMissingDefault, "/fields/b".into())]
    );
}

#[test]
fn recursive_schemas_terminate() {
    let list = |extra: &str| {
        record(
            "List",
            &format!(
                r#"{{"name":"value","type":"long"}},{{"name":"next","type":["null","List"]}}{extra}"#
            ),
        )
    };
    assert!(reads(&list(""), &list("")));
    let problems = problems(&list(r#",{"name":"tag","type":"string"}"#), &list(""));
    assert_eq!(
        problems,
        [(Kind::ReaderFieldMissingDefault, "/fields/tag".into())]
    );
    // Mutual recursion through two records.
    let a = r#"{"type":"record","name":"A","fields":[{"name":"b","type":["null",{"type":"record","name":"B","fields":[{"name":"a","type":["null","A"]}]}]}]}"#;
    assert!(reads(a, a));
}

#[test]
fn reports_carry_both_fragments() {
    let (r, w) = (
        parse(&record("R", r#"{"name":"amount","type":"string"}"#)),
        parse(&record("R", r#"{"name":"amount","type":"int"}"#)),
    );
    let found = can_read(r.as_ref(), w.as_ref());
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].location, "/fields/amount/type");
    assert_eq!(found[0].reader, serde_json::json!("string"));
    assert_eq!(found[0].writer, serde_json::json!("int"));
    assert_eq!(
        found[0].to_string(),
        "/fields/amount/type: the writer's int cannot be read as the reader's string"
    );
}
