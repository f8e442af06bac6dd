//! Every endpoint, error code and resilience behaviour against a fake registry, for both
//! transports. The fake counts requests, which shows retries, failover and single flight.

use crate::support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use avdl2rs_registry::{
    codes, Auth, ClientConfig, CompatLevel, RegistryError, RetryPolicy, Schema, SchemaReference,
    SchemaType, TokenProvider, Version,
};
use serde_json::{json, Value};
use support::fake::{dead_url, Answer, Fake};
use support::Make;

const ORDER: &str =
    r#"{"type":"record","name":"Order","namespace":"shop","fields":[{"name":"id","type":"long"}]}"#;
/// The same schema as the registry may store it: other key order and spacing, a doc.
const ORDER_RESERIALIZED: &str = r#"{"fields": [{"name": "id", "type": "long"}], "name": "Order", "namespace": "shop", "type": "record", "doc": "an order"}"#;

fn quick_retries() -> RetryPolicy {
    RetryPolicy::default()
        .max_retries(3)
        .initial_backoff(Duration::from_millis(10))
        .max_backoff(Duration::from_secs(2))
        .max_elapsed(Duration::from_secs(10))
}

fn config(url: &str) -> ClientConfig {
    ClientConfig::new(url).retry(quick_retries())
}

fn body(seen: &support::fake::Seen) -> Value {
    serde_json::from_str(&seen.body).unwrap()
}

