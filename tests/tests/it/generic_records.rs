//! Generic records (`avdl2rs::generic`) against `apache-avro`, for every named type of every
//! conformance schema and codegen snapshot input (the cases of `codegen_roundtrip.rs`).
//!
//! Per type: random `apache_avro` values of its schema are written by apache-avro; the generic
//! decode of those bytes must be the value `apache_avro::from_avro_datum` reads from them
//! (logical values compared as their base values), and the generic encode must give the bytes
//! back exactly. Hostile inputs must fail with a located error within the decode limits.

#![deny(warnings)]

use apache_avro::reader::datum::GenericDatumReader;
use apache_avro::types::Value;
use apache_avro::writer::datum::GenericDatumWriter;
use avdl2rs::generic::{GenericSchema, GenericValue};
use avdl2rs::DecodeErrorKind;

use crate::codegen_roundtrip::{fnv, has_reordered_map, ValueGen, GENERATED};

const VALUES_PER_TYPE: usize = 100;

#[test]
fn generic_decode_reads_what_apache_avro_reads_and_encodes_the_same_bytes() {
    avdl2rs_tests::on_big_stack(every_case);
}

fn every_case() {
    assert!(
        !GENERATED.is_empty(),
        "build.rs registered no generated type"
    );
    let mut failures = Vec::new();
    for case in GENERATED {
        let schema = crate::generated_differential::apache(case.schema_json).unwrap();
        let generic = GenericSchema::new(case.schema_json).unwrap();
        let writer = GenericDatumWriter::builder(&schema).build().unwrap();
        let reader = GenericDatumReader::builder(&schema).build().unwrap();
        let mut values = ValueGen::new(&schema, fnv(case.full_name) ^ 0x6e6e);
        let mut kept = GenericValue::Null;
        for n in 0..VALUES_PER_TYPE {
            let value = values.value(&schema, 0);
            if let Err(e) = check(
                &writer,
                &reader,
                &generic,
                case.schema_json,
                value,
                &mut kept,
            ) {
                failures.push(format!("{} {} value #{n}: {e}", case.file, case.full_name));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing types:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The same checks on every named type of the examples' IDL files (`examples/*/schemas/`).
#[test]
fn generic_values_of_the_examples_schemas_agree_with_apache_avro() {
    avdl2rs_tests::on_big_stack(every_example_type);
}

fn every_example_type() {
    let mut files = Vec::new();
    collect_idl(
        &avdl2rs_tests::workspace_root().join("examples"),
        &mut files,
    );
    assert!(files.len() >= 5, "the examples' IDL files: {files:?}");
    // An example imports files of another (as its build script's include folders say): any
    // folder of an example's IDL may be searched.
    let mut include_dirs: Vec<_> = files
        .iter()
        .map(|f| f.parent().unwrap().to_path_buf())
        .collect();
    include_dirs.dedup();
    let options = avdl_parser::ParseOptions { include_dirs };
    let mut types = 0;
    for file in &files {
        let idl = avdl_parser::parse_file(file, &options)
            .unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
        for (full_name, json) in idl.named_schemas().unwrap() {
            let schema_json = json.to_string();
            let schema = crate::generated_differential::apache(&schema_json).unwrap();
            let generic = GenericSchema::new(&schema_json).unwrap();
            let writer = GenericDatumWriter::builder(&schema).build().unwrap();
            let reader = GenericDatumReader::builder(&schema).build().unwrap();
            let mut values = ValueGen::new(&schema, fnv(&full_name));
            let mut kept = GenericValue::Null;
            for n in 0..VALUES_PER_TYPE {
                let value = values.value(&schema, 0);
                check(&writer, &reader, &generic, &schema_json, value, &mut kept)
                    .unwrap_or_else(|e| panic!("{} {full_name} #{n}: {e}", file.display()));
            }
            types += 1;
        }
    }
    assert!(types >= 10, "only {types} named types in the examples");
}

/// The `.avdl` files under `dir`, at any depth, skipping build output.
fn collect_idl(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() && !path.ends_with("target") {
            collect_idl(&path, files);
        } else if path.extension().is_some_and(|e| e == "avdl") {
            files.push(path);
        }
    }
    files.sort();
}

/// Writes `value` with apache-avro, and checks the generic decode of the bytes against
/// apache-avro's reading of them and the generic encode against the bytes; a decode into
/// `kept`, the value of the type's previous check, must give the same value.
fn check(
    writer: &GenericDatumWriter<'_>,
    reader: &GenericDatumReader<'_>,
    generic: &GenericSchema,
    schema_json: &str,
    value: Value,
    kept: &mut GenericValue,
) -> Result<(), String> {
    let bytes = writer
        .write_value_to_vec(value)
        .map_err(|e| format!("apache-avro cannot write it: {e}"))?;
    let theirs = reader
        .read_value(&mut bytes.as_slice())
        .map_err(|e| format!("apache-avro cannot read its bytes: {e}"))?;
    let ours = generic
        .decode(&bytes)
        .map_err(|e| format!("generic decode of {bytes:?}: {e}"))?;
    agree(&ours, &theirs, "")?;
    generic
        .decode_into(&bytes, kept)
        .map_err(|e| format!("generic decode_into of {bytes:?}: {e}"))?;
    if *kept != ours {
        return Err(format!("decode_into gives {kept:?}, decode {ours:?}"));
    }
    from_apache(generic, &theirs, &bytes)?;
    let again = generic
        .encode(&ours)
        .map_err(|e| format!("generic encode: {e}"))?;
    if again != bytes {
        return Err(format!(
            "re-encoded bytes differ:\n  apache-avro {bytes:?}\n  generic     {again:?}"
        ));
    }
    // apache-avro writes the converted value as the same bytes, but for the order of map
    // entries, which its `HashMap` does not keep; it refuses the base value of a logical
    // type, which the conversion gives.
    if !schema_json.contains("logicalType") {
        write_converted(writer, &ours, &bytes, &theirs)?;
    }
    // Through Avro's JSON encoding and back, the bytes stay the same.
    let json = generic
        .to_avro_json(&ours)
        .map_err(|e| format!("to_avro_json: {e}"))?;
    let back = generic
        .from_avro_json(&json)
        .map_err(|e| format!("from_avro_json of {json}: {e}"))?;
    if generic.encode(&back).ok() != Some(bytes) {
        return Err(format!(
            "through Avro JSON {json} the value changes to {back:?}"
        ));
    }
    serde_json::to_string(&ours).map_err(|e| format!("serde_json: {e}"))?;
    Ok(())
}

/// Checks that apache-avro writes `ours`, converted to its value, as `bytes` (or, with maps of
/// several entries, as bytes it reads back as `theirs`).
fn write_converted(
    writer: &GenericDatumWriter<'_>,
    ours: &GenericValue,
    bytes: &[u8],
    theirs: &Value,
) -> Result<(), String> {
    let converted = Value::from(ours);
    if has_reordered_map(&converted) {
        return if converted == *theirs {
            Ok(())
        } else {
            Err(format!("converted to {converted:?}, not {theirs:?}"))
        };
    }
    let written = writer
        .write_value_to_vec(converted)
        .map_err(|e| format!("apache-avro cannot write the converted value: {e}"))?;
    if written != bytes {
        return Err(format!(
            "apache-avro writes the converted value as {written:?}, not {bytes:?}"
        ));
    }
    Ok(())
}

/// Checks that apache-avro's reading `theirs` of `bytes`, converted to a generic value, is
/// encoded as `bytes` (or, with maps of several entries, whose order apache-avro's `HashMap`
/// does not keep, that it stands for `theirs`).
fn from_apache(generic: &GenericSchema, theirs: &Value, bytes: &[u8]) -> Result<(), String> {
    let converted = generic
        .from_apache(theirs)
        .map_err(|e| format!("from_apache: {e}"))?;
    agree(&converted, theirs, "")?;
    let encoded = generic
        .encode(&converted)
        .map_err(|e| format!("encode of the value from apache-avro: {e}"))?;
    if encoded != bytes && !has_reordered_map(theirs) {
        return Err(format!(
            "the value from apache-avro encodes as {encoded:?}, not {bytes:?}"
        ));
    }
    Ok(())
}

/// Whether the generic value `ours` is apache-avro's `theirs`, a logical value of theirs
/// standing for its base value; the error names the path where they part.
fn agree(ours: &GenericValue, theirs: &Value, path: &str) -> Result<(), String> {
    let same = match (ours, theirs) {
        (GenericValue::Null, Value::Null) => true,
        (GenericValue::Boolean(a), Value::Boolean(b)) => a == b,
        (GenericValue::Int(a), Value::Int(b) | Value::Date(b) | Value::TimeMillis(b)) => a == b,
        (GenericValue::Long(a), Value::Long(b) | Value::TimeMicros(b)) => a == b,
        (
            GenericValue::Long(a),
            Value::TimestampMillis(b)
            | Value::TimestampMicros(b)
            | Value::TimestampNanos(b)
            | Value::LocalTimestampMillis(b)
            | Value::LocalTimestampMicros(b)
            | Value::LocalTimestampNanos(b),
        ) => a == b,
        (GenericValue::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
        (GenericValue::Double(a), Value::Double(b)) => a.to_bits() == b.to_bits(),
        (GenericValue::Bytes(a), Value::Bytes(b))
        | (GenericValue::Fixed(a), Value::Fixed(_, b)) => a == b,
        (GenericValue::Bytes(a) | GenericValue::Fixed(a), Value::Decimal(b)) => {
            let b = Vec::<u8>::try_from(b).map_err(|e| format!("at {path}: {e}"))?;
            minimal_twos_complement(a) == minimal_twos_complement(&b)
        }
        (GenericValue::String(a), Value::Uuid(b)) => *a == b.to_string(),
        (GenericValue::Fixed(a), Value::Uuid(b)) => a == b.as_bytes(),
        (GenericValue::Fixed(a), Value::Duration(b)) => a[..] == <[u8; 12]>::from(b)[..],
        (GenericValue::String(a), Value::String(b)) => a == b,
        (GenericValue::Enum(a), Value::Enum(index, symbol)) => {
            a.index() == *index as usize && a.symbol() == symbol
        }
        (GenericValue::Union(a, x), Value::Union(b, y)) if a == b => {
            return agree(x, y, &format!("{path}|{a}"));
        }
        (GenericValue::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                agree(x, y, &format!("{path}[{i}]"))?;
            }
            return Ok(());
        }
        (GenericValue::Map(a), Value::Map(b)) if a.len() == b.len() => {
            for (key, x) in a {
                let y = b
                    .get(key)
                    .ok_or_else(|| format!("at {path}: no key {key:?}"))?;
                agree(x, y, &format!("{path}[{key:?}]"))?;
            }
            return Ok(());
        }
        (GenericValue::Record(a), Value::Record(b)) if a.fields().len() == b.len() => {
            for (index, (name, y)) in b.iter().enumerate() {
                let x = a
                    .get(name)
                    .ok_or_else(|| format!("at {path}: no field {name}"))?;
                if a.field(index) != Some(x) {
                    return Err(format!("at {path}: field {name} is not at {index}"));
                }
                agree(x, y, &format!("{path}.{name}"))?;
            }
            return Ok(());
        }
        _ => false,
    };
    if same {
        Ok(())
    } else {
        Err(format!(
            "at {path}: generic {ours:?}, apache-avro {theirs:?}"
        ))
    }
}

/// Two's-complement big-endian bytes without the leading bytes that only repeat the sign.
fn minimal_twos_complement(bytes: &[u8]) -> Vec<u8> {
    let mut start = 0;
    while start + 1 < bytes.len() {
        let (byte, next) = (bytes[start], bytes[start + 1]);
        if (byte == 0 && next & 0x80 == 0) || (byte == 0xff && next & 0x80 != 0) {
            start += 1;
        } else {
            break;
        }
    }
    if bytes.is_empty() {
        vec![0]
    } else {
        bytes[start..].to_vec()
    }
}

const NODE: &str = r#"{"type":"record","name":"t.Node","fields":[
    {"name":"label","type":"string"},
    {"name":"tags","type":{"type":"map","values":{"type":"array","items":"long"}}},
    {"name":"next","type":["null","Node"]}]}"#;

/// Every prefix of a valid encoding is refused as ending too early (or as a length beyond the
/// end), with the path of the value it ended in, and never read as a value.
#[test]
fn truncated_input_is_a_located_end_of_input() {
    let schema = GenericSchema::new(NODE).unwrap();
    // {label "ab", tags {"k": [1, 2]}, next: Node {label "", tags {}, next null}}
    let bytes = [4, b'a', b'b', 2, 2, b'k', 4, 2, 4, 0, 0, 2, 0, 0, 0];
    let value = schema.decode(&bytes).unwrap();
    assert_eq!(schema.encode(&value).unwrap(), bytes);
    for len in 0..bytes.len() {
        let error = schema.decode(&bytes[..len]).unwrap_err();
        assert!(
            matches!(
                error.kind(),
                DecodeErrorKind::UnexpectedEof { .. } | DecodeErrorKind::LengthTooLarge { .. }
            ),
            "prefix of {len}: {error}"
        );
    }
    let error = schema.decode(&bytes[..8]).unwrap_err();
    assert_eq!(error.path(), r#"tags["k"][1]"#);
}

/// A length or count far beyond the input is refused before anything is allocated for it.
#[test]
fn huge_lengths_are_refused_before_allocating() {
    let schema = GenericSchema::new(NODE).unwrap();
    // A label of 2^62 bytes.
    let label = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
    let error = schema.decode(&label).unwrap_err();
    assert!(
        matches!(error.kind(), DecodeErrorKind::LengthTooLarge { .. }),
        "{error}"
    );
    assert_eq!(error.path(), "label");
    // A map block of 2^62 entries.
    let mut tags = vec![0];
    tags.extend_from_slice(&label);
    let error = schema.decode(&tags).unwrap_err();
    assert!(
        matches!(error.kind(), DecodeErrorKind::TooManyItems { .. }),
        "{error}"
    );
    assert_eq!(error.path(), "tags");
}

/// Recursive data nested beyond the depth limit is refused, not read until the stack runs out.
#[test]
fn deep_nesting_stops_at_the_depth_limit() {
    let schema = GenericSchema::new(NODE).unwrap();
    // 100,000 nodes, each {label "", tags {}, next: branch 1}.
    let bytes: Vec<u8> = [0, 0, 2].repeat(100_000);
    let error = schema.decode(&bytes).unwrap_err();
    assert!(
        matches!(
            error.kind(),
            DecodeErrorKind::TooDeep { .. } | DecodeErrorKind::TooMuchStack { .. }
        ),
        "{error}"
    );
    assert!(
        error.path().starts_with("next.next.next"),
        "{}",
        error.path()
    );
}

/// A value that does not fit its schema is refused with its path, and nothing is written.
#[test]
fn encoding_a_value_of_another_schema_names_its_path() {
    let schema = GenericSchema::new(NODE).unwrap();
    let mut value = schema.decode(&[0, 2, 2, b'k', 2, 2, 0, 0, 0]).unwrap();
    let GenericValue::Record(record) = &mut value else {
        panic!("{value:?}")
    };
    let mut fields = record.fields().to_vec();
    fields[1] = GenericValue::Map(vec![(
        "k".into(),
        GenericValue::Array(vec![GenericValue::Int(1)]),
    )]);
    let broken = GenericValue::Record(avdl2rs::generic::GenericRecord::new(
        record.schema().clone(),
        fields,
    ));
    let mut out = vec![7];
    let error = schema.encode_into(&broken, &mut out).unwrap_err();
    assert_eq!(
        error.to_string(),
        r#"cannot encode tags["k"][0]: expected long, found int"#
    );
    assert_eq!(out, [7]);
}

/// An `apache_avro` value that does not fit the schema is refused with the path of the value
/// that does not.
#[test]
fn an_apache_value_of_another_schema_names_its_path() {
    const ORDER: &str = r#"{"type":"record","name":"e.Order","fields":[
        {"name":"lines","type":{"type":"array","items":{"type":"record","name":"e.Line",
            "fields":[{"name":"qty","type":"int"},
                {"name":"unit","type":{"type":"enum","name":"e.Unit","symbols":["KG","PIECE"]}},
                {"name":"note","type":["null","string"]}]}}},
        {"name":"tags","type":{"type":"map","values":"long"}}]}"#;
    let schema = GenericSchema::new(ORDER).unwrap();
    let line = |qty: Value, unit: &str, note: Value| {
        Value::Record(vec![
            ("qty".into(), qty),
            (
                "unit".into(),
                Value::Enum(u32::from(unit == "PIECE"), unit.into()),
            ),
            ("note".into(), note),
        ])
    };
    let order = |second: Value, tag: Value| {
        let good = line(Value::Int(1), "KG", Value::Union(0, Box::new(Value::Null)));
        Value::Record(vec![
            ("lines".into(), Value::Array(vec![good, second])),
            ("tags".into(), Value::Map([("t".to_owned(), tag)].into())),
        ])
    };
    let note = Value::Union(1, Box::new(Value::String("x".into())));
    let fits = order(line(Value::Int(2), "PIECE", note), Value::Long(5));
    let value = schema.from_apache(&fits).unwrap();
    let bytes = schema.encode(&value).unwrap();
    let apache_schema = crate::generated_differential::apache(ORDER).unwrap();
    let writer = GenericDatumWriter::builder(&apache_schema).build().unwrap();
    assert_eq!(bytes, writer.write_value_to_vec(fits).unwrap());
    let plain = order(
        line(Value::Int(2), "PIECE", Value::String("x".into())),
        Value::Long(5),
    );
    assert_eq!(
        schema.from_apache(&plain).unwrap(),
        value,
        "a plain value goes to the union branch it fits"
    );

    let cases = [
        (
            order(
                line(Value::String("2".into()), "KG", Value::Null),
                Value::Long(5),
            ),
            "cannot encode lines[1].qty: expected int, found String",
        ),
        (
            order(line(Value::Int(2), "LITRE", Value::Null), Value::Long(5)),
            r#"cannot encode lines[1].unit: "LITRE" is not a symbol of e.Unit"#,
        ),
        (
            order(line(Value::Int(2), "KG", Value::Long(3)), Value::Long(5)),
            "cannot encode lines[1].note: Long fits no branch of the union",
        ),
        (
            order(
                line(Value::Int(2), "KG", Value::Union(2, Box::new(Value::Null))),
                Value::Long(5),
            ),
            "cannot encode lines[1].note: union branch 2 out of range for 2 branches",
        ),
        (
            order(line(Value::Int(2), "KG", Value::Null), Value::Int(5)),
            r#"cannot encode tags["t"]: expected long, found Int"#,
        ),
    ];
    for (value, expected) in cases {
        assert_eq!(
            schema.from_apache(&value).unwrap_err().to_string(),
            expected
        );
    }
}

