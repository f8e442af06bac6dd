//! `avdl2rs registry register --metadata --rule-set` and `registry get` showing a schema's
//! data contract, run as a process against a registry answering fixed JSON: the
//! real server of the other tests (`rivven-schema` 0.0.22) accepts `metadata` and `ruleSet`
//! but drops them.

use std::process::{Command, Output};

use crate::cli_support::{cli_binary, code, stderr, stdout};
use avdl2rs_tests::fixed_registry::FixedRegistry;
use serde_json::{json, Value};

const ORDER: &str =
    r#"{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"long"}]}"#;

fn registry(url: &str, args: &[&str]) -> Output {
    Command::new(cli_binary())
        .arg("registry")
        .args(args)
        .env("AVDL2RS_SCHEMA_REGISTRY_URL", url)
        .output()
        .expect("avdl2rs starts")
}

fn metadata() -> Value {
    json!({"properties": {"owner": "team-orders", "token": "s3cret"},
           "tags": {"shop.Order.id": ["PII"]}, "sensitive": ["token"]})
}

fn rule_set() -> Value {
    json!({"domainRules": [{"name": "positive", "kind": "CONDITION", "mode": "WRITE",
        "type": "CEL", "expr": "message.id > 0", "onFailure": "DLQ"}],
        "migrationRules": [{"name": "rename", "kind": "TRANSFORM", "mode": "UPGRADE",
        "type": "JSONATA", "expr": "$", "disabled": true}]})
}

#[test]
fn register_sends_the_metadata_and_rule_set_files() {
    let fake = FixedRegistry::start(|_, _| json!({"id": 41}));
    let url = &fake.url;
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let schema = write("order.avsc", ORDER.to_owned());
    let meta = write("metadata.json", metadata().to_string());
    let rules = write("rules.json", rule_set().to_string());
    let args = [
        "register",
        &schema,
        "--subject",
        "orders-value",
        "--metadata",
        &meta,
        "--rule-set",
        &rules,
    ];
    let out = registry(url, &args);
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "orders-value: schema id 41\n"),
        "{}",
        stderr(&out)
    );
    let sent = fake.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (sent[0].method.as_str(), sent[0].path.as_str()),
        ("POST", "/subjects/orders-value/versions")
    );
    let body: Value = serde_json::from_str(&sent[0].body).unwrap();
    assert_eq!(body["metadata"], metadata());
    assert_eq!(body["ruleSet"], rule_set());

    // A mistake in a file is located there, and nothing is registered.
    let bad = write(
        "bad.json",
        "{\"domainRules\": [\n  {\"name\": \"x\", \"kind\": \"CHECK\"}]}".to_owned(),
    );
    let out = registry(
        url,
        &["register", &schema, "--subject", "s", "--rule-set", &bad],
    );
    assert_eq!(code(&out), 1);
    let error = stderr(&out);
    assert!(error.contains(&format!("{bad}:2:")), "{error}");
    assert!(error.contains("unknown variant `CHECK`"), "{error}");
    assert_eq!(fake.requests().len(), 1, "nothing more was sent");
}

#[test]
fn get_shows_the_metadata_and_rules() {
    let fake = FixedRegistry::start(|_, path| match path {
        "/schemas/ids/41?deleted=true" => {
            json!({"schema": ORDER, "metadata": metadata(), "ruleSet": rule_set()})
        }
        _ => json!({"subject": "orders-value", "version": 3, "id": 41, "schema": ORDER,
                    "metadata": metadata(), "ruleSet": rule_set()}),
    });
    let url = &fake.url;
    let out = registry(url, &["get", "--id", "41"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let (schema, contract) = text.split_once("\n}\n").unwrap();
    let schema: Value = serde_json::from_str(&format!("{schema}}}")).unwrap();
    assert_eq!(schema["name"], "Order", "the schema first, as before");
    assert_eq!(
        contract,
        "metadata:\n  \
           property owner = team-orders\n  \
           property token = (sensitive)\n  \
           tags of shop.Order.id: PII\n\
         rules:\n  \
           migration TRANSFORM rule rename (JSONATA, UPGRADE): $ (disabled)\n  \
           domain CONDITION rule positive (CEL, WRITE): message.id > 0; onFailure DLQ\n"
    );
    for args in [["get", "--id", "41"], ["get", "--subject", "orders-value"]] {
        let out = registry(url, &[&args[..], &["--format", "json"]].concat());
        let got: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(
            (&got["metadata"], &got["ruleSet"]),
            (&metadata(), &rule_set()),
            "{args:?}"
        );
        assert_eq!(got["id"], 41);
    }
}
