//! Each rule on a fixture that breaks it (the findings' places) and one that keeps it (no
//! finding of that rule). The places were checked by eye against the fixtures: each is the
//! first character of the name, default, type or logical type the finding is about.

use avdl2rs_lint::{Level, Rule, Settings};

use crate::support::{findings, findings_with, places};

/// Lines and columns of findings.
type Places = &'static [(usize, usize)];

/// Fixture stem, extension, rule, the places of its findings in `STEM.fail.EXT`.
const CASES: &[(&str, &str, Rule, Places)] = &[
    (
        "invalid-default",
        "avsc",
        Rule::InvalidDefault,
        &[(7, 65), (8, 79)],
    ),
    ("missing-default", "avsc", Rule::MissingDefault, &[(7, 14)]),
    (
        "nullable-default",
        "avsc",
        Rule::NullableDefault,
        &[(7, 30)],
    ),
    ("enum-default", "avsc", Rule::EnumDefault, &[(3, 11)]),
    (
        "missing-doc",
        "avsc",
        Rule::MissingDoc,
        &[(3, 11), (6, 14), (7, 56)],
    ),
    (
        "naming",
        "avsc",
        Rule::Naming,
        &[(3, 11), (9, 14), (11, 81)],
    ),
    (
        "missing-namespace",
        "avsc",
        Rule::MissingNamespace,
        &[(3, 11)],
    ),
    (
        "decimal",
        "avsc",
        Rule::Decimal,
        &[(7, 88), (8, 147), (9, 85)],
    ),
    (
        "logical-type",
        "avsc",
        Rule::LogicalType,
        &[(7, 93), (8, 91)],
    ),
    ("float-money", "avsc", Rule::FloatMoney, &[(7, 37), (8, 29)]),
    ("union-size", "avsc", Rule::UnionSize, &[(7, 31)]),
    ("unused-type", "avpr", Rule::UnusedType, &[(6, 32)]),
];

#[test]
fn each_rule_finds_its_fixture_and_passes_the_clean_one() {
    for (stem, ext, rule, expected) in CASES {
        let failing = findings(&format!("{stem}.fail.{ext}"));
        assert_eq!(&places(&failing, *rule), expected, "{stem}: {failing:#?}");
        let level = rule.default_level();
        assert!(failing
            .iter()
            .filter(|f| f.rule == *rule)
            .all(|f| f.level == level));
        let passing = findings(&format!("{stem}.pass.{ext}"));
        assert_eq!(places(&passing, *rule), [], "{stem}: {passing:#?}");
    }
}

/// The IDL fixtures (`idl/STEM.fail.avdl`, `idl/STEM.pass.avdl`): rule and places.
const IDL_CASES: &[(&str, Rule, Places)] = &[
    ("invalid-default", Rule::InvalidDefault, &[(6, 35)]),
    ("missing-default", Rule::MissingDefault, &[(6, 10)]),
    ("nullable-default", Rule::NullableDefault, &[(6, 5)]),
    ("enum-default", Rule::EnumDefault, &[(4, 8)]),
    ("missing-doc", Rule::MissingDoc, &[(3, 10), (4, 10)]),
    ("naming", Rule::Naming, &[(4, 10), (10, 9), (14, 5)]),
    ("missing-namespace", Rule::MissingNamespace, &[(3, 8)]),
    ("decimal", Rule::Decimal, &[(6, 5)]),
    ("logical-type", Rule::LogicalType, &[(6, 5)]),
    ("float-money", Rule::FloatMoney, &[(6, 5)]),
    ("union-size", Rule::UnionSize, &[(6, 5), (9, 8)]),
    ("unused-type", Rule::UnusedType, &[(7, 10)]),
    ("unused-import", Rule::UnusedImport, &[(3, 3)]),
];

