//! The `schema!` items of generated and derived types, written here by hand: the texts the
//! compiler assembles from the nodes equal the schema model's, for types holding each other
//! across namespaces, recursion, unions and logical fixed types, with lengths computed and
//! with lengths given.

#![forbid(unsafe_code)]

use avdl2rs::schema::{Schema, SchemaSet};
use avdl2rs::AvroSchema;
use serde_json::json;

// `shop.Money` holds `Currency` of the null namespace; `shop.Line` holds `Money` twice and a
// fixed under a logical type; `shop.Tree` holds itself and `Line`; `other.Audit` holds `Tree`
// from another namespace.
struct Currency;
struct Money;
struct Line;
struct Tree;
struct TreeChild;
struct Audit;

avdl2rs::__private::schema!(
    Currency,
    r#"{"type":"enum","name":"Currency","symbols":["EUR"]}"#,
    r#"{"name":"Currency","type":"enum","symbols":["EUR"]}"#
);
avdl2rs::__private::schema!(
    Money,
    [
        r#"{"type":"record","name":"Money","namespace":"shop","fields":[{"name":"currency","type":"#,
        (Currency),
        r#"}]}"#
    ],
    [
        r#"{"name":"shop.Money","type":"record","fields":[{"name":"currency","type":"#,
        (Currency),
        r#"}]}"#
    ]
);
avdl2rs::__private::schema!(
    Line,
    fixed Id = (
        r#"{"type":"fixed","name":"Id","namespace":"shop","size":16,"logicalType":"uuid"}"#,
        r#"{"name":"shop.Id","type":"fixed","size":16}"#
    ),
    [
        r#"{"type":"record","name":"Line","namespace":"shop","doc":"A line.","fields":[{"name":"price","type":"#,
        (Money),
        r#"},{"name":"discount","type":["null","#,
        (Money),
        r#"]},{"name":"id","type":"#,
        (fixed Id),
        r#"}]}"#
    ],
    [
        r#"{"name":"shop.Line","type":"record","fields":[{"name":"price","type":"#,
        (Money),
        r#"},{"name":"discount","type":["null","#,
        (Money),
        r#"]},{"name":"id","type":"#,
        (fixed Id),
        r#"}]}"#
    ]
);
avdl2rs::__private::schema!(
    union TreeChild,
    [r#"["null","#, (Tree), r#","string"]"#]
);
avdl2rs::__private::schema!(
    Tree,
    [
        r#"{"type":"record","name":"Tree","namespace":"shop","fields":[{"name":"child","type":"#,
        (TreeChild),
        r#"},{"name":"lines","type":{"type":"array","items":"#,
        (Line),
        r#"}}]}"#
    ],
    [
        r#"{"name":"shop.Tree","type":"record","fields":[{"name":"child","type":"#,
        (TreeChild),
        r#"},{"name":"lines","type":{"type":"array","items":"#,
        (Line),
        r#"}}]}"#
    ]
);
avdl2rs::__private::schema!(
    Audit,
    [
        r#"{"type":"record","name":"Audit","namespace":"other","fields":[{"name":"tree","type":"#,
        (Tree),
        r#"},{"name":"money","type":"#,
        (Money),
        r#"}]}"#
    ],
    [
        r#"{"name":"other.Audit","type":"record","fields":[{"name":"tree","type":"#,
        (Tree),
        r#"},{"name":"money","type":"#,
        (Money),
        r#"}]}"#
    ],
    json_len = 629,
    canonical_len = 574,
    fingerprint = 12609935715599558042
);

/// The schema model's standalone texts and fingerprint of `full_name` in `protocol`.
fn model_texts(full_name: &str) -> (String, String, u64) {
    let protocol = json!({"protocol": "P", "types": [
        {"type": "enum", "name": "Currency", "symbols": ["EUR"]},
        {"type": "record", "name": "Money", "namespace": "shop", "fields": [
            {"name": "currency", "type": ".Currency"}]},
        {"type": "fixed", "name": "Id", "namespace": "shop", "size": 16, "logicalType": "uuid"},
        {"type": "record", "name": "Line", "namespace": "shop", "doc": "A line.", "fields": [
            {"name": "price", "type": "shop.Money"},
            {"name": "discount", "type": ["null", "shop.Money"]},
            {"name": "id", "type": "shop.Id"}]},
        {"type": "record", "name": "Tree", "namespace": "shop", "fields": [
            {"name": "child", "type": ["null", "shop.Tree", "string"]},
            {"name": "lines", "type": {"type": "array", "items": "shop.Line"}}]},
        {"type": "record", "name": "Audit", "namespace": "other", "fields": [
            {"name": "tree", "type": "shop.Tree"},
            {"name": "money", "type": "shop.Money"}]},
    ]});
    let mut set = SchemaSet::new();
    set.parse_file_value(&protocol).unwrap();
    let named = set.get(full_name).unwrap();
    let schema = Schema::named(named.name.clone());
    (
        set.named_to_json(full_name).unwrap().to_string(),
        set.canonical_form(&schema),
        set.fingerprint(&schema),
    )
}

fn assert_model_texts<T: AvroSchema>() {
    let (json, canonical, fingerprint) = model_texts(T::FULL_NAME);
    assert_eq!(T::SCHEMA_JSON, json, "{}", T::FULL_NAME);
    assert_eq!(T::CANONICAL_FORM, canonical, "{}", T::FULL_NAME);
    assert_eq!(T::FINGERPRINT, fingerprint, "{}", T::FULL_NAME);
}

#[test]
fn assembled_texts_are_the_schema_models() {
    assert_model_texts::<Currency>();
    assert_model_texts::<Money>();
    assert_model_texts::<Line>();
    assert_model_texts::<Tree>();
    assert_model_texts::<Audit>();
}

#[test]
fn a_leaf_type_has_its_two_texts_and_unions_have_only_a_node() {
    assert_eq!(
        Currency::SCHEMA_JSON,
        r#"{"type":"enum","name":"Currency","symbols":["EUR"]}"#
    );
    assert_eq!(Money::FULL_NAME, "shop.Money");
    assert!(avdl2rs::__private::NodeRef::of::<TreeChild>().is_union());
    assert!(!avdl2rs::__private::NodeRef::of::<Tree>().is_union());
}