/// Writer and reader schemas of one type in two versions, each change one that schema
/// resolution allows.
const EVOLUTIONS: &[(&str, &str, &str)] = &[
    (
        "promotions, a dropped and an added field, fields reordered",
        r#"{"type":"record","name":"e.R","fields":[
            {"name":"i","type":"int"},{"name":"gone","type":{"type":"array","items":"string"}},
            {"name":"f","type":"float"},{"name":"s","type":"string"},{"name":"b","type":"bytes"},
            {"name":"l","type":"long"}]}"#,
        r#"{"type":"record","name":"e.R","fields":[
            {"name":"l","type":"double"},{"name":"f","type":"double"},{"name":"i","type":"long"},
            {"name":"s","type":"bytes"},{"name":"b","type":"bytes"},
            {"name":"new","type":{"type":"map","values":"int"},"default":{"a":1}},
            {"name":"opt","type":["null","string"],"default":null}]}"#,
    ),
    (
        "enum symbols re-indexed, a writer symbol the reader lacks taking its default",
        r#"{"type":"record","name":"e.S","fields":[{"name":"e","type":
            {"type":"enum","name":"e.E","symbols":["A","B","C","D"]}}]}"#,
        r#"{"type":"record","name":"e.S","fields":[{"name":"e","type":
            {"type":"enum","name":"e.E","symbols":["D","B","A"],"default":"A"}}]}"#,
    ),
    (
        "unions: branches reordered, widened, a plain value read into a union",
        r#"{"type":"record","name":"e.U","fields":[
            {"name":"a","type":["null","int","string"]},{"name":"b","type":"int"},
            {"name":"c","type":["int","null"]}]}"#,
        r#"{"type":"record","name":"e.U","fields":[
            {"name":"a","type":["string","null","long"]},{"name":"b","type":["null","long"]},
            {"name":"c","type":["null","double"]}]}"#,
    ),
    (
        "a nested record renamed through an alias, in an array and a map",
        r#"{"type":"record","name":"e.N","fields":[
            {"name":"items","type":{"type":"array","items":{"type":"record","name":"e.Old",
                "fields":[{"name":"x","type":"int"},{"name":"y","type":"string"}]}}},
            {"name":"byKey","type":{"type":"map","values":"e.Old"}}]}"#,
        r#"{"type":"record","name":"e.N","fields":[
            {"name":"items","type":{"type":"array","items":{"type":"record","name":"e.New",
                "aliases":["e.Old"],
                "fields":[{"name":"y","type":"string"},{"name":"x","type":"long"},
                    {"name":"z","type":"boolean","default":true}]}}},
            {"name":"byKey","type":{"type":"map","values":"e.New"}}]}"#,
    ),
];

