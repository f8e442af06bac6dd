//! The metrics of the registry client and its serializers, recorded through the [`metrics`]
//! facade so that the program chooses where they go: without a recorder installed,
//! recording does nothing. The names and label values are defined here once; the crate's
//! `README.md` has the table, and [`describe`] gives the recorder their help texts.
//!
//! What is counted for every message (a deserializer's writer-cache hit) is added up per
//! thread in a plain integer and handed to the recorder every [`WRITER_HITS_HANDED_OVER_EVERY`]
//! hits, at [`flush`] and when the thread ends: a hit costs an add, not a key built, hashed
//! and looked up in the recorder, nor an atomic add.

use std::borrow::Borrow;
use std::cell::{Cell, RefCell};
use std::time::Instant;

use metrics::{counter, describe_counter, describe_histogram, histogram, Counter, Recorder, Unit};

use crate::error::RegistryError;

/// Counter: HTTP requests sent to the registry (each attempt of a retried call), by
/// `outcome`.
pub const REQUESTS: &str = "avdl2rs_registry_requests_total";
/// Histogram: seconds from sending a request to reading its reply, by `outcome`.
pub const REQUEST_SECONDS: &str = "avdl2rs_registry_request_duration_seconds";
/// Counter: lookups answered by a cache, by `cache`.
pub const CACHE_HITS: &str = "avdl2rs_registry_cache_hits_total";
/// Counter: lookups a cache could not answer, which ask the registry (or wait for another
/// caller asking it), by `cache`.
pub const CACHE_MISSES: &str = "avdl2rs_registry_cache_misses_total";
/// Counter: data-contract rules that failed, by `rule_type` and `mode`.
pub const RULE_FAILURES: &str = "avdl2rs_registry_rule_failures_total";

/// The label with how a request ended.
pub const OUTCOME: &str = "outcome";
/// `outcome`: a success reply (2xx) that could be read.
pub const OK: &str = "ok";
/// `outcome`: refused by the registry (4xx: not found, incompatible, unauthorized), or not
/// sendable as configured.
pub const CLIENT_ERROR: &str = "client_error";
/// `outcome`: the registry failed (5xx).
pub const SERVER_ERROR: &str = "server_error";
/// `outcome`: no reply: connection refused or dropped, timeout, TLS failure.
pub const TRANSPORT: &str = "transport";
/// `outcome`: a success status with a body the API does not describe.
pub const INVALID_REPLY: &str = "invalid_reply";

/// The label naming a cache.
pub const CACHE: &str = "cache";
/// `cache`: schemas by id, kept by the client.
pub const SCHEMAS: &str = "schemas";
/// `cache`: schema ids by subject and schema, kept by the client.
pub const IDS: &str = "ids";
/// `cache`: the latest version of subjects, kept by the client for its time to live.
pub const LATEST: &str = "latest";
/// `cache`: the writer schemas a deserializer fetched, looked at for every message.
pub const WRITERS: &str = "writers";

/// The label with the type of a failed rule (`CEL`, `ENCRYPT`, …).
pub const RULE_TYPE: &str = "rule_type";
/// The label with the mode a rule failed in (`WRITE`, `READ`, `UPGRADE`, `DOWNGRADE`).
pub const MODE: &str = "mode";

/// Gives the installed recorder the help text and unit of every metric of this crate. Call it
/// once, after installing the recorder; exporters that show help texts (Prometheus'
/// `# HELP`) need it.
pub fn describe() {
    describe_counter!(REQUESTS, "Requests sent to the schema registry.");
    describe_histogram!(
        REQUEST_SECONDS,
        Unit::Seconds,
        "Time from sending a registry request to reading its reply."
    );
    describe_counter!(CACHE_HITS, "Schema lookups answered by a cache.");
    describe_counter!(CACHE_MISSES, "Schema lookups a cache could not answer.");
    describe_counter!(RULE_FAILURES, "Data-contract rules that failed.");
}

/// Records a data-contract rule of `rule_type` that failed in `mode`: for the rule
/// executors, which call it once per failure, whatever the rule's action on failure.
pub fn rule_failed(rule_type: &str, mode: &str) {
    counter!(RULE_FAILURES, RULE_TYPE => rule_type.to_owned(), MODE => mode.to_owned())
        .increment(1);
}

/// Records a request sent at `started` that ended with `result`.
pub(crate) fn request<T>(started: Instant, result: &Result<T, RegistryError>) {
    let outcome = outcome(result);
    counter!(REQUESTS, OUTCOME => outcome).increment(1);
    histogram!(REQUEST_SECONDS, OUTCOME => outcome).record(started.elapsed());
}

/// Records a lookup in `cache` that found its value (`hit`) or not: a lookup of a client's
/// cache, which is not made for every message (the serializers keep ids of their own).
pub(crate) fn cache_lookup(cache: &'static str, hit: bool) {
    let name = if hit { CACHE_HITS } else { CACHE_MISSES };
    counter!(name, CACHE => cache).increment(1);
}

/// The writer-cache hits a thread counts before it hands them to the recorder: handing over
/// looks up the counter's handle and adds to it atomically, several times what the hit's own
/// count costs.
pub const WRITER_HITS_HANDED_OVER_EVERY: u32 = 256;

/// The writer-cache hits of a thread not yet handed to the recorder; handed over when the
/// thread ends.
struct PendingHits(Cell<u32>);

