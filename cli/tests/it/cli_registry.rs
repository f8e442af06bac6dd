//! `avdl2rs registry`, run as a process against the real registry: register, check (exit 0
//! compatible, 1 incompatible, 2 could not run), get, config and subjects, text and JSON.

use std::path::Path;
use std::process::{Command, Output};

use crate::cli_support::{cli_binary, code, stderr, stdout};
use avdl2rs_tests::{fresh_name, json_diff, schema_registry, workspace_root};
use serde_json::Value;

fn registry(url: &str, args: &[&str]) -> Output {
    Command::new(cli_binary())
        .arg("registry")
        .args(args)
        .env("AVDL2RS_SCHEMA_REGISTRY_URL", url)
        .output()
        .expect("avdl2rs starts")
}

fn orders_avdl() -> String {
    workspace_root()
        .join("examples/orders/schemas/orders.avdl")
        .display()
        .to_string()
}

/// The OrderEvent with one more field; `default` is its default, if any.
fn order_with_qty(dir: &Path, namespace: &str, default: Option<&str>) -> String {
    let default = default.map_or(String::new(), |d| format!(r#","default":{d}"#));
    let text = format!(
        r#"{{"type":"record","name":"OrderEvent","namespace":"{namespace}","fields":[
            {{"name":"id","type":"int"}},{{"name":"amount","type":"double"}},
            {{"name":"user_id","type":"int"}},{{"name":"currency","type":"string","default":"CNY"}},
            {{"name":"discount","type":["null","double"],"default":null}},
            {{"name":"qty","type":"int"{default}}}]}}"#
    );
    let path = dir.join(format!("qty-{}.avsc", default.is_empty()));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn without_a_registry_check_cannot_run() {
    let out = Command::new(cli_binary())
        .args(["registry", "check", &orders_avdl(), "--subject", "s"])
        .env_remove("AVDL2RS_SCHEMA_REGISTRY_URL")
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("AVDL2RS_SCHEMA_REGISTRY_URL"));
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let out = registry(&dead, &["check", &orders_avdl(), "--subject", "s"]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot reach"));
    let out = registry(&dead, &["subjects"]);
    assert_eq!(code(&out), 1);
}

#[test]
fn certificate_flags_and_variables_reach_the_client() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.pem");
    std::fs::write(&garbage, "not a certificate").unwrap();
    let garbage = garbage.display().to_string();
    let url = "https://127.0.0.1:9";

    let out = registry(url, &["--ca-cert", &garbage, "subjects"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("no certificate in the CA certificate PEM"),
        "{out:?}"
    );

    let missing = dir.path().join("missing.pem").display().to_string();
    let out = Command::new(cli_binary())
        .args(["registry", "check", &orders_avdl(), "--subject", "s"])
        .env("AVDL2RS_SCHEMA_REGISTRY_URL", url)
        .env("AVDL2RS_SCHEMA_REGISTRY_CA_CERT", &missing)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("cannot read the CA certificate"),
        "{out:?}"
    );

    let out = registry(url, &["--client-cert", &garbage, "subjects"]);
    assert_eq!(
        code(&out),
        2,
        "a certificate without its key is a usage error"
    );
    assert!(stderr(&out).contains("--client-key"), "{out:?}");
    let both = [
        "--client-cert",
        &garbage,
        "--client-key",
        &garbage,
        "subjects",
    ];
    let out = registry(url, &both);
    assert!(
        stderr(&out).contains("no private key in the client key PEM"),
        "{out:?}"
    );
}

#[test]
#[ignore = "needs a Schema Registry (.ci/registry-server)"]
fn register_check_config_get_and_list() {
    let url = schema_registry();
    let dir = tempfile::tempdir().unwrap();
    let subject = fresh_name("cli-orders");
    let orders = orders_avdl();

    let out = registry(
        &url,
        &[
            "register",
            &orders,
            "--subject",
            &subject,
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&out), 0, "{out:?}");
    let registered: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let id = registered["id"].as_i64().unwrap();

    let out = registry(
        &url,
        &["config", "--subject", &subject, "--level", "BACKWARD"],
    );
    assert_eq!((code(&out), stdout(&out).as_str()), (0, "BACKWARD\n"));

    let out = registry(&url, &["check", &orders, "--subject", &subject]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).contains("compatible at BACKWARD against 1 version(s)"));

    let required = order_with_qty(dir.path(), "com.example.orders", None);
    let out = registry(
        &url,
        &[
            "check",
            &required,
            "--subject",
            &subject,
            "--format",
            "json",
        ],
    );
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["compatible"], false);
    assert_eq!(report["registry"][0]["compatible"], false);
    let ours = report["avdl2rs"][0].as_str().unwrap();
    assert!(ours.contains("/fields/qty"), "{ours}");

    let defaulted = order_with_qty(dir.path(), "com.example.orders", Some("1"));
    let out = registry(&url, &["check", &defaulted, "--subject", &subject, "--all"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));

    let out = registry(&url, &["get", "--subject", &subject, "--format", "json"]);
    assert_eq!(code(&out), 0);
    let got: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        (got["id"].as_i64(), got["version"].as_i64()),
        (Some(id), Some(1))
    );
    let out = registry(&url, &["get", "--id", &id.to_string()]);
    let schema: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(schema["name"], "OrderEvent");
    let out = registry(&url, &["get", "--id", &id.to_string(), "--format", "idl"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let idl = avdl_parser::parse_str(&stdout(&out), "fetched.avdl", &Default::default())
        .unwrap_or_else(|e| panic!("{e}\n{}", stdout(&out)));
    assert_eq!(json_diff(&schema, idl.json()), Vec::<String>::new());
    let out = registry(&url, &["subjects", "--format", "idl"]);
    assert_eq!(code(&out), 2);

    let out = registry(&url, &["subjects", "--format", "json"]);
    let subjects: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(subjects
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s == subject.as_str()));

    let out = registry(&url, &["get", "--subject", &fresh_name("missing")]);
    assert_eq!(code(&out), 1);
    assert!(String::from_utf8_lossy(&out.stderr).contains("40401"));
}