/// Generic values read with a reader schema are what apache-avro reads from the same bytes
/// with the same writer and reader schemas.
#[test]
fn resolved_generic_values_are_what_apache_avro_resolves() {
    use crate::codegen_evolution::{v1, v2};
    use avdl2rs::AvroSchema;
    let orders = (
        "the orders schema's two versions",
        v1::com::example::evolution::Order::SCHEMA_JSON,
        v2::com::example::evolution::Order::SCHEMA_JSON,
    );
    for (what, writer_json, reader_json) in EVOLUTIONS.iter().copied().chain([orders]) {
        let writer = crate::generated_differential::apache(writer_json).unwrap();
        let reader = crate::generated_differential::apache(reader_json).unwrap();
        let apache_writer = GenericDatumWriter::builder(&writer).build().unwrap();
        let apache_reader = GenericDatumReader::builder(&writer)
            .reader_schema(&reader)
            .build()
            .unwrap();
        let generic_writer = GenericSchema::new(writer_json).unwrap();
        let generic_reader = GenericSchema::new(reader_json).unwrap();
        let resolver = generic_reader.resolving(&generic_writer).unwrap();
        let mut values = ValueGen::new(&writer, fnv(what));
        for n in 0..VALUES_PER_TYPE {
            let bytes = apache_writer
                .write_value_to_vec(values.value(&writer, 0))
                .unwrap();
            let theirs = apache_reader.read_value(&mut bytes.as_slice()).unwrap();
            let ours = resolver
                .decode(&bytes)
                .unwrap_or_else(|e| panic!("{what} #{n} {bytes:?}: {e}"));
            agree(&ours, &theirs, "").unwrap_or_else(|e| panic!("{what} #{n} {bytes:?}: {e}"));
        }
    }
}

/// Bad writer data under resolution is an error naming the path in the datum.
#[test]
fn resolution_errors_name_the_path() {
    let (_, writer_json, reader_json) = EVOLUTIONS[3];
    let writer = GenericSchema::new(writer_json).unwrap();
    let reader = GenericSchema::new(reader_json).unwrap();
    // items: one record {x 1, y "a"}, then a second whose `y` is cut short.
    let bytes = [4, 2, 2, b'a', 4, 6, b'b'];
    let error = reader
        .resolving(&writer)
        .unwrap()
        .decode(&bytes)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "bad writer data: cannot decode items[1].y at byte 5: length 3 is larger than the 1 \
         bytes left"
    );
}
