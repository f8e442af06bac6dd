//! Enums of one of several named types (the runtime's `OneOf`): asked for by
//! `Options::one_of`, or written for a top-level union of named types; where they go, what
//! they hold, and the errors of asking for one that cannot be.

use avdl2rs_codegen::{Error, Generator, Options};

/// Two records of `shop`, an enum of `audit` and a fixed with a logical type.
const TYPES: &str = r#"{"protocol": "Shop", "namespace": "shop", "types": [
  {"type": "record", "name": "Created", "fields": [{"name": "id", "type": "long"}]},
  {"type": "record", "name": "Paid", "fields": [
    {"name": "id", "type": "long"}, {"name": "amount", "type": "double"},
    {"name": "how", "type": ["string", "long"]}]},
  {"type": "enum", "name": "Status", "namespace": "audit", "symbols": ["OPEN", "CLOSED"]},
  {"type": "fixed", "name": "Amount", "size": 8, "logicalType": "decimal", "precision": 10}]}"#;

/// A top-level union of the two records.
const UNION: &str = r#"[
  {"type": "record", "name": "Created", "namespace": "shop", "fields": [{"name": "id", "type": "long"}]},
  {"type": "record", "name": "Paid", "namespace": "shop", "fields": [{"name": "id", "type": "long"}]}]"#;

fn generate(options: Options, json: &str, origin: &str) -> Result<String, Error> {
    let mut generator = Generator::new(options);
    generator.add_schema_json(json, origin)?;
    generator.generate()
}

/// The generated code without whitespace, to match items across line breaks.
fn compact(code: &str) -> String {
    code.split_whitespace().collect()
}

/// The text of the module `name` (its first occurrence), up to the next top-level module.
fn module<'a>(code: &'a str, name: &str) -> &'a str {
    let start = code
        .find(&format!("pubmod{name}{{"))
        .unwrap_or_else(|| panic!("no module {name} in {code}"));
    &code[start..]
}

fn invalid_option(result: Result<String, Error>) -> String {
    match result {
        Err(Error::InvalidOption { message }) => message,
        other => panic!("expected an invalid option, got {other:?}"),
    }
}

#[test]
fn an_enum_of_the_options_holds_each_type_in_its_namespace_module() {
    let options = Options::default().one_of("shop.ShopEvent", ["shop.Paid", "audit.Status"]);
    let code = compact(&generate(options, TYPES, "shop.avpr").unwrap());
    let shop = module(&code, "shop");
    assert!(
        shop.contains("pubenumShopEvent{///Amessageof`shop.Paid`.Paid(Paid),///Amessageof`audit.Status`.Status(super::audit::Status),}"),
        "{code}"
    );
    assert!(shop.contains("///Avalueofoneofthetypes`shop.Paid`,`audit.Status`"));
    assert!(shop.contains("impl::avdl2rs::OneOfforShopEvent"));
    assert!(shop.contains("impl::avdl2rs::resolve::ResolvableforShopEvent"));
    assert!(shop.contains(
        "constVARIANTS:&'static[&'staticstr]=&[<Paidas::avdl2rs::AvroSchema>::FULL_NAME,<super::audit::Statusas::avdl2rs::AvroSchema>::FULL_NAME,];"
    ));
    assert!(shop.contains("constCATCH_ALL:bool=false;"));
    assert!(shop.contains("#[derive(Debug,Clone,PartialEq)]pubenumShopEvent"));
}

#[test]
fn an_undotted_name_goes_to_the_root_and_is_re_exported() {
    let options = Options::default().one_of("Events", ["shop.Created", "shop.Paid"]);
    let code = compact(&generate(options, TYPES, "shop.avpr").unwrap());
    assert!(code.contains("pubuseself::__root::Events;"), "{code}");
    assert!(
        code.contains("Created(super::shop::Created),")
            && code.contains("Paid(super::shop::Paid),"),
        "{code}"
    );
}

#[test]
fn the_catch_all_variant_holds_a_generic_record() {
    let options = Options::default().one_of_with_other("shop.Any", ["shop.Created"]);
    let code = compact(&generate(options, TYPES, "shop.avpr").unwrap());
    assert!(
        code.contains("Created(Created),///Arecordofawritertypenoothervariantis(read,neverwritten).Other(::avdl2rs::generic::GenericRecord),}"),
        "{code}"
    );
    assert!(code.contains("constCATCH_ALL:bool=true;"));
    assert!(code.contains("::core::option::Option::Some(Any::Other(record))"));
}

#[test]
fn a_top_level_union_of_named_types_gets_an_enum_named_after_its_file() {
    let code = compact(&generate(Options::default(), UNION, "schemas/order_events.avsc").unwrap());
    assert!(code.contains("pubuseself::__root::OrderEvents;"), "{code}");
    assert!(
        code.contains("///Thetop-levelunionof`order_events.avsc`"),
        "{code}"
    );
    assert!(code.contains(
        "pubenumOrderEvents{///Amessageof`shop.Created`.Created(super::shop::Created),///Amessageof`shop.Paid`.Paid(super::shop::Paid),}"
    ));
}

