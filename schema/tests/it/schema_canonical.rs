//! Parsing Canonical Form, rule by rule (Avro specification, "Transforming into Parsing
//! Canonical Form"), and the places where apache-avro departs from it.

use avdl2rs_schema::SchemaSet;

fn canonical(json: &str) -> String {
    let mut set = SchemaSet::new();
    let schema = set
        .parse_str(json)
        .unwrap_or_else(|e| panic!("{json}: {e}"));
    set.canonical_form(&schema)
}

fn apache(json: &str) -> String {
    apache_avro::Schema::parse_str(json)
        .unwrap()
        .canonical_form()
}

#[test]
fn primitives_take_their_simple_form() {
    assert_eq!(canonical(r#"{"type":"int"}"#), r#""int""#);
    assert_eq!(canonical(r#""null""#), r#""null""#);
    assert_eq!(
        canonical(r#"{"type":"array","items":{"type":"long"}}"#),
        r#"{"type":"array","items":"long"}"#
    );
}

#[test]
fn names_become_full_names_and_namespaces_go() {
    assert_eq!(
        canonical(r#"{"type":"fixed","size":16,"namespace":"x.y","name":"md5"}"#),
        r#"{"name":"x.y.md5","type":"fixed","size":16}"#
    );
    assert_eq!(
        canonical(
            r#"{"namespace":"n","type":"record","name":"R","fields":[
                {"name":"e","type":{"type":"enum","name":"E","symbols":["A"]}},
                {"name":"again","type":"E"}]}"#
        ),
        r#"{"name":"n.R","type":"record","fields":[{"name":"e","type":{"name":"n.E","type":"enum","symbols":["A"]}},{"name":"again","type":"n.E"}]}"#
    );
}

#[test]
fn only_parsing_attributes_are_kept_in_the_canonical_order() {
    let json = r#"{"doc":"d","aliases":["Old"],"fields":[
        {"default":1,"order":"descending","doc":"x","aliases":["y"],"custom":3,"type":"int","name":"a"},
        {"name":"d","type":{"logicalType":"date","type":"int"}},
        {"name":"m","type":{"values":"bytes","type":"map","p":1}}],
        "name":"R","type":"record","custom":true}"#;
    assert_eq!(
        canonical(json),
        r#"{"name":"R","type":"record","fields":[{"name":"a","type":"int"},{"name":"d","type":"int"},{"name":"m","type":{"type":"map","values":"bytes"}}]}"#
    );
    assert_eq!(
        canonical(r#"{"type":"enum","name":"E","symbols":["A","B"],"default":"A","doc":"d"}"#),
        r#"{"name":"E","type":"enum","symbols":["A","B"]}"#
    );
}

#[test]
fn escapes_are_replaced_by_utf8_and_whitespace_removed() {
    assert_eq!(
        canonical("{ \"type\" : \"enum\", \"name\" : \"\\u00c9t\\u00e9\",\n \"symbols\" : [ \"\\u00e9\" ] }"),
        "{\"name\":\"Été\",\"type\":\"enum\",\"symbols\":[\"é\"]}"
    );
}

#[test]
fn errors_are_records_in_canonical_form() {
    let mut set = SchemaSet::new();
    let protocol = set
        .parse_protocol(r#"{"protocol":"P","types":[{"type":"error","name":"Oops","fields":[]}]}"#)
        .unwrap();
    assert_eq!(
        set.canonical_form(&protocol.types[0]),
        r#"{"name":"Oops","type":"record","fields":[]}"#
    );
}

#[test]
fn agrees_with_apache_avro_where_apache_avro_follows_the_specification() {
    let cases = [
        r#"{"type":"record","name":"a.R","fields":[{"name":"f","type":["null",{"type":"array","items":"R"}]}]}"#,
        r#"{"type":"map","values":{"type":"fixed","name":"F","namespace":"q","size":3,"aliases":["G"]}}"#,
        r#"["null","string",{"type":"enum","name":"E","symbols":["X","Y"]}]"#,
    ];
    for json in cases {
        assert_eq!(canonical(json), apache(json), "{json}");
    }
}

/// apache-avro keeps a field's `order` in the canonical form. The specification's [STRIP]
/// rule keeps only `type, name, fields, symbols, items, values, size`, and the Java reference
/// (`SchemaNormalization`) drops `order`; `order` changes sorting, not parsing, so two schemas
/// differing only in it read the same bytes and must have the same form. We follow the
/// specification.
#[test]
fn apache_avro_keeps_field_order_where_the_specification_strips_it() {
    let json =
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int","order":"ignore"}]}"#;
    assert_eq!(
        canonical(json),
        r#"{"name":"R","type":"record","fields":[{"name":"a","type":"int"}]}"#
    );
    assert_eq!(
        apache(json),
        r#"{"name":"R","type":"record","fields":[{"name":"a","type":"int","order":"ignore"}]}"#
    );
}

/// apache-avro writes a primitive that carries a (stripped) logical type as
/// `{"type":"int"}`; the [PRIMITIVES] rule asks for the simple form `"int"`, which is what
/// the Java reference writes.
#[test]
fn apache_avro_keeps_logical_primitives_as_objects_where_the_specification_simplifies_them() {
    let json = r#"{"type":"int","logicalType":"date"}"#;
    assert_eq!(canonical(json), r#""int""#);
    assert_eq!(apache(json), r#"{"type":"int"}"#);
}

/// apache-avro keeps a decimal's `precision` and `scale` in the canonical form. [STRIP]
/// removes them (they are not among the parsing attributes, and the logical type is stripped
/// too), as the Java reference does: a decimal is read as its underlying `bytes`.
#[test]
fn apache_avro_keeps_decimal_attributes_where_the_specification_strips_them() {
    let json = r#"{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}"#;
    assert_eq!(canonical(json), r#""bytes""#);
    assert_eq!(apache(json), r#"{"type":"bytes","precision":4,"scale":2}"#);
}

/// The fingerprint is CRC-64-AVRO of the canonical form; the example of apache-avro's `rabin`
/// documentation (`"hello world"` → 2906301498937520992) pins the algorithm, and a schema's
/// fingerprint is that of its form.
#[test]
fn fingerprint_is_the_rabin_of_the_canonical_form() {
    assert_eq!(
        avdl2rs_schema::fingerprint::rabin_fingerprint(b"hello world"),
        2906301498937520992
    );
    let mut set = SchemaSet::new();
    let schema = set
        .parse_str(r#"{"type":"fixed","name":"F","size":2,"doc":"ignored"}"#)
        .unwrap();
    let form = set.canonical_form(&schema);
    assert_eq!(
        set.fingerprint(&schema),
        avdl2rs_schema::fingerprint::rabin_fingerprint(form.as_bytes())
    );
    let mut other = SchemaSet::new();
    let plain = other
        .parse_str(r#"{"type":"fixed","name":"F","size":2}"#)
        .unwrap();
    assert_eq!(other.fingerprint(&plain), set.fingerprint(&schema));
}
