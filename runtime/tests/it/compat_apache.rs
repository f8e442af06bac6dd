//! Differential test of `compat::can_read` against apache-avro's `SchemaCompatibility` on a
//! corpus of schema pairs (ours, and every conformance schema against itself). apache-avro
//! answers `Full`, `Partial` (only some values resolve — the specification and the Schema
//! Registry call that incompatible) or an error; only `Full` counts as compatible.
//! The pairs where the two disagree are listed, with the reason, in `known_disagreements`.

use apache_avro::schema_compatibility::{Compatibility, SchemaCompatibility};
use avdl2rs::compat::{can_read, SchemaRef};
use avdl2rs::schema::{Schema, SchemaSet};
use avdl2rs_tests::conformance_files;

fn ours(reader: &str, writer: &str) -> bool {
    let (mut rs, mut ws) = (SchemaSet::new(), SchemaSet::new());
    let r: Schema = rs
        .parse_str(reader)
        .unwrap_or_else(|e| panic!("{reader}: {e}"));
    let w: Schema = ws
        .parse_str(writer)
        .unwrap_or_else(|e| panic!("{writer}: {e}"));
    can_read(SchemaRef::new(&rs, &r), SchemaRef::new(&ws, &w)).is_empty()
}

fn apache(reader: &str, writer: &str) -> bool {
    let r = apache_avro::Schema::parse_str(reader).unwrap();
    let w = apache_avro::Schema::parse_str(writer).unwrap();
    matches!(
        SchemaCompatibility::can_read(&w, &r),
        Ok(Compatibility::Full)
    )
}