#[test]
fn each_rule_finds_its_idl_fixture_at_the_declaration_and_passes_the_clean_one() {
    for (stem, rule, expected) in IDL_CASES {
        let failing = findings(&format!("idl/{stem}.fail.avdl"));
        assert_eq!(&places(&failing, *rule), expected, "{stem}: {failing:#?}");
        let passing = findings(&format!("idl/{stem}.pass.avdl"));
        assert_eq!(places(&passing, *rule), [], "{stem}: {passing:#?}");
    }
}

#[test]
fn a_type_outside_the_schema_of_a_schema_file_is_unused() {
    let found = findings("idl/unused-schema-type.fail.avdl");
    assert_eq!(places(&found, Rule::UnusedType), [(9, 8)]);
    assert_eq!(
        found
            .iter()
            .find(|f| f.rule == Rule::UnusedType)
            .unwrap()
            .message,
        "`shop.Leftover` is not used by the file's schema"
    );
}

#[test]
fn imported_types_are_reported_in_their_own_file_only() {
    // `shared.avdl` has a field without a default; the importer does not repeat it.
    assert_eq!(
        places(&findings("idl/shared.avdl"), Rule::MissingDefault),
        [(6, 10)]
    );
    let importer = findings("idl/unused-import.pass.avdl");
    assert_eq!(places(&importer, Rule::MissingDefault), [(7, 11)]);
    assert!(
        importer.iter().all(|f| !f.message.contains("cents")),
        "{importer:#?}"
    );
}

#[test]
fn an_import_is_used_by_message_parameters_errors_and_the_schema_of_a_schema_file() {
    for file in ["import-used-by-messages", "import-used-by-schema"] {
        let found = findings(&format!("idl/{file}.avdl"));
        assert_eq!(places(&found, Rule::UnusedImport), [], "{file}: {found:#?}");
    }
}

#[test]
fn every_rule_has_a_fixture() {
    let covered: Vec<Rule> = CASES.iter().map(|case| case.2).collect();
    let missing: Vec<&str> = Rule::ALL
        .iter()
        .filter(|rule| !covered.contains(rule))
        .map(|rule| rule.id())
        .collect();
    assert_eq!(
        missing,
        ["unused-import", "rename-without-alias", "removed-symbol"]
    );
}

#[test]
fn messages_say_what_is_wrong() {
    let found = findings("decimal.fail.avsc");
    let messages: Vec<&str> = found.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "decimal scale 6 is greater than its precision 4",
            "decimal precision 5 does not fit in fixed(2), which holds at most 4 digits",
            "decimal on `int`: only bytes and fixed can be decimals, Avro ignores it",
        ]
    );
    let found = findings("invalid-default.fail.avsc");
    assert_eq!(found[1].path, "/fields/1/default");
    assert!(found[1]
        .message
        .contains("not of the union's first branch \"null\""));
}

#[test]
fn settings_change_levels_and_options() {
    let mut settings = Settings::default();
    settings.set_level(Rule::Naming, Level::Error);
    settings.set_level(Rule::MissingDoc, Level::Allow);
    let found = findings_with("naming.fail.avsc", &settings);
    assert!(found.iter().all(|f| f.rule != Rule::MissingDoc));
    assert!(found
        .iter()
        .filter(|f| f.rule == Rule::Naming)
        .all(|f| f.level == Level::Error));
    // Configured camelCase: the two snake_case fields are off, `unitCount` is not.
    settings.options.field_case = Some(avdl2rs_lint::FieldCase::Camel);
    let found = findings_with("naming.fail.avsc", &settings);
    assert_eq!(
        places(&found, Rule::Naming),
        [(3, 11), (7, 14), (8, 14), (11, 81)]
    );
    settings.options.union_size = 4;
    assert_eq!(
        places(
            &findings_with("union-size.fail.avsc", &settings),
            Rule::UnionSize
        ),
        []
    );
}

