//! Schema JSON (`.avsc`, `.avpr`) as the schema model parses it, with what must hold of
//! every schema it accepts: its Parsing Canonical Form parses to the same form and
//! fingerprint, the JSON it writes parses to the same form, and it can read its own data
//! (no incompatibility, a resolution plan).
#![no_main]

use avdl2rs::compat::{can_read, SchemaRef};
use avdl2rs::resolve::ResolutionPlan;
use avdl2rs::schema::SchemaSet;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &[u8]| {
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    drop(SchemaSet::new().parse_file_text(text));
    let mut protocols = SchemaSet::new();
    if let Ok(protocol) = protocols.parse_protocol(text) {
        drop(protocols.protocol_to_json(&protocol));
    }
    let mut set = SchemaSet::new();
    let Ok(schema) = set.parse_str(text) else {
        return;
    };
    let canonical = set.canonical_form(&schema);
    let mut again = SchemaSet::new();
    let reparsed = again
        .parse_str(&canonical)
        .unwrap_or_else(|e| panic!("the canonical form {canonical} does not parse: {e}"));
    assert_eq!(again.canonical_form(&reparsed), canonical);
    assert_eq!(again.fingerprint(&reparsed), set.fingerprint(&schema));

    let written = set.to_json(&schema);
    let mut from_written = SchemaSet::new();
    let reparsed = from_written
        .parse_value(&written)
        .unwrap_or_else(|e| panic!("the written {written} does not parse: {e}"));
    assert_eq!(
        from_written.canonical_form(&reparsed),
        canonical,
        "{written}"
    );

    let itself = SchemaRef::new(&set, &schema);
    let problems = can_read(itself, itself);
    assert!(
        problems.is_empty(),
        "{text} cannot read itself: {problems:?}"
    );
    if let Err(e) = ResolutionPlan::new(itself, itself) {
        panic!("{text} has no plan to read itself: {e}");
    }
});