impl Drop for PendingHits {
    fn drop(&mut self) {
        // The thread's cache of handles may be gone already: no handle.
        let hits = self.0.take();
        if hits > 0 {
            counter!(CACHE_HITS, CACHE => WRITERS).increment(hits.into());
        }
    }
}

thread_local! {
    static WRITER_HITS: PendingHits = const { PendingHits(Cell::new(0)) };
}

/// Records a lookup of a deserializer's writer schemas, made for every message: a hit is
/// added up on the thread ([`WRITER_HITS_HANDED_OVER_EVERY`]), a miss (once per schema id)
/// recorded at once.
#[inline]
pub(crate) fn writer_lookup(hit: bool) {
    if !hit {
        return writer_missed();
    }
    let counted = WRITER_HITS.try_with(|pending| {
        let hits = pending.0.get() + 1;
        pending.0.set(hits);
        if hits == WRITER_HITS_HANDED_OVER_EVERY {
            flush();
        }
    });
    if counted.is_err() {
        // The thread is ending.
        counter!(CACHE_HITS, CACHE => WRITERS).increment(1);
    }
}

#[cold]
fn writer_missed() {
    counter!(CACHE_MISSES, CACHE => WRITERS).increment(1);
}

/// Hands the writer-cache hits this thread counted to the recorder current now: the Kafka
/// consumer calls it whenever it waits for the broker, so that an idle program's counters are
/// exact; call it before reading the counters otherwise (a test's recorder). The hits of
/// other threads are handed over by those threads.
#[cold]
pub fn flush() {
    let _ = WRITER_HITS.try_with(|pending| {
        let hits = pending.0.take();
        if hits == 0 {
            return;
        }
        thread_local! {
            static HITS: RefCell<HandleCache<(), Counter>> =
                const { RefCell::new(HandleCache::new()) };
        }
        let register = |_: &()| ((), counter!(CACHE_HITS, CACHE => WRITERS));
        let handed =
            HITS.try_with(|kept| kept.borrow_mut().get(&(), register).increment(hits.into()));
        if handed.is_err() {
            counter!(CACHE_HITS, CACHE => WRITERS).increment(hits.into());
        }
    });
}

/// The handles of metrics whose labels repeat (a topic, a hit or a miss), registered with the
/// recorder once and kept: the `counter!` and `histogram!` macros build the metric's key and
/// have the recorder hash it and look it up at every call, which costs a per-message path
/// several times what it records. Keep one in a `thread_local!`, so that using it takes no
/// lock.
///
/// Handles belong to the recorder that registered them, so each is kept with the address of
/// the recorder current then (`metrics::with_recorder`: the thread's local one, else the
/// global one) and registered again when another recorder is current. A global recorder
/// lives as long as the program; a local one (tests) should not be dropped and replaced by
/// another at the same address on the same thread while handles are kept, since that
/// address would be taken for the first.
///
/// At most [`HandleCache::CAPACITY`] handles are kept; past that the oldest is dropped and
/// registered again when used, so that label values that keep changing cannot grow it.
pub struct HandleCache<K, H> {
    entries: Vec<(usize, K, H)>,
    /// The index of the entry found last, looked at first: a path records the same metric
    /// over and over.
    last: usize,
}

impl<K, H> HandleCache<K, H> {
    /// How many handles are kept.
    pub const CAPACITY: usize = 32;

    /// An empty cache.
    pub const fn new() -> Self {
        HandleCache {
            entries: Vec::new(),
            last: 0,
        }
    }

    /// The handles of `key` for the current recorder, registered by `register` (which gives
    /// the key to keep and the handles) when they are not kept yet.
    pub fn get<Q>(&mut self, key: &Q, register: impl FnOnce(&Q) -> (K, H)) -> &H
    where
        K: Borrow<Q>,
        Q: Eq + ?Sized,
    {
        let recorder = current_recorder();
        let matches = |(r, k, _): &(usize, K, H)| *r == recorder && k.borrow() == key;
        if !self.entries.get(self.last).is_some_and(matches) {
            self.last = match self.entries.iter().position(matches) {
                Some(at) => at,
                None => self.insert(recorder, register(key)),
            };
        }
        &self.entries[self.last].2
    }

    /// Keeps newly registered handles, dropping the oldest when full; their index.
    #[cold]
    fn insert(&mut self, recorder: usize, (key, handles): (K, H)) -> usize {
        if self.entries.len() == Self::CAPACITY {
            self.entries.remove(0);
        }
        self.entries.push((recorder, key, handles));
        self.entries.len() - 1
    }
}

impl<K, H> Default for HandleCache<K, H> {
    fn default() -> Self {
        HandleCache::new()
    }
}

/// The address of the recorder metrics go to now, which tells recorders apart.
fn current_recorder() -> usize {
    metrics::with_recorder(|recorder| (recorder as *const dyn Recorder).cast::<()>() as usize)
}

/// The `outcome` label of a request's result.
fn outcome<T>(result: &Result<T, RegistryError>) -> &'static str {
    match result {
        Ok(_) => OK,
        Err(RegistryError::Api(e)) if e.status >= 500 => SERVER_ERROR,
        Err(RegistryError::Transport { .. } | RegistryError::CertificateRefused { .. }) => {
            TRANSPORT
        }
        Err(RegistryError::InvalidReply { .. }) => INVALID_REPLY,
        Err(_) => CLIENT_ERROR,
    }
}
