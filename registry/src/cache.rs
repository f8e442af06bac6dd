//! Caches with single flight: concurrent misses for one key wait for one request.
//!
//! Values sit in a map behind a read-write lock that is only ever held to copy a value in
//! or out, never during I/O, so reads of a warm cache never wait for a request. Misses
//! take the key's flight lock (a per-key mutex, of the transport's kind) for the request:
//! the first caller sends it, the others find the value when they get the lock. Failures
//! are never stored, so a later call asks again.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};

/// A map of fetched values, each kept forever or for a time to live.
pub(crate) struct Cache<K, V, F> {
    /// The `cache` label of its hits and misses in the metrics.
    name: &'static str,
    values: RwLock<HashMap<K, (V, Instant)>>,
    flights: Mutex<HashMap<K, Arc<F>>>,
    ttl: Option<Duration>,
}

impl<K: Eq + Hash + Clone, V: Clone, F: Default> Cache<K, V, F> {
    /// A cache named `name` in the metrics whose values expire `ttl` after they were
    /// fetched (`None`: never).
    pub(crate) fn new(name: &'static str, ttl: Option<Duration>) -> Self {
        Cache {
            name,
            values: RwLock::default(),
            flights: Mutex::default(),
            ttl,
        }
    }

    /// The value of `key`, unless absent or expired.
    pub(crate) fn get(&self, key: &K) -> Option<V> {
        let values = self.values.read().unwrap_or_else(PoisonError::into_inner);
        let (value, fetched) = values.get(key)?;
        match self.ttl {
            Some(ttl) if fetched.elapsed() >= ttl => None,
            _ => Some(value.clone()),
        }
    }

    /// The value of `key` as [`Cache::get`], counted as a hit or a miss in the metrics: the
    /// first look of a call, not the one again after waiting for another caller's flight.
    pub(crate) fn lookup(&self, key: &K) -> Option<V> {
        let value = self.get(key);
        crate::metrics::cache_lookup(self.name, value.is_some());
        value
    }

    /// Stores a fetched value.
    pub(crate) fn insert(&self, key: K, value: V) {
        let mut values = self.values.write().unwrap_or_else(PoisonError::into_inner);
        values.insert(key, (value, Instant::now()));
    }

    /// Forgets `key`, so the next read fetches it.
    pub(crate) fn remove(&self, key: &K) {
        let mut values = self.values.write().unwrap_or_else(PoisonError::into_inner);
        values.remove(key);
    }

    /// The flight lock of `key`, shared by everyone missing it now.
    pub(crate) fn flight(&self, key: &K) -> Arc<F> {
        let mut flights = self.flights.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(flights.entry(key.clone()).or_default())
    }

    /// Ends the flight of `key`: callers already waiting keep their lock, later misses
    /// start a new flight.
    pub(crate) fn land(&self, key: &K, flight: &Arc<F>) {
        let mut flights = self.flights.lock().unwrap_or_else(PoisonError::into_inner);
        if flights.get(key).is_some_and(|f| Arc::ptr_eq(f, flight)) {
            flights.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_expire_after_their_ttl() {
        let cache: Cache<u8, u8, ()> = Cache::new("test", Some(Duration::from_millis(30)));
        cache.insert(1, 10);
        assert_eq!(cache.get(&1), Some(10));
        std::thread::sleep(Duration::from_millis(40));
        assert_eq!(cache.get(&1), None);
        let forever: Cache<u8, u8, ()> = Cache::new("test", None);
        forever.insert(1, 10);
        forever.remove(&1);
        assert_eq!(forever.get(&1), None);
    }

    #[test]
    fn one_flight_per_key_until_it_lands() {
        let cache: Cache<u8, u8, Mutex<()>> = Cache::new("test", None);
        let first = cache.flight(&1);
        assert!(Arc::ptr_eq(&first, &cache.flight(&1)));
        assert!(!Arc::ptr_eq(&first, &cache.flight(&2)));
        cache.land(&1, &first);
        assert!(!Arc::ptr_eq(&first, &cache.flight(&1)));
    }
}
