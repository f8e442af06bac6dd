//! A consumer that stops before committing, as a killed process does, and a new member of
//! its group: reading resumes from the last commit, so the messages after it are read again
//! (at least once) and none before it.

use avdl2rs_kafka::{Raw, SendOptions, TypedConsumer};
use avdl2rs_registry::nonblocking::Deserializer;
use avdl2rs_tests::fresh_name;
use kafka_orders::v2::OrderEvent;

use crate::roundtrip::order;
use crate::support::{env, receive, records, within, Env};

fn consumer(env: &Env, group: &str) -> TypedConsumer<String, OrderEvent, Raw> {
    let mut config = env.group(group);
    // Only what the test commits counts, as after a crash.
    config.set("enable.auto.commit", "false");
    let value = Deserializer::new(env.registry());
    TypedConsumer::new(&config, Raw, value).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn a_restarted_member_resumes_from_the_last_commit() {
    let env = env();
    let topic = env.topic("restart", 2).await;
    let producer = env.text_producer::<OrderEvent>();
    for id in 0..100 {
        let to = SendOptions::new().partition(id % 2);
        producer
            .send_with(&topic, Some("k"), &order(id), to)
            .await
            .unwrap();
    }
    let group = fresh_name("restart");

    let first = consumer(&env, &group);
    first.subscribe(&[&topic]).unwrap();
    let read = records(receive(&first, 100).await);
    // Commit, per partition, what came before the last 10 messages read there.
    let mut committed = Vec::new();
    for partition in [0, 1] {
        let mut mine: Vec<_> = read
            .iter()
            .filter(|r| r.position.partition == partition)
            .collect();
        let done = mine.len() - 10;
        within("commit", first.commit(mine[done - 1]))
            .await
            .unwrap();
        committed.extend(mine.drain(..done).map(|r| r.value.as_ref().unwrap().id));
    }
    drop(first);

    let second = consumer(&env, &group);
    second.subscribe(&[&topic]).unwrap();
    let again = records(receive(&second, 20).await);
    let mut ids: Vec<i32> = committed;
    ids.extend(again.iter().map(|r| r.value.as_ref().unwrap().id));
    ids.sort_unstable();
    assert_eq!(ids, (0..100).collect::<Vec<_>>());
    for record in &again {
        let tail = read
            .iter()
            .filter(|r| r.position.partition == record.position.partition);
        let firsts: Vec<_> = tail.map(|r| r.position.offset).collect();
        let resumed_at = firsts[firsts.len() - 10];
        assert!(
            record.position.offset >= resumed_at,
            "{:?}",
            record.position
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn only_records_marked_done_count_as_consumed() {
    let env = env();
    let topic = env.topic("marked", 1).await;
    let producer = env.text_producer::<OrderEvent>();
    for id in 0..10 {
        producer.send(&topic, "k", &order(id)).await.unwrap();
    }
    let group = fresh_name("marked");
    // Auto-commit on (librdkafka's default): it commits what was marked, nothing more.
    let value = Deserializer::new(env.registry());
    let first =
        TypedConsumer::<String, OrderEvent, Raw>::new(&env.group(&group), Raw, value).unwrap();
    first.subscribe(&[&topic]).unwrap();
    for n in 0..10 {
        let record = within("a record", first.recv()).await.unwrap().unwrap();
        if n < 6 {
            first.store_offset(&record).unwrap();
        }
    }
    within("commit", first.commit_stored()).await.unwrap();
    drop(first);

    let second = consumer(&env, &group);
    second.subscribe(&[&topic]).unwrap();
    let again = records(receive(&second, 4).await);
    let ids: Vec<i32> = again.iter().map(|r| r.value.as_ref().unwrap().id).collect();
    assert_eq!(ids, [6, 7, 8, 9], "the four not marked done are read again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs a Kafka broker and a Schema Registry (.ci/kafka-broker, .ci/registry-server)"]
async fn committing_with_nothing_stored_is_not_an_error() {
    let env = env();
    let topic = env.topic("nothing-stored", 1).await;
    let consumer = consumer(&env, &fresh_name("nothing"));
    consumer.subscribe(&[&topic]).unwrap();
    within("commit", consumer.commit_stored()).await.unwrap();
}