fn endpoints_send_the_documented_requests(make: Make) {
    let fake = Fake::start(|seen, _| {
        match (seen.method.as_str(), seen.path.as_str()) {
        ("POST", "/subjects/:.ctx:a%2Fb-value/versions?normalize=true") => Answer::json(200, r#"{"id":11}"#),
        ("POST", "/subjects/s") => Answer::json(
            200,
            json!({"subject":"s","version":3,"id":12,"schema":ORDER}).to_string(),
        ),
        ("GET", "/schemas/ids/12?deleted=true") => Answer::json(
            200,
            json!({"schema":ORDER,"references":[{"name":"shop.Money","subject":"money","version":2}]}).to_string(),
        ),
        ("GET", "/subjects/s/versions/2") => Answer::json(
            200,
            json!({"subject":"s","version":2,"id":9,"schema":"\"int\"","schemaType":"AVRO"}).to_string(),
        ),
        ("GET", "/subjects") => Answer::json(200, r#"["s","t"]"#),
        ("GET", "/subjects/s/versions") => Answer::json(200, "[1,2,3]"),
        ("DELETE", "/subjects/s?permanent=true") => Answer::json(200, "[1,2,3]"),
        ("POST", "/compatibility/subjects/s/versions/latest?verbose=true") => Answer::json(
            200,
            r#"{"is_compatible":false,"messages":["READER_FIELD_MISSING_DEFAULT_VALUE"]}"#,
        ),
        ("GET", "/config") => Answer::json(200, r#"{"compatibilityLevel":"BACKWARD"}"#),
        ("PUT", "/config/s") => Answer::json(200, r#"{"compatibility":"FULL_TRANSITIVE"}"#),
        _ => Answer::error(404, 40401, "unexpected"),
    }
    });
    let client = make(config(&fake.url).header("X-Tenant", "t1"));
    let order = Schema::avro(ORDER);

    assert_eq!(
        client.register(":.ctx:a/b-value", &order, true).unwrap(),
        11
    );
    let found = client.lookup("s", &order, false).unwrap();
    assert_eq!(
        (found.subject.as_str(), found.version, found.id),
        ("s", 3, 12)
    );
    let by_id = client.schema_by_id(12).unwrap();
    assert_eq!(by_id.schema, ORDER);
    assert_eq!(by_id.schema_type, SchemaType::Avro);
    assert_eq!(
        by_id.references,
        vec![SchemaReference {
            name: "shop.Money".into(),
            subject: "money".into(),
            version: 2
        }]
    );
    let v2 = client.subject_version("s", Version::Number(2)).unwrap();
    assert_eq!(
        (v2.version, v2.id, v2.schema.schema.as_str()),
        (2, 9, "\"int\"")
    );
    assert_eq!(client.subjects().unwrap(), ["s", "t"]);
    assert_eq!(client.versions("s").unwrap(), [1, 2, 3]);
    assert_eq!(client.delete_subject("s", true).unwrap(), [1, 2, 3]);
    let report = client
        .test_compatibility("s", Version::Latest, &order)
        .unwrap();
    assert!(!report.is_compatible);
    assert_eq!(report.messages, ["READER_FIELD_MISSING_DEFAULT_VALUE"]);
    assert_eq!(client.config(None).unwrap(), CompatLevel::Backward);
    assert_eq!(
        client
            .set_config(Some("s"), CompatLevel::FullTransitive)
            .unwrap(),
        CompatLevel::FullTransitive
    );

    let requests = fake.requests();
    assert_eq!(requests.len(), 10, "{requests:#?}");
    assert_eq!(body(&requests[0]), json!({"schema": ORDER}));
    assert_eq!(
        body(&requests[9]),
        json!({"compatibility": "FULL_TRANSITIVE"})
    );
    for seen in &requests {
        assert_eq!(seen.header("x-tenant"), Some("t1"));
        assert_eq!(seen.header("authorization"), None);
    }
    assert_eq!(
        requests[0].header("content-type"),
        Some("application/vnd.schemaregistry.v1+json")
    );
}

fn errors_come_back_typed(make: Make) {
    let fake = Fake::start(|seen, _| match seen.path.as_str() {
        "/subjects/gone/versions/latest" => {
            Answer::error(404, codes::SUBJECT_NOT_FOUND, "Subject 'gone' not found.")
        }
        "/subjects/s/versions/7" => {
            Answer::error(404, codes::VERSION_NOT_FOUND, "Version 7 not found.")
        }
        "/schemas/ids/99?deleted=true" => {
            Answer::error(404, codes::SCHEMA_NOT_FOUND, "Schema 99 not found")
        }
        "/subjects/s/versions" => Answer::error(
            409,
            codes::INCOMPATIBLE_SCHEMA,
            "Schema being registered is incompatible",
        ),
        "/subjects/bad/versions" => Answer::error(422, codes::INVALID_SCHEMA, "Invalid schema"),
        "/config" => Answer::json(401, "Unauthorized"),
        "/subjects" => Answer::json(200, r#"{"not":"a list"}"#),
        _ => Answer::json(403, r#"{"error_code":40301,"message":"forbidden"}"#),
    });
    let client = make(config(&fake.url));
    let api = |e: RegistryError| e.api().cloned().expect("an API error");
    let schema = Schema::avro(ORDER);

    let e = api(client.latest("gone").unwrap_err());
    assert_eq!((e.status, e.error_code), (404, Some(40401)));
    assert_eq!(e.message, "Subject 'gone' not found.");
    let e = api(client.subject_version("s", Version::Number(7)).unwrap_err());
    assert_eq!((e.status, e.error_code), (404, Some(40402)));
    let e = api(client.schema_by_id(99).unwrap_err());
    assert_eq!((e.status, e.error_code), (404, Some(40403)));
    assert!(e.is_not_found());
    let e = api(client.register("s", &schema, false).unwrap_err());
    assert_eq!((e.status, e.error_code), (409, Some(409)));
    assert!(e.is_incompatible());
    let e = api(client.register("bad", &schema, false).unwrap_err());
    assert_eq!((e.status, e.error_code), (422, Some(42201)));
    let e = api(client.config(None).unwrap_err());
    assert_eq!(
        (e.status, e.error_code, e.message.as_str()),
        (401, None, "Unauthorized")
    );
    let e = api(client.versions("x").unwrap_err());
    assert_eq!((e.status, e.error_code), (403, Some(40301)));
    assert!(matches!(
        client.subjects().unwrap_err(),
        RegistryError::InvalidReply { .. }
    ));
    // Client errors are not retried: one request each.
    assert_eq!(fake.count(), 8);
}

fn server_faults_are_retried_then_succeed(make: Make) {
    let fake = Fake::start(|_, n| match n {
        0 => Answer::error(503, 50003, "unavailable"),
        1 => Answer::Drop,
        2 => Answer::json(500, "oops"),
        _ => Answer::json(200, r#"["s"]"#),
    });
    let client = make(config(&fake.url));
    assert_eq!(client.subjects().unwrap(), ["s"]);
    assert_eq!(fake.count(), 4);
}

fn retries_are_bounded_and_can_be_off(make: Make) {
    let fake = Fake::start(|_, _| Answer::error(500, 50001, "down"));
    let client = make(config(&fake.url));
    let e = client.subjects().unwrap_err();
    assert_eq!(e.api().unwrap().status, 500);
    assert_eq!(fake.count(), 4, "the first attempt and 3 retries");

    let fake = Fake::start(|_, _| Answer::error(500, 50001, "down"));
    let client = make(config(&fake.url).retry(RetryPolicy::none()));
    assert!(client.subjects().is_err());
    assert_eq!(fake.count(), 1);
}

fn throttling_honours_retry_after(make: Make) {
    let fake = Fake::start(|_, n| match n {
        0 => Answer::error(429, 42901, "slow down").with_header("Retry-After", "1"),
        _ => Answer::json(200, "[]"),
    });
    let client = make(config(&fake.url));
    let started = Instant::now();
    assert!(client.subjects().unwrap().is_empty());
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "waited {:?}",
        started.elapsed()
    );
    assert_eq!(fake.count(), 2);

    // A wait longer than the policy allows is not waited for.
    let fake =
        Fake::start(|_, _| Answer::error(429, 42901, "later").with_header("Retry-After", "3600"));
    let client = make(config(&fake.url));
    let e = client.subjects().unwrap_err();
    assert_eq!(
        e.api().unwrap().retry_after,
        Some(Duration::from_secs(3600))
    );
    assert_eq!(fake.count(), 1);
}

fn slow_replies_time_out_and_are_retried(make: Make) {
    let fake = Fake::start(|_, n| match n {
        0 => Answer::json(200, "[]").after(Duration::from_millis(800)),
        _ => Answer::json(200, r#"["fast"]"#),
    });
    let client =
        make(config(&fake.url).timeouts(Duration::from_secs(1), Duration::from_millis(300)));
    assert_eq!(client.subjects().unwrap(), ["fast"]);
    assert_eq!(fake.count(), 2);

    let fake = Fake::start(|_, _| Answer::json(200, "[]").after(Duration::from_millis(800)));
    let client = make(
        config(&fake.url)
            .timeouts(Duration::from_secs(1), Duration::from_millis(200))
            .retry(RetryPolicy::none()),
    );
    assert!(matches!(
        client.subjects().unwrap_err(),
        RegistryError::Transport { .. }
    ));
}

fn unreachable_instances_fail_over(make: Make) {
    let fake = Fake::start(|_, _| Answer::json(200, r#"["s"]"#));
    let urls = format!("{},{}", dead_url(), fake.url);
    let client = make(config(&urls));
    assert_eq!(client.subjects().unwrap(), ["s"]);
    assert_eq!(client.subjects().unwrap(), ["s"]);
    assert_eq!(fake.count(), 2);

    let client = make(config(&format!("{},{}", dead_url(), dead_url())));
    assert!(matches!(
        client.subjects().unwrap_err(),
        RegistryError::Transport { .. }
    ));
}

fn concurrent_misses_send_one_request(make: Make) {
    let fake = Fake::start(|_, _| {
        Answer::json(200, json!({"schema": ORDER}).to_string()).after(Duration::from_millis(300))
    });
    let client = make(config(&fake.url));
    let barrier = Arc::new(Barrier::new(8));
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let client = Arc::clone(&client);
            let barrier = Arc::clone(&barrier);
            std::thread::spawn(move || {
                barrier.wait();
                client.schema_by_id(5).unwrap().schema.clone()
            })
        })
        .collect();
    for thread in threads {
        assert_eq!(thread.join().unwrap(), ORDER);
    }
    assert_eq!(fake.count(), 1);
    client.schema_by_id(5).unwrap();
    assert_eq!(fake.count(), 1, "a warm cache sends nothing");
}

fn failures_are_not_cached(make: Make) {
    let fake = Fake::start(|_, n| match n {
        0 => Answer::error(500, 50001, "blip"),
        _ => Answer::json(200, json!({"schema": ORDER}).to_string()),
    });
    let client = make(config(&fake.url).retry(RetryPolicy::none()));
    assert!(client.schema_by_id(1).is_err());
    assert_eq!(client.schema_by_id(1).unwrap().schema, ORDER);
    assert_eq!(fake.count(), 2);
}

fn latest_expires_and_our_register_refreshes_it(make: Make) {
    let version = Arc::new(AtomicUsize::new(1));
    let served = Arc::clone(&version);
    let fake = Fake::start(move |seen, _| match seen.method.as_str() {
        "POST" => {
            served.store(2, Ordering::SeqCst);
            Answer::json(200, r#"{"id":22}"#)
        }
        _ => {
            let v = served.load(Ordering::SeqCst);
            Answer::json(
                200,
                json!({"subject":"s","version":v,"id":20 + v,"schema":ORDER}).to_string(),
            )
        }
    });
    let client = make(config(&fake.url).latest_ttl(Some(Duration::from_secs(60))));
    assert_eq!(client.latest("s").unwrap().version, 1);
    assert_eq!(client.latest("s").unwrap().version, 1);
    assert_eq!(fake.count(), 1);
    client.register("s", &Schema::avro(ORDER), false).unwrap();
    assert_eq!(client.latest("s").unwrap().version, 2);
    assert_eq!(fake.count(), 3);
    assert_eq!(version.load(Ordering::SeqCst), 2);

    let fake = Fake::start(|_, n| {
        Answer::json(
            200,
            json!({"subject":"s","version":n + 1,"id":1,"schema":ORDER}).to_string(),
        )
    });
    let client = make(config(&fake.url).latest_ttl(Some(Duration::from_millis(50))));
    assert_eq!(client.latest("s").unwrap().version, 1);
    std::thread::sleep(Duration::from_millis(80));
    assert_eq!(client.latest("s").unwrap().version, 2);
}

fn registrations_and_lookups_are_cached(make: Make) {
    let fake = Fake::start(|_, _| {
        Answer::json(
            200,
            r#"{"id":3,"subject":"s","version":1,"schema":"\"int\""}"#,
        )
    });
    let client = make(config(&fake.url));
    let schema = Schema::avro("\"int\"");
    assert_eq!(client.register("s", &schema, false).unwrap(), 3);
    assert_eq!(client.register("s", &schema, false).unwrap(), 3);
    assert_eq!(client.id_of("s", &schema, false).unwrap(), 3);
    assert_eq!(fake.count(), 1);
}

fn lookup_falls_back_to_canonical_forms(make: Make) {
    let fake = Fake::start(|seen, _| match (seen.method.as_str(), seen.path.as_str()) {
        ("POST", "/subjects/s") => Answer::error(404, codes::SCHEMA_NOT_FOUND, "Schema not found"),
        ("GET", "/subjects/s/versions") => Answer::json(200, "[1,2]"),
        ("GET", "/subjects/s/versions/2") => Answer::json(
            200,
            json!({"subject":"s","version":2,"id":8,"schema":"\"string\""}).to_string(),
        ),
        ("GET", "/subjects/s/versions/1") => Answer::json(
            200,
            json!({"subject":"s","version":1,"id":7,"schema":ORDER_RESERIALIZED}).to_string(),
        ),
        ("POST", "/subjects/none") => {
            Answer::error(404, codes::SUBJECT_NOT_FOUND, "Subject not found")
        }
        _ => Answer::error(404, 40401, "unexpected"),
    });
    let client = make(config(&fake.url));
    assert_eq!(client.id_of("s", &Schema::avro(ORDER), false).unwrap(), 7);
    assert_eq!(fake.count(), 4);
    let e = client
        .id_of("none", &Schema::avro(ORDER), false)
        .unwrap_err();
    assert_eq!(e.api().unwrap().error_code, Some(40401));
    let e = client
        .id_of("s", &Schema::avro("\"long\""), false)
        .unwrap_err();
    assert_eq!(e.api().unwrap().error_code, Some(40403));
}

fn credentials_are_sent(make: Make) {
    let fake = Fake::start(|_, _| Answer::json(200, "[]"));
    let basic = make(config(&fake.url).auth(Auth::basic_from("key:secret").unwrap()));
    basic.subjects().unwrap();
    let bearer = make(config(&fake.url).auth(Auth::Bearer("t0k".into())));
    bearer.subjects().unwrap();
    let seen = fake.requests();
    assert_eq!(
        seen[0].header("authorization"),
        Some("Basic a2V5OnNlY3JldA==")
    );
    assert_eq!(seen[1].header("authorization"), Some("Bearer t0k"));
}

/// Hands out `token-N`, moving to the next N when told its token was refused.
struct Rotating(AtomicUsize);

impl TokenProvider for Rotating {
    fn token(&self) -> Result<String, String> {
        Ok(format!("token-{}", self.0.load(Ordering::SeqCst)))
    }
    fn invalidate(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn refused_tokens_are_refreshed_once(make: Make) {
    let fake = Fake::start(|seen, _| match seen.header("authorization") {
        Some("Bearer token-1") => Answer::json(200, "[]"),
        _ => Answer::error(401, 40101, "expired token"),
    });
    let provider = Arc::new(Rotating(AtomicUsize::new(0)));
    let client = make(config(&fake.url).auth(Auth::Provider(provider.clone())));
    client.subjects().unwrap();
    assert_eq!(fake.count(), 2);
    provider.invalidate();
    let e = client.subjects().unwrap_err();
    assert_eq!(e.api().unwrap().status, 401);
    assert_eq!(
        fake.count(),
        4,
        "one refresh per call, then the 401 is returned"
    );
}

both_transports!(
    endpoints_send_the_documented_requests,
    errors_come_back_typed,
    server_faults_are_retried_then_succeed,
    retries_are_bounded_and_can_be_off,
    throttling_honours_retry_after,
    slow_replies_time_out_and_are_retried,
    unreachable_instances_fail_over,
    concurrent_misses_send_one_request,
    failures_are_not_cached,
    latest_expires_and_our_register_refreshes_it,
    registrations_and_lookups_are_cached,
    lookup_falls_back_to_canonical_forms,
    credentials_are_sent,
    refused_tokens_are_refreshed_once,
);

/// The blocking client starts no runtime of its own, so calling it from async code (as a
/// consumer callback may) works instead of panicking.
#[test]
fn the_blocking_client_works_inside_an_async_runtime() {
    let fake = Fake::start(|_, _| Answer::json(200, r#"["s"]"#));
    let client = avdl2rs_registry::blocking::Client::new(config(&fake.url)).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let subjects = runtime.block_on(async { client.subjects() }).unwrap();
    assert_eq!(subjects, ["s"]);
}
