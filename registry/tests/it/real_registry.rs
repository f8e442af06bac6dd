//! Every endpoint the real registry (`rivven-schema`, started by `.ci/registry-server`)
//! serves, through both transports.

use crate::support;

use avdl2rs_registry::{ClientConfig, CompatLevel, Schema, Version};
use avdl2rs_tests::{fresh_name, schema_registry};
use support::Make;

const V1: &str =
    r#"{"type":"record","name":"Order","namespace":"NS","fields":[{"name":"id","type":"long"}]}"#;
/// V1 with a field that has a default: BACKWARD compatible.
const V2: &str = r#"{"type":"record","name":"Order","namespace":"NS","fields":[{"name":"id","type":"long"},{"name":"note","type":"string","default":""}]}"#;
/// V1 with a field without default: not BACKWARD compatible.
const BREAKING: &str = r#"{"type":"record","name":"Order","namespace":"NS","fields":[{"name":"id","type":"long"},{"name":"qty","type":"int"}]}"#;

/// The schema in a namespace of its own: this registry adds no version to a subject when
/// the same schema is already registered under another subject, so schemas of one run must
/// not repeat those of an earlier run.
fn unique(template: &str, namespace: &str) -> Schema {
    Schema::avro(template.replace("NS", namespace))
}

fn subject_lifecycle(make: Make) {
    let url = schema_registry();
    let client = make(ClientConfig::new(&url));
    // A subject that needs percent-encoding in the path (`/`).
    let subject = fresh_name("team/orders");
    let ns = format!(
        "shop.n{}",
        subject.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    );
    let (v1, v2, breaking) = (unique(V1, &ns), unique(V2, &ns), unique(BREAKING, &ns));
    client
        .set_config(Some(&subject), CompatLevel::Backward)
        .unwrap();
    assert_eq!(
        client.config(Some(&subject)).unwrap(),
        CompatLevel::Backward
    );

    let id1 = client.register(&subject, &v1, false).unwrap();
    let latest = client.latest(&subject).unwrap();
    assert_eq!(
        (latest.subject.as_str(), latest.version, latest.id),
        (subject.as_str(), 1, id1)
    );
    let id2 = client.register(&subject, &v2, false).unwrap();
    assert_ne!(id1, id2);
    assert_eq!(
        client.latest(&subject).unwrap().version,
        2,
        "our register refreshed latest"
    );
    assert_eq!(client.versions(&subject).unwrap(), [1, 2]);
    assert!(client.subjects().unwrap().contains(&subject));

    let first = client
        .subject_version(&subject, Version::Number(1))
        .unwrap();
    assert_eq!(first.id, id1);
    // The registry stores the schema re-serialized, but it is the same schema.
    let by_id = client.schema_by_id(id1).unwrap();
    assert_eq!(canonical(&by_id.schema), canonical(&v1.schema));
    // It has no lookup endpoint: the id is found by comparing canonical forms.
    assert_eq!(client.id_of(&subject, &v1, false).unwrap(), id1);

    let ok = client
        .test_compatibility(&subject, Version::Latest, &v2)
        .unwrap();
    assert!(ok.is_compatible, "{ok:?}");
    let bad = client
        .test_compatibility(&subject, Version::Latest, &breaking)
        .unwrap();
    assert!(!bad.is_compatible);
    assert!(!bad.messages.is_empty());

    let e = client.register(&subject, &breaking, false).unwrap_err();
    assert_eq!(e.api().unwrap().status, 409, "{e}");
    client
        .set_config(Some(&subject), CompatLevel::None)
        .unwrap();
    client.register(&subject, &breaking, false).unwrap();

    assert_eq!(client.delete_subject(&subject, false).unwrap(), [1, 2, 3]);
    let e = client.latest(&subject).unwrap_err();
    assert_eq!(e.api().unwrap().error_code, Some(40401), "{e}");
    // Consumers still read messages written with a deleted subject's schemas.
    assert_eq!(
        canonical(&client.schema_by_id(id2).unwrap().schema),
        canonical(&v2.schema)
    );
}

fn errors_of_the_real_registry(make: Make) {
    let url = schema_registry();
    let client = make(ClientConfig::new(&url));
    let e = client.schema_by_id(i32::MAX).unwrap_err();
    assert_eq!(e.api().unwrap().error_code, Some(40403), "{e}");
    let e = client.latest(&fresh_name("missing")).unwrap_err();
    assert_eq!(e.api().unwrap().error_code, Some(40401), "{e}");
    let subject = fresh_name("invalid");
    let e = client
        .register(&subject, &Schema::avro("{\"type\": \"nonsense\"}"), false)
        .unwrap_err();
    let api = e.api().unwrap();
    assert_eq!(api.status, 422, "{e}");
}

fn canonical(json: &str) -> String {
    let mut set = avdl2rs::schema::SchemaSet::new();
    let schema = set.parse_str(json).unwrap();
    set.canonical_form(&schema)
}

both_transports!(
    #[ignore = "needs a Schema Registry (.ci/registry-server)"]
    subject_lifecycle,
    #[ignore = "needs a Schema Registry (.ci/registry-server)"]
    errors_of_the_real_registry,
);
