//! Sending framed messages and waiting for their delivery reports, so that `kafka produce`
//! can say which input lines the broker did not take. Each message waits at most
//! `message.timeout.ms` (set from `--timeout`): librdkafka reports it failed then.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;

use avdl2rs_kafka::{Delivered, Raw, SendError, SendOptions, TypedProducer};

use super::encode::Framed;

/// How many messages may wait for their delivery reports at once: enough to keep the link
/// busy, few enough that the reports of a long input are not all held at once.
const IN_FLIGHT: usize = 1_000;

/// A producer of bytes already written.
pub type BytesProducer = TypedProducer<[u8], [u8], Raw, Raw>;

type Report = Pin<Box<dyn Future<Output = Result<Delivered, SendError>> + Send>>;

/// The messages of one run queued to a topic, and what came of them.
pub struct Sender<'a> {
    producer: &'a BytesProducer,
    topic: &'a str,
    pending: VecDeque<(u64, Report)>,
    outcome: Outcome,
}

/// What came of the messages sent.
#[derive(Default)]
pub struct Outcome {
    /// How many the broker took.
    pub delivered: u64,
    /// The lines of those it did not take, and the first reason.
    pub failed: Vec<u64>,
    /// Why the first message not delivered was not.
    pub first_error: Option<String>,
}

impl<'a> Sender<'a> {
    /// Sends through `producer` to `topic`.
    pub fn new(producer: &'a BytesProducer, topic: &'a str) -> Self {
        Sender {
            producer,
            topic,
            pending: VecDeque::new(),
            outcome: Outcome::default(),
        }
    }

    /// Queues `message`, first waiting for the oldest report when too many are pending.
    pub async fn send(&mut self, message: Framed) {
        if self.pending.len() >= IN_FLIGHT {
            self.settle_oldest().await;
        }
        let options = SendOptions {
            headers: message.headers,
            ..SendOptions::new()
        };
        let key = message.key.as_deref();
        let queued = self
            .producer
            .enqueue(self.topic, key, &message.value, options)
            .await;
        match queued {
            Ok(report) => self.pending.push_back((message.line, Box::pin(report))),
            Err(e) => self.failed(message.line, &e),
        }
    }

    /// Waits for every report.
    pub async fn finish(mut self) -> Outcome {
        while !self.pending.is_empty() {
            self.settle_oldest().await;
        }
        self.outcome
    }

    async fn settle_oldest(&mut self) {
        if let Some((line, report)) = self.pending.pop_front() {
            match report.await {
                Ok(_) => self.outcome.delivered += 1,
                Err(e) => self.failed(line, &e),
            }
        }
    }

    fn failed(&mut self, line: u64, error: &SendError) {
        self.outcome.failed.push(line);
        self.outcome
            .first_error
            .get_or_insert_with(|| error.to_string());
    }
}

impl Outcome {
    /// What to say of the messages not delivered, naming their lines of `input`; `None`
    /// when all were.
    pub fn undelivered(&self, input: &str) -> Option<String> {
        let first = self.first_error.as_deref()?;
        let total = self.delivered + self.failed.len() as u64;
        Some(format!(
            "{} of {total} messages not delivered, {input} {}: {first}",
            self.failed.len(),
            lines(&self.failed),
        ))
    }
}

/// Line numbers, ascending, as `line 4` or `lines 3-5, 9`.
fn lines(numbers: &[u64]) -> String {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &n in numbers {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == n => *end = n,
            _ => runs.push((n, n)),
        }
    }
    let runs: Vec<String> = runs
        .iter()
        .map(|&(start, end)| match start == end {
            true => start.to_string(),
            false => format!("{start}-{end}"),
        })
        .collect();
    let word = if numbers.len() == 1 { "line" } else { "lines" };
    format!("{word} {}", runs.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_in_runs() {
        assert_eq!(lines(&[4]), "line 4");
        assert_eq!(lines(&[3, 4, 5, 9, 11, 12]), "lines 3-5, 9, 11-12");
    }

    #[test]
    fn the_undelivered_are_named_by_line() {
        let all = Outcome {
            delivered: 3,
            ..Outcome::default()
        };
        assert_eq!(all.undelivered("<stdin>"), None);
        let some = Outcome {
            delivered: 1,
            failed: vec![2, 3],
            first_error: Some("timed out".into()),
        };
        assert_eq!(
            some.undelivered("in.jsonl").as_deref(),
            Some("2 of 3 messages not delivered, in.jsonl lines 2-3: timed out")
        );
    }
}
