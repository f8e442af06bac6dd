//! Names, namespaces, registration order, logical types and JSON writing of the schema model,
//! checked against the rules of the Avro specification ("Names", "Aliases", "Logical Types").

use avdl2rs_schema::{LogicalType, Name, NamedKind, SchemaKind, SchemaSet};
use serde_json::json;

#[test]
fn name_parse_follows_the_fullname_rules() {
    assert_eq!(Name::parse("X", Some("org.foo")).full_name(), "org.foo.X");
    assert_eq!(
        Name::parse("a.full.Name", Some("ignored")).full_name(),
        "a.full.Name"
    );
    assert_eq!(Name::parse("X", Some("")), Name::new("X", None));
    assert_eq!(Name::parse(".Root", Some("ns")), Name::new("Root", None));
    assert_eq!(Name::parse("X", None).namespace, None);
}

/// The example of the specification's "Names" section.
#[test]
fn namespaces_are_inherited_from_the_enclosing_named_type() {
    let mut set = SchemaSet::new();
    set.parse_str(
        r#"{"type":"record","name":"Example","fields":[
            {"name":"inheritNull","type":{"type":"enum","name":"Simple","symbols":["a","b"]}},
            {"name":"explicitNamespace","type":{"type":"fixed","name":"Simple","namespace":"explicit","size":12}},
            {"name":"fullName","type":{"type":"record","name":"a.full.Name","namespace":"ignored","fields":[
                {"name":"inheritNamespace","type":{"type":"enum","name":"Understanding","symbols":["d","e"]}},
                {"name":"ref","type":"Understanding"}]}}]}"#,
    )
    .unwrap();
    let names: Vec<String> = set.iter().map(|n| n.name.full_name()).collect();
    // Post-order, as the Java parser registers: nested types before their container.
    assert_eq!(
        names,
        [
            "Simple",
            "explicit.Simple",
            "a.full.Understanding",
            "a.full.Name",
            "Example"
        ]
    );
}

#[test]
fn references_fall_back_to_the_null_namespace_and_may_be_recursive() {
    let mut set = SchemaSet::new();
    set.parse_str(r#"{"type":"fixed","name":"Top","size":2}"#)
        .unwrap();
    set.parse_str(
        r#"{"type":"record","name":"n.List","fields":[
            {"name":"top","type":"Top"},
            {"name":"next","type":["null","List"],"default":null}]}"#,
    )
    .unwrap();
    let list = set.get("n.List").unwrap();
    let NamedKind::Record { fields, .. } = &list.kind else {
        panic!("not a record")
    };
    assert_eq!(
        fields[0].schema.kind,
        SchemaKind::Named(Name::new("Top", None))
    );
    assert_eq!(
        set.to_json(&fields[1].schema),
        json!(["null", {"type":"record","name":"List","namespace":"n","fields":[
            {"name":"top","type":{"type":"fixed","name":"Top","namespace":"","size":2}},
            {"name":"next","type":["null","List"],"default":null}]}])
    );
}