const PAIRS: &[(&str, &str)] = &[
    (r#""long""#, r#""int""#),
    (r#""int""#, r#""long""#),
    (r#""double""#, r#""float""#),
    (r#""float""#, r#""double""#),
    (r#""bytes""#, r#""string""#),
    (r#""string""#, r#""bytes""#),
    (r#""string""#, r#""int""#),
    (r#""boolean""#, r#""null""#),
    (r#"["null","string"]"#, r#""string""#),
    (r#""string""#, r#"["null","string"]"#),
    (r#"["null","long"]"#, r#"["int","null"]"#),
    (r#"["null","string"]"#, r#"["null","int"]"#),
    (
        r#"{"type":"array","items":"long"}"#,
        r#"{"type":"array","items":"int"}"#,
    ),
    (
        r#"{"type":"map","values":"int"}"#,
        r#"{"type":"map","values":"long"}"#,
    ),
    (
        r#"{"type":"map","values":"int"}"#,
        r#"{"type":"array","items":"int"}"#,
    ),
    (
        r#"{"type":"fixed","name":"F","size":4}"#,
        r#"{"type":"fixed","name":"F","size":4}"#,
    ),
    (
        r#"{"type":"fixed","name":"F","size":4}"#,
        r#"{"type":"fixed","name":"F","size":8}"#,
    ),
    (
        r#"{"type":"fixed","name":"a.F","size":4}"#,
        r#"{"type":"fixed","name":"b.F","size":4}"#,
    ),
    (
        r#"{"type":"enum","name":"E","symbols":["A","B","C"]}"#,
        r#"{"type":"enum","name":"E","symbols":["A","B"]}"#,
    ),
    (
        r#"{"type":"enum","name":"E","symbols":["A","B"]}"#,
        r#"{"type":"enum","name":"E","symbols":["A","B","C"]}"#,
    ),
    (
        r#"{"type":"enum","name":"E","symbols":["A","B"],"default":"A"}"#,
        r#"{"type":"enum","name":"E","symbols":["A","B","C"]}"#,
    ),
    (
        r#"{"type":"enum","name":"E","symbols":["X"]}"#,
        r#"{"type":"enum","name":"E","symbols":["A"]}"#,
    ),
    (
        r#"{"type":"enum","name":"E","symbols":["A"]}"#,
        r#"{"type":"enum","name":"G","symbols":["A"]}"#,
    ),
    (
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}"#,
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}"#,
    ),
    (
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string"}]}"#,
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}"#,
    ),
    (
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"},{"name":"b","type":"string","default":""}]}"#,
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}"#,
    ),
    (
        r#"{"type":"record","name":"R","fields":[{"name":"z","type":"long","aliases":["a"]}]}"#,
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}"#,
    ),
    (
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"string"}]}"#,
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}"#,
    ),
    (
        r#"{"type":"record","name":"R","fields":[{"name":"a","type":"int"}]}"#,
        r#"{"type":"record","name":"S","fields":[{"name":"a","type":"int"}]}"#,
    ),
    (
        r#"{"type":"record","name":"L","fields":[{"name":"v","type":"long"},{"name":"n","type":["null","L"]}]}"#,
        r#"{"type":"record","name":"L","fields":[{"name":"v","type":"int"},{"name":"n","type":["null","L"]}]}"#,
    ),
    (
        r#"{"type":"long","logicalType":"timestamp-millis"}"#,
        r#""long""#,
    ),
    (
        r#"{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}"#,
        r#"{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}"#,
    ),
    (
        r#"{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}"#,
        r#"{"type":"bytes","logicalType":"decimal","precision":5,"scale":2}"#,
    ),
];

#[test]
fn agrees_with_apache_avro_on_the_pair_corpus() {
    for (reader, writer) in PAIRS {
        assert_eq!(
            ours(reader, writer),
            apache(reader, writer),
            "reader {reader} writer {writer}"
        );
    }
}

#[test]
fn every_conformance_schema_reads_itself_in_both_implementations() {
    let files = conformance_files("schemas", &["avsc"]);
    assert!(
        !files.is_empty(),
        "no .avsc in the conformance schemas folders"
    );
    for path in files {
        let json = std::fs::read_to_string(&path).unwrap();
        assert!(ours(&json, &json), "{}", path.display());
        assert!(apache(&json, &json), "{}", path.display());
    }
}

#[test]
fn every_named_type_of_the_conformance_protocols_reads_itself_in_both_implementations() {
    let mut checked = 0;
    for sub in ["schemas", "idl/output"] {
        for path in conformance_files(sub, &["avpr"]) {
            let mut set = SchemaSet::new();
            set.parse_protocol(&std::fs::read_to_string(&path).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for named in set.iter() {
                let json = set
                    .named_to_json(&named.name.full_name())
                    .unwrap()
                    .to_string();
                // apache-avro does not know protocol `error` types.
                if json.contains(r#""type":"error""#) {
                    continue;
                }
                assert!(ours(&json, &json), "{}: {json}", path.display());
                assert!(apache(&json, &json), "{}: {json}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

/// Where apache-avro and this crate disagree, and why this crate follows the specification.
#[test]
fn known_disagreements() {
    // 1. Record renamed with an alias. The specification ("Aliases") lets the reader's aliases
    //    rename the writer's type; apache-avro compares the unqualified names only.
    let renamed =
        r#"{"type":"record","name":"New","aliases":["Old"],"fields":[{"name":"a","type":"int"}]}"#;
    let old = r#"{"type":"record","name":"Old","fields":[{"name":"a","type":"int"}]}"#;
    assert!(ours(renamed, old));
    assert!(!apache(renamed, old));

    // 2. A bytes decimal read as a fixed decimal of the same precision and scale. The bytes
    //    are encoded differently (a length prefix, or none), and the specification only
    //    matches fixed with fixed; apache-avro compares the decimal parameters and says Full.
    let fixed =
        r#"{"type":"fixed","name":"D","size":8,"logicalType":"decimal","precision":4,"scale":2}"#;
    let bytes = r#"{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}"#;
    assert!(!ours(fixed, bytes));
    assert!(apache(fixed, bytes));
}
