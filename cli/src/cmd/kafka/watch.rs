//! When `kafka consume` stops on its own: after `--idle` without a message once it has
//! partitions to read, so that a script can read a topic to its end; with exit 2 when no
//! broker answers for `--timeout`, or (with `--idle`) when no partition is assigned in that
//! time. Also which client errors are worth a line: each distinct one once, not one per
//! reconnection attempt.

use std::time::{Duration, Instant};

/// What the consumer should do next.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Go on reading.
    Go,
    /// `--idle` passed without a message: done.
    Idle,
    /// No broker answered for `--timeout`.
    Down,
    /// With `--idle`, no partition was assigned within `--timeout`.
    Unassigned,
}

/// The clocks of one consumer run.
pub struct Watch {
    idle: Option<Duration>,
    timeout: Duration,
    started: Instant,
    /// Since when nothing came: the last message, or the first moment partitions were
    /// assigned; `None` before either.
    quiet_since: Option<Instant>,
    /// Since when every client error said that no broker answers.
    down_since: Option<Instant>,
    last_error: Option<String>,
}

impl Watch {
    /// Clocks started at `now`.
    pub fn new(idle: Option<Duration>, timeout: Duration, now: Instant) -> Self {
        Watch {
            idle,
            timeout,
            started: now,
            quiet_since: None,
            down_since: None,
            last_error: None,
        }
    }

    /// A message came (readable or not).
    pub fn message(&mut self, now: Instant) {
        self.quiet_since = Some(now);
        self.down_since = None;
    }

    /// The client reported `error`, which says no broker answers when `unreachable`.
    /// Answers whether it is worth printing: it differs from the last one printed.
    pub fn error(&mut self, error: String, unreachable: bool, now: Instant) -> bool {
        if unreachable {
            self.down_since.get_or_insert(now);
        }
        let new = self.last_error.as_ref() != Some(&error);
        self.last_error = Some(error);
        new
    }

    /// What to do at `now`, with partitions `assigned` or not.
    pub fn verdict(&mut self, assigned: bool, now: Instant) -> Verdict {
        if self
            .down_since
            .is_some_and(|since| now - since >= self.timeout)
        {
            return Verdict::Down;
        }
        if assigned && self.quiet_since.is_none() {
            self.quiet_since = Some(now);
        }
        let Some(idle) = self.idle else {
            return Verdict::Go;
        };
        match self.quiet_since {
            Some(since) if now - since >= idle => Verdict::Idle,
            None if now - self.started >= self.timeout => Verdict::Unassigned,
            _ => Verdict::Go,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: Duration = Duration::from_secs(1);

    #[test]
    fn idle_counts_from_the_assignment_then_from_each_message() {
        let t0 = Instant::now();
        let mut watch = Watch::new(Some(2 * SECOND), 30 * SECOND, t0);
        // A slow group join does not count as idle.
        assert_eq!(watch.verdict(false, t0 + 10 * SECOND), Verdict::Go);
        assert_eq!(watch.verdict(true, t0 + 11 * SECOND), Verdict::Go);
        watch.message(t0 + 12 * SECOND);
        assert_eq!(watch.verdict(true, t0 + 13 * SECOND), Verdict::Go);
        assert_eq!(watch.verdict(true, t0 + 14 * SECOND), Verdict::Idle);
    }

    #[test]
    fn without_idle_it_reads_on() {
        let t0 = Instant::now();
        let mut watch = Watch::new(None, SECOND, t0);
        assert_eq!(watch.verdict(false, t0 + 100 * SECOND), Verdict::Go);
        assert_eq!(watch.verdict(true, t0 + 200 * SECOND), Verdict::Go);
    }

    #[test]
    fn with_idle_a_topic_never_assigned_ends_after_the_timeout() {
        let t0 = Instant::now();
        let mut watch = Watch::new(Some(SECOND), 5 * SECOND, t0);
        assert_eq!(watch.verdict(false, t0 + 4 * SECOND), Verdict::Go);
        assert_eq!(watch.verdict(false, t0 + 5 * SECOND), Verdict::Unassigned);
    }

    #[test]
    fn brokers_down_for_the_timeout_end_it_and_a_message_resets_the_clock() {
        let t0 = Instant::now();
        let mut watch = Watch::new(None, 3 * SECOND, t0);
        assert!(watch.error("all brokers down".into(), true, t0));
        assert!(!watch.error("all brokers down".into(), true, t0 + SECOND));
        watch.message(t0 + 2 * SECOND);
        assert_eq!(watch.verdict(true, t0 + 4 * SECOND), Verdict::Go);
        assert!(!watch.error("all brokers down".into(), true, t0 + 4 * SECOND));
        assert_eq!(watch.verdict(true, t0 + 6 * SECOND), Verdict::Go);
        assert_eq!(watch.verdict(true, t0 + 7 * SECOND), Verdict::Down);
    }

    #[test]
    fn refusals_by_a_broker_that_answers_do_not_end_it() {
        let t0 = Instant::now();
        let mut watch = Watch::new(None, SECOND, t0);
        assert!(watch.error("unknown topic".into(), false, t0));
        assert!(watch.error("other".into(), false, t0));
        assert!(watch.error("unknown topic".into(), false, t0));
        assert_eq!(watch.verdict(false, t0 + 60 * SECOND), Verdict::Go);
    }
}