#[test]
fn aliases_are_full_names_relative_to_the_type_namespace() {
    let mut set = SchemaSet::new();
    set.parse_str(r#"{"type":"fixed","name":"a.b","aliases":["c","x.y"],"size":1}"#)
        .unwrap();
    let aliases: Vec<String> = set
        .get("a.b")
        .unwrap()
        .aliases
        .iter()
        .map(Name::full_name)
        .collect();
    assert_eq!(aliases, ["a.c", "x.y"]);
}

#[test]
fn valid_logical_types_are_recognised_and_invalid_ones_stay_properties() {
    let mut set = SchemaSet::new();
    let cases = [
        (
            json!({"type":"int","logicalType":"date"}),
            Some(LogicalType::Date),
        ),
        (
            json!({"type":"long","logicalType":"timestamp-micros"}),
            Some(LogicalType::TimestampMicros),
        ),
        (
            json!({"type":"bytes","logicalType":"decimal","precision":4,"scale":2}),
            Some(LogicalType::Decimal {
                precision: 4,
                scale: 2,
            }),
        ),
        (
            json!({"type":"bytes","logicalType":"decimal","precision":4}),
            Some(LogicalType::Decimal {
                precision: 4,
                scale: 0,
            }),
        ),
        (
            json!({"type":"bytes","logicalType":"decimal","precision":2,"scale":3}),
            None,
        ),
        (
            json!({"type":"bytes","logicalType":"decimal","precision":0}),
            None,
        ),
        (json!({"type":"string","logicalType":"date"}), None),
        (json!({"type":"string","logicalType":"my-own"}), None),
        (
            json!({"type":"string","logicalType":"uuid"}),
            Some(LogicalType::Uuid),
        ),
    ];
    for (json, expected) in cases {
        let schema = set.parse_value(&json).unwrap();
        assert_eq!(schema.logical_type, expected, "{json}");
        assert_eq!(
            schema.props.contains_key("logicalType"),
            expected.is_none(),
            "{json}"
        );
    }
    // On fixed: a decimal must fit the size (8 bytes hold 18 digits), uuid needs 16 bytes.
    for (json, expected) in [
        (
            json!({"type":"fixed","name":"D18","size":8,"logicalType":"decimal","precision":18}),
            Some(LogicalType::Decimal {
                precision: 18,
                scale: 0,
            }),
        ),
        (
            json!({"type":"fixed","name":"D19","size":8,"logicalType":"decimal","precision":19}),
            None,
        ),
        (
            json!({"type":"fixed","name":"U","size":16,"logicalType":"uuid"}),
            Some(LogicalType::Uuid),
        ),
        (
            json!({"type":"fixed","name":"U15","size":15,"logicalType":"uuid"}),
            None,
        ),
        (
            json!({"type":"fixed","name":"Dur","size":12,"logicalType":"duration"}),
            Some(LogicalType::Duration),
        ),
    ] {
        let name = json["name"].as_str().unwrap().to_owned();
        set.parse_value(&json).unwrap();
        assert_eq!(set.get(&name).unwrap().logical_type, expected, "{json}");
    }
}

#[test]
fn json_writing_keeps_everything_in_java_key_order() {
    let mut set = SchemaSet::new();
    let input = json!({"type":"record","name":"R","namespace":"n","doc":"d","fields":[
        {"name":"f","type":{"type":"bytes","logicalType":"decimal","precision":4,"scale":2},
         "doc":"fd","default":"\u{0}","order":"descending","aliases":["g"],"x-prop":1},
        {"name":"e","type":{"type":"enum","name":"E","namespace":"other","symbols":["A"],"default":"A","p":true}},
        {"name":"e2","type":"other.E"}],
        "custom":"c","aliases":["Old"]});
    let schema = set.parse_value(&input).unwrap();
    let written = set.to_json(&schema);
    assert_eq!(written, input);
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        keys(&written),
        [
            "type",
            "name",
            "namespace",
            "doc",
            "fields",
            "custom",
            "aliases"
        ]
    );
    assert_eq!(
        keys(&written["fields"][0]),
        ["name", "type", "doc", "default", "order", "aliases", "x-prop"]
    );
    assert_eq!(
        keys(&written["fields"][0]["type"]),
        ["type", "logicalType", "precision", "scale"]
    );
    // Standalone, the enum is written with its own namespace, once.
    assert_eq!(
        set.named_to_json("other.E").unwrap(),
        json!({"type":"enum","name":"E","namespace":"other","symbols":["A"],"default":"A","p":true})
    );
}

/// A type's definition alone names the types it holds, even at their first use, so that it
/// reads back as the same type once they are registered: a null-namespace type inside a
/// namespace takes a leading dot, which the name rules read as the null namespace.
#[test]
fn a_definition_alone_names_the_types_it_holds() {
    let mut set = SchemaSet::new();
    let schema = json!({"type": "record", "name": "Order", "namespace": "shop", "fields": [
        {"name": "plain", "type": {"type": "fixed", "name": "Plain", "namespace": "", "size": 1}},
        {"name": "line", "type": {"type": "record", "name": "Line", "fields": [
            {"name": "plain", "type": ".Plain"}]}},
        {"name": "lines", "type": {"type": "array", "items": "Line"}},
    ]});
    set.parse_value(&schema).unwrap();
    assert_eq!(
        set.definition_to_json("shop.Order").unwrap(),
        json!({"type": "record", "name": "Order", "namespace": "shop", "fields": [
            {"name": "plain", "type": ".Plain"},
            {"name": "line", "type": "Line"},
            {"name": "lines", "type": {"type": "array", "items": "Line"}},
        ]})
    );
    assert_eq!(set.definition_to_json("shop.Missing"), None);
    let union = set
        .parse_value(&json!(["null", "shop.Line", "Plain"]))
        .unwrap();
    assert_eq!(
        set.to_json_by_name(&union),
        json!(["null", "shop.Line", "Plain"])
    );
}