/// The findings of `history.NAME.avsc` compared with `history.old.avsc`.
fn against_old(name: &str) -> Vec<avdl2rs_lint::Finding> {
    let read = |name: &str| std::fs::read_to_string(crate::support::fixtures().join(name)).unwrap();
    let old: serde_json::Value = serde_json::from_str(&read("history.old.avsc")).unwrap();
    let text = read(name);
    let source = avdl2rs_lint::Source::json(name, &text);
    avdl2rs_lint::check(&source, &Settings::default(), Some(&old)).unwrap()
}

#[test]
fn renames_without_aliases_and_removed_symbols_against_the_previous_version() {
    let found = against_old("history.fail.avsc");
    assert_eq!(places(&found, Rule::RenameWithoutAlias), [(6, 14), (8, 56)]);
    assert_eq!(places(&found, Rule::RemovedSymbol), [(7, 78)]);
    let messages: Vec<&str> = found
        .iter()
        .filter(|f| matches!(f.rule, Rule::RenameWithoutAlias | Rule::RemovedSymbol))
        .map(|f| f.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "field `client` replaces `customer` of the same type without an alias",
            "symbol `SHIPPED` was removed from enum `shop.Status`",
            "`shop.Extent` replaces `shop.Size`, of the same shape, without an alias",
        ]
    );
    let found = against_old("history.pass.avsc");
    assert_eq!(places(&found, Rule::RenameWithoutAlias), []);
    assert_eq!(places(&found, Rule::RemovedSymbol), []);
    // Without a previous version the rules have nothing to compare.
    assert_eq!(
        places(&findings("history.fail.avsc"), Rule::RemovedSymbol),
        []
    );
}

#[test]
fn comments_naming_rules_silence_them_on_their_line_or_the_next() {
    let found = findings("idl/suppressed.avdl");
    let all: Vec<(Rule, usize)> = found.iter().map(|f| (f.rule, f.line)).collect();
    assert_eq!(
        all,
        [
            (Rule::MissingDoc, 5),
            (Rule::MissingDefault, 6),
            (Rule::MissingDoc, 6),
        ]
    );
}

#[test]
fn the_reference_test_schema_is_checked_without_error() {
    // It may break some rules on purpose; what matters is that every finding is placed.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../conformance/idl-writer/idl_utils_test_schema.avdl");
    let text = std::fs::read_to_string(&path).unwrap();
    let source = avdl2rs_lint::Source::idl("schema.avdl", &text, &path, &[]);
    let found = avdl2rs_lint::check(&source, &Settings::default(), None).unwrap();
    assert!(!found.is_empty());
    for finding in &found {
        assert!(finding.span.end > finding.span.start, "{finding:#?}");
    }
}

#[test]
fn a_json_file_that_is_an_array_is_a_union() {
    let text = r#"[
  {"type": "record", "name": "A", "namespace": "n", "doc": "A.", "fields": []},
  {"type": "record", "name": "B", "namespace": "n", "doc": "B.", "fields": []},
  "int", "string"
]"#;
    let source = avdl2rs_lint::Source::json("union.avsc", text);
    let found = avdl2rs_lint::check(&source, &Settings::default(), None).unwrap();
    assert_eq!(places(&found, Rule::UnionSize), [(1, 1)]);
}

#[test]
fn a_tree_the_caller_gives_places_findings_as_the_one_the_check_builds() {
    let dir = crate::support::fixtures().join("idl");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        let source = avdl2rs_lint::Source::idl(name, &text, &path, &[]);
        let given = source.clone().with_tree(avdl_parser::syntax::parse(&text));
        let settings = Settings::default();
        let built = avdl2rs_lint::check(&source, &settings, None).map_err(|e| e.to_string());
        let from_given = avdl2rs_lint::check(&given, &settings, None).map_err(|e| e.to_string());
        assert_eq!(from_given, built, "{name}");
        checked += usize::from(built.is_ok_and(|found| !found.is_empty()));
    }
    assert!(checked > 10, "only {checked} fixtures with findings");
}
