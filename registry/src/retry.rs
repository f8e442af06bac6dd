//! When to send a failed request again, and how long to wait first.

use std::time::{Duration, SystemTime};

/// Retries with exponential backoff and jitter, for connection errors, timeouts, HTTP 408,
/// 429 and 5xx; bounded in count and in total time. A `Retry-After` header is honoured.
///
/// Built from [`RetryPolicy::default`] (or [`RetryPolicy::none`]) through its setters, so that
/// new settings can be added without breaking callers:
///
/// ```
/// use std::time::Duration;
/// use avdl2rs_registry::RetryPolicy;
/// let policy = RetryPolicy::default().max_retries(5).max_elapsed(Duration::from_secs(60));
/// assert_eq!(policy.max_retries, 5);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Attempts after the first (`0` turns retries off).
    pub max_retries: u32,
    /// The wait before the first retry; each further retry doubles it.
    pub initial_backoff: Duration,
    /// The longest wait between two attempts (a longer `Retry-After` ends the retries).
    pub max_backoff: Duration,
    /// No retry starts once this much time has passed since the first attempt.
    pub max_elapsed: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(5),
            max_elapsed: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// No retries: every failure is returned at once.
    pub fn none() -> Self {
        RetryPolicy {
            max_retries: 0,
            ..Self::default()
        }
    }

    /// With this many attempts after the first (`0` turns retries off).
    pub fn max_retries(mut self, retries: u32) -> Self {
        self.max_retries = retries;
        self
    }

    /// With this wait before the first retry (each further retry doubles it).
    pub fn initial_backoff(mut self, wait: Duration) -> Self {
        self.initial_backoff = wait;
        self
    }

    /// With this longest wait between two attempts.
    pub fn max_backoff(mut self, wait: Duration) -> Self {
        self.max_backoff = wait;
        self
    }

    /// Starting no retry once this much time has passed since the first attempt.
    pub fn max_elapsed(mut self, limit: Duration) -> Self {
        self.max_elapsed = limit;
        self
    }

    /// The wait before retry number `retry` (0 for the first), with "equal jitter": a random
    /// point in the upper half of the exponential step, so clients that failed together do
    /// not come back together.
    pub(crate) fn wait_before(&self, retry: u32) -> Duration {
        let step = self
            .initial_backoff
            .saturating_mul(1u32.checked_shl(retry.min(31)).unwrap_or(u32::MAX))
            .min(self.max_backoff);
        let half = step / 2;
        half + half.mul_f64(fastrand::f64())
    }

    /// The wait before retry number `retry`; the clients' own arithmetic, never meant for
    /// callers.
    #[deprecated(note = "internal to the clients; will become private")]
    #[doc(hidden)]
    pub fn backoff(&self, retry: u32) -> Duration {
        self.wait_before(retry)
    }
}

/// Reads a `Retry-After` header: whole seconds or an HTTP date.
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let when = httpdate::parse_http_date(value).ok()?;
    Some(
        when.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_within_jitter_and_caps() {
        let policy = RetryPolicy {
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(350),
            ..RetryPolicy::default()
        };
        for _ in 0..50 {
            let first = policy.wait_before(0);
            assert!(first >= Duration::from_millis(50) && first <= Duration::from_millis(100));
            let second = policy.wait_before(1);
            assert!(second >= Duration::from_millis(100) && second <= Duration::from_millis(200));
            let capped = policy.wait_before(40);
            assert!(capped >= Duration::from_millis(175) && capped <= Duration::from_millis(350));
        }
    }

    #[test]
    fn retry_after_in_seconds_or_as_a_date() {
        assert_eq!(parse_retry_after(" 3 "), Some(Duration::from_secs(3)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        let later = httpdate::fmt_http_date(SystemTime::now() + Duration::from_secs(60));
        let wait = parse_retry_after(&later).unwrap();
        assert!(wait > Duration::from_secs(55) && wait <= Duration::from_secs(60));
        assert_eq!(parse_retry_after("soon"), None);
    }
}