#[test]
fn an_enum_of_the_options_with_the_same_types_replaces_the_union_s_own() {
    let options = Options::default().one_of("shop.OrderEvent", ["shop.Paid", "shop.Created"]);
    let code = compact(&generate(options, UNION, "order_events.avsc").unwrap());
    assert!(!code.contains("OrderEvents"), "{code}");
    assert!(code.contains("pubenumOrderEvent{///Amessageof`shop.Paid`.Paid(Paid),"));
}

#[test]
fn a_top_level_union_with_a_branch_of_no_name_gets_no_enum() {
    let json = r#"["null", {"type": "record", "name": "A", "fields": []}]"#;
    let code = generate(Options::default(), json, "maybe.avsc").unwrap();
    assert!(!code.contains("Maybe"), "{code}");
    assert!(!code.contains("OneOf"), "{code}");
}

#[test]
fn the_file_name_of_a_union_gets_a_number_when_a_root_type_has_it() {
    let json = r#"[{"type": "record", "name": "Order", "fields": []},
                   {"type": "record", "name": "Refund", "fields": []}]"#;
    let code = compact(&generate(Options::default(), json, "order.avsc").unwrap());
    assert!(code.contains("pubstructOrder{}"), "{code}");
    assert!(code.contains("pubenumOrder2{"), "{code}");
}

#[test]
fn a_union_enum_named_from_a_field_does_not_take_the_enum_s_name() {
    let json = r#"{"type": "record", "name": "Box", "fields": [
        {"name": "item", "type": ["int", {"type": "record", "name": "Thing", "fields": []}]}]}"#;
    let options = Options::default().one_of("BoxItem", ["Thing"]);
    let code = compact(&generate(options, json, "box.avsc").unwrap());
    assert!(
        code.contains("pubenumBoxItem{///Amessageof`Thing`."),
        "{code}"
    );
    assert!(code.contains("pubitem:BoxItem2,"), "{code}");
}

#[test]
fn an_idl_schema_union_gets_an_enum_and_a_file_of_declarations_does_not() {
    let dir = std::env::temp_dir().join(format!("avdl2rs-one-of-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let declarations = "record Created { long id; }\nrecord Paid { long id; }\n";
    let union = dir.join("shop_events.avdl");
    let schema = "namespace shop;\nschema union { Created, Paid };\n";
    std::fs::write(&union, format!("{schema}{declarations}")).unwrap();
    let plain = dir.join("shop_types.avdl");
    std::fs::write(&plain, format!("namespace shop;\n{declarations}")).unwrap();
    let generated = |path: &std::path::Path| {
        let mut generator = Generator::new(Options::default());
        generator.add_file(path, &[]).unwrap();
        compact(&generator.generate().unwrap())
    };
    let code = generated(&union);
    assert!(
        code.contains(
            "pubenumShopEvents{///Amessageof`shop.Created`.Created(super::shop::Created),"
        ),
        "{code}"
    );
    assert!(!generated(&plain).contains("OneOf"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_name_that_is_no_named_type_is_an_error() {
    let message = invalid_option(generate(
        Options::default().one_of("E", ["shop.Created", "shop.Refunded"]),
        TYPES,
        "shop.avpr",
    ));
    assert_eq!(
        message,
        "one-of enum `E`: `shop.Refunded` is no named type of the schemas"
    );
}

#[test]
fn a_primitive_or_a_logical_fixed_is_an_error() {
    let primitive = invalid_option(generate(
        Options::default().one_of("E", ["string"]),
        TYPES,
        "shop.avpr",
    ));
    assert!(
        primitive.starts_with("one-of enum `E`: `string` is not a named type"),
        "{primitive}"
    );
    let fixed = invalid_option(generate(
        Options::default().one_of("E", ["shop.Amount"]),
        TYPES,
        "shop.avpr",
    ));
    assert_eq!(
        fixed,
        "one-of enum `E`: `shop.Amount` is a fixed with a logical type, which has no Rust type of its own"
    );
}

#[test]
fn an_empty_name_part_a_type_listed_twice_no_types_or_a_taken_name_are_errors() {
    let cases: [(Options, &str); 6] = [
        (
            Options::default().one_of("", ["shop.Paid"]),
            "one-of enum ``: the name has an empty part (a dotted name is `namespace.Name`)",
        ),
        (
            Options::default().one_of("shop..E", ["shop.Paid"]),
            "one-of enum `shop..E`: the name has an empty part (a dotted name is `namespace.Name`)",
        ),
        (
            Options::default().one_of("E", ["shop.Paid", "shop.Paid"]),
            "one-of enum `E`: `shop.Paid` is listed twice",
        ),
        (
            Options::default().one_of("E", Vec::<String>::new()),
            "one-of enum `E`: it lists no types",
        ),
        (
            Options::default().one_of("shop.Created", ["shop.Paid"]),
            "one-of enum `shop.Created`: the name `Created` is taken by another generated type",
        ),
        (
            Options::default()
                .one_of("E", ["shop.Paid"])
                .one_of("E", ["shop.Created"]),
            "one-of enum `E`: the name `E` is taken by another generated type",
        ),
    ];
    for (options, expected) in cases {
        assert_eq!(
            invalid_option(generate(options, TYPES, "shop.avpr")),
            expected
        );
    }
}
