//! `avdl2rs registry register --metadata --rule-set` and `registry get` showing a schema's
//! data contract, run as a process against a small fake registry answering fixed JSON: the
//! real server of the other tests (`rivven-schema` 0.0.22) accepts `metadata` and `ruleSet`
//! but drops them.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use crate::cli_support::{cli_binary, code, stderr, stdout};
use serde_json::{json, Value};

const ORDER: &str =
    r#"{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"long"}]}"#;

/// A request the fake registry received: method, path and body.
type Seen = (String, String, String);

/// A registry on 127.0.0.1 answering each request with `answer(method, path)`, one request
/// per connection; what it received is kept in the returned list.
fn fake(answer: fn(&str, &str) -> Value) -> (String, Arc<Mutex<Vec<Seen>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&seen);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            let mut parts = line.split_whitespace();
            let (method, path) = (
                parts.next().unwrap().to_owned(),
                parts.next().unwrap().to_owned(),
            );
            let mut length = 0;
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).unwrap();
                if header.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().unwrap();
                    }
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let reply = answer(&method, &path).to_string();
            kept.lock()
                .unwrap()
                .push((method, path, String::from_utf8(body).unwrap()));
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    (url, seen)
}

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
    let (url, seen) = fake(|_, _| json!({"id": 41}));
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
    let out = registry(&url, &args);
    assert_eq!(
        (code(&out), stdout(&out).as_str()),
        (0, "orders-value: schema id 41\n"),
        "{}",
        stderr(&out)
    );
    let sent = seen.lock().unwrap().clone();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        (sent[0].0.as_str(), sent[0].1.as_str()),
        ("POST", "/subjects/orders-value/versions")
    );
    let body: Value = serde_json::from_str(&sent[0].2).unwrap();
    assert_eq!(body["metadata"], metadata());
    assert_eq!(body["ruleSet"], rule_set());

    // A mistake in a file is located there, and nothing is registered.
    let bad = write(
        "bad.json",
        "{\"domainRules\": [\n  {\"name\": \"x\", \"kind\": \"CHECK\"}]}".to_owned(),
    );
    let out = registry(
        &url,
        &["register", &schema, "--subject", "s", "--rule-set", &bad],
    );
    assert_eq!(code(&out), 1);
    let error = stderr(&out);
    assert!(error.contains(&format!("{bad}:2:")), "{error}");
    assert!(error.contains("unknown variant `CHECK`"), "{error}");
    assert_eq!(seen.lock().unwrap().len(), 1, "nothing more was sent");
}

#[test]
fn get_shows_the_metadata_and_rules() {
    let (url, _) = fake(|_, path| match path {
        "/schemas/ids/41?deleted=true" => {
            json!({"schema": ORDER, "metadata": metadata(), "ruleSet": rule_set()})
        }
        _ => json!({"subject": "orders-value", "version": 3, "id": 41, "schema": ORDER,
                    "metadata": metadata(), "ruleSet": rule_set()}),
    });
    let out = registry(&url, &["get", "--id", "41"]);
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
        let out = registry(&url, &[&args[..], &["--format", "json"]].concat());
        let got: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(
            (&got["metadata"], &got["ruleSet"]),
            (&metadata(), &rule_set()),
            "{args:?}"
        );
        assert_eq!(got["id"], 41);
    }
}
