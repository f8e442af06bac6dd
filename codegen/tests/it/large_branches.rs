//! Large generated types behind a union branch are boxed, so a one-byte `null` does not
//! commit the whole size of the type; small ones keep their plain `Option<T>`.

use avdl2rs_codegen::{Generator, Options};

/// `Big` has 20 longs (160 bytes); `Small` two ints.
const SCHEMA: &str = r#"{"type":"record","name":"Holder","fields":[
  {"name":"big","type":["null",{"type":"record","name":"Big","fields":[
    {"name":"l0","type":"long"},{"name":"l1","type":"long"},{"name":"l2","type":"long"},
    {"name":"l3","type":"long"},{"name":"l4","type":"long"},{"name":"l5","type":"long"},
    {"name":"l6","type":"long"},{"name":"l7","type":"long"},{"name":"l8","type":"long"},
    {"name":"l9","type":"long"},{"name":"l10","type":"long"},{"name":"l11","type":"long"},
    {"name":"l12","type":"long"},{"name":"l13","type":"long"},{"name":"l14","type":"long"},
    {"name":"l15","type":"long"},{"name":"l16","type":"long"},{"name":"l17","type":"long"},
    {"name":"l18","type":"long"},{"name":"l19","type":"long"}]}]},
  {"name":"small","type":["null",{"type":"record","name":"Small","fields":[
    {"name":"a","type":"int"},{"name":"b","type":"int"}]}]},
  {"name":"items","type":{"type":"array","items":["null","Big"]}},
  {"name":"either","type":["Small","Big"]},
  {"name":"plain","type":"Big"}]}"#;

fn generated() -> String {
    let mut generator = Generator::new(Options::default());
    generator.add_schema_json(SCHEMA, "holder.avsc").unwrap();
    generator.generate().unwrap()
}

/// The generated code without whitespace, to match types across line breaks.
fn compact(code: &str) -> String {
    code.split_whitespace().collect()
}

#[test]
fn large_types_in_union_branches_are_boxed() {
    let code = compact(&generated());
    let boxed_option = "Option<Box<Big>>";
    assert!(code.contains(&format!("pubbig:{boxed_option}")), "{code}");
    assert!(
        code.contains(&format!("pubitems:Vec<{boxed_option}>")),
        "{code}"
    );
    assert!(code.contains("Big(Box<Big>)"), "{code}");
    // Small types, and a large one outside a union, are held directly.
    assert!(code.contains("pubsmall:Option<Small>"), "{code}");
    assert!(code.contains("Small(Small)"), "{code}");
    assert!(code.contains("pubplain:Big"), "{code}");
}
