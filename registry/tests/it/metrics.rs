//! The metrics of the client and its deserializer, read back from a test recorder while a
//! blocking client (which records on the calling thread) talks to a fake registry: every
//! request counted by outcome and timed, every cache lookup counted as a hit or a miss.

use crate::support;

use std::sync::Arc;

use avdl2rs::Avro;
use avdl2rs_registry::metrics::{
    CACHE, CACHE_HITS, CACHE_MISSES, OUTCOME, REQUESTS, REQUEST_SECONDS, SCHEMAS, WRITERS,
};
use avdl2rs_registry::{blocking, ClientConfig, RetryPolicy};
use metrics_util::debugging::{DebugValue, DebuggingRecorder, Snapshotter};
use metrics_util::{CompositeKey, MetricKind};
use support::fake::{dead_url, Answer, Fake};

#[derive(Avro, Debug, PartialEq)]
#[avro(namespace = "test.metrics")]
struct Ping {
    id: i32,
}

/// A fake registry with `Ping` as schema 1, no schema 2 and a failing schema 3.
fn fake() -> Fake {
    Fake::start(
        |seen, _| match seen.path.split('?').next().unwrap_or_default() {
            "/schemas/ids/1" => Answer::json(
                200,
                serde_json::json!({ "schema": <Ping as avdl2rs::AvroSchema>::SCHEMA_JSON })
                    .to_string(),
            ),
            "/schemas/ids/2" => Answer::error(404, 40403, "Schema 2 not found"),
            _ => Answer::error(503, 50003, "store unavailable"),
        },
    )
}

fn client(url: &str) -> blocking::Client {
    let config = ClientConfig::new(url).retry(RetryPolicy::default().max_retries(0));
    blocking::Client::new(config).unwrap()
}

/// What was recorded: a snapshot drains the recorder, so it is taken once.
struct Recorded(Vec<(CompositeKey, DebugValue)>);

impl Recorded {
    /// What `run` records, through a recorder of its own.
    fn during(run: impl FnOnce()) -> Self {
        let recorder = DebuggingRecorder::new();
        let snapshotter = recorder.snapshotter();
        metrics::with_local_recorder(&recorder, run);
        Recorded::of(&snapshotter)
    }

    fn of(snapshotter: &Snapshotter) -> Self {
        let all = snapshotter.snapshot().into_vec();
        Recorded(
            all.into_iter()
                .map(|(key, _, _, value)| (key, value))
                .collect(),
        )
    }

    fn find(&self, kind: MetricKind, name: &str, label: &str, value: &str) -> Option<&DebugValue> {
        let found = self.0.iter().find(|(key, _)| {
            key.kind() == kind
                && key.key().name() == name
                && key
                    .key()
                    .labels()
                    .any(|l| l.key() == label && l.value() == value)
        });
        found.map(|(_, recorded)| recorded)
    }

    /// The counter `name` whose `label` is `value`, 0 when it was never recorded.
    fn counter(&self, name: &str, label: &str, value: &str) -> u64 {
        match self.find(MetricKind::Counter, name, label, value) {
            Some(DebugValue::Counter(count)) => *count,
            _ => 0,
        }
    }

    /// How many values the histogram `name` whose `label` is `value` holds.
    fn samples(&self, name: &str, label: &str, value: &str) -> usize {
        match self.find(MetricKind::Histogram, name, label, value) {
            Some(DebugValue::Histogram(values)) => values.len(),
            _ => 0,
        }
    }
}

#[test]
fn requests_are_counted_and_timed_by_outcome() {
    let fake = fake();
    let recorded = Recorded::during(|| {
        let registry = client(&fake.url);
        registry.schema_by_id(1).unwrap();
        registry.schema_by_id(2).unwrap_err();
        registry.schema_by_id(3).unwrap_err();
        client(&dead_url()).schema_by_id(1).unwrap_err();
    });
    for outcome in ["ok", "client_error", "server_error", "transport"] {
        assert_eq!(recorded.counter(REQUESTS, OUTCOME, outcome), 1, "{outcome}");
        assert_eq!(
            recorded.samples(REQUEST_SECONDS, OUTCOME, outcome),
            1,
            "{outcome}"
        );
    }
    assert_eq!(recorded.counter(REQUESTS, OUTCOME, "invalid_reply"), 0);
}

#[test]
fn schema_cache_lookups_are_hits_or_misses() {
    let fake = fake();
    let recorded = Recorded::during(|| {
        let registry = client(&fake.url);
        registry.schema_by_id(1).unwrap();
        registry.schema_by_id(1).unwrap();
        registry.schema_by_id(1).unwrap();
        // A failure is not cached: asked again, missed again.
        registry.schema_by_id(2).unwrap_err();
        registry.schema_by_id(2).unwrap_err();
    });
    assert_eq!(recorded.counter(CACHE_MISSES, CACHE, SCHEMAS), 3);
    assert_eq!(recorded.counter(CACHE_HITS, CACHE, SCHEMAS), 2);
    assert_eq!(fake.count(), 3);
}

#[test]
fn the_deserializers_writer_cache_misses_once_per_schema_id() {
    let fake = fake();
    // Schema id 1, then `id: 5` (zigzag 10).
    let frame = [0, 0, 0, 0, 1, 10];
    let recorded = Recorded::during(|| {
        let deserializer = blocking::Deserializer::<Ping>::new(Arc::new(client(&fake.url)));
        for _ in 0..3 {
            assert_eq!(deserializer.deserialize(&frame).unwrap(), Ping { id: 5 });
        }
        // A frame of a schema the registry does not have: a miss, every time.
        deserializer.deserialize(&[0, 0, 0, 0, 2, 10]).unwrap_err();
        // Hits are handed to the recorder in batches: the last one now.
        avdl2rs_registry::metrics::flush();
    });
    assert_eq!(recorded.counter(CACHE_MISSES, CACHE, WRITERS), 2);
    assert_eq!(recorded.counter(CACHE_HITS, CACHE, WRITERS), 2);
}

#[test]
fn failed_rules_are_counted_by_type_and_mode_whatever_their_action() {
    use avdl2rs_registry::metrics::{MODE, RULE_FAILURES, RULE_TYPE};
    let stored = serde_json::json!({
        "schema": <Ping as avdl2rs::AvroSchema>::SCHEMA_JSON,
        "ruleSet": {"domainRules": [{"name": "positive", "kind": "CONDITION", "type": "CEL",
            "mode": "WRITE", "expr": "message.id > 0", "onFailure": "NONE"}]},
    });
    let fake = Fake::start(
        move |seen, _| match (seen.method.as_str(), seen.path.as_str()) {
            ("POST", "/subjects/pings-value/versions") => Answer::json(200, r#"{"id":41}"#),
            ("GET", "/schemas/ids/41?deleted=true") => Answer::json(200, stored.to_string()),
            _ => Answer::error(404, 40401, "unexpected"),
        },
    );
    let recorded = Recorded::during(|| {
        let config = avdl2rs_registry::SerializerConfig::default();
        let serializer = blocking::Serializer::<Ping>::new(Arc::new(client(&fake.url)), config);
        // `NONE` on failure lets every value through; the two that fail are still counted.
        for id in [1, -1, 2, -2] {
            serializer.serialize("pings", &Ping { id }).unwrap();
        }
    });
    assert_eq!(recorded.counter(RULE_FAILURES, RULE_TYPE, "CEL"), 2);
    assert_eq!(recorded.counter(RULE_FAILURES, MODE, "WRITE"), 2);
}
