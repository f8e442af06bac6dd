//! Where the broker and the registry are, and the client settings both commands share.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use avdl2rs_kafka::rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use avdl2rs_kafka::rdkafka::client::DefaultClientContext;
use avdl2rs_kafka::rdkafka::types::RDKafkaErrorCode;
use avdl2rs_kafka::rdkafka::ClientConfig;
use avdl2rs_registry::nonblocking::Client;

use crate::failure::Failure;
use crate::options::{Args, BROKERS_VAR};

/// The broker, the registry and how long to wait for either.
pub struct Connection {
    /// `host:port` of the brokers, comma-separated.
    pub brokers: String,
    /// The registry client, shared by the serializers and deserializers.
    pub registry: Arc<Client>,
    /// How long one step (a message sent, the next message read) may take.
    pub timeout: Duration,
}

impl Connection {
    /// The connection the options name; missing brokers or registry is an error naming the
    /// option and the variable that give them.
    pub fn from_args(args: &Args) -> Result<Connection, Failure> {
        let brokers = args.brokers.clone().ok_or_else(|| {
            Failure::CannotRun(format!(
                "no brokers: give -b/--brokers or set {BROKERS_VAR}"
            ))
        })?;
        let url = args.url.as_deref().ok_or_else(|| {
            let var = avdl2rs_registry::URL_VAR;
            Failure::CannotRun(format!("no registry: give --url or set {var}"))
        })?;
        let timeout = Duration::from_secs(args.timeout);
        let config = avdl2rs_registry::ClientConfig::new(url).timeouts(timeout, timeout);
        let registry = Client::new(config).map_err(|e| Failure::cannot("registry", e))?;
        Ok(Connection {
            brokers,
            registry: Arc::new(registry),
            timeout,
        })
    }

    /// Producer and admin settings: the brokers, and the broker's answer awaited no longer
    /// than the timeout.
    pub fn kafka(&self) -> ClientConfig {
        let mut config = ClientConfig::new();
        config
            .set("bootstrap.servers", &self.brokers)
            .set("message.timeout.ms", self.timeout.as_millis().to_string());
        config
    }

    /// Consumer settings: a group of its own, so that every run reads the topic from its
    /// beginning. The short session timeout makes the join quick on brokers that wait for
    /// half of it (tansu).
    pub fn consumer(&self) -> ClientConfig {
        let since = std::time::UNIX_EPOCH.elapsed().unwrap_or_default();
        let group = format!("order-events-{}-{}", std::process::id(), since.as_nanos());
        let mut config = ClientConfig::new();
        config
            .set("bootstrap.servers", &self.brokers)
            .set("group.id", group)
            .set("auto.offset.reset", "earliest")
            .set("session.timeout.ms", "6000")
            .set("heartbeat.interval.ms", "1000");
        config
    }

    /// `future`'s output, or an error saying `what` did not finish within the timeout.
    pub async fn within<T>(
        &self,
        what: &str,
        future: impl Future<Output = T>,
    ) -> Result<T, Failure> {
        tokio::time::timeout(self.timeout, future)
            .await
            .map_err(|_| Failure::cannot(what, format!("nothing within {:?}", self.timeout)))
    }

    /// Creates `topic` with one partition, so that the whole stream keeps its order; an
    /// existing topic is kept as it is.
    pub async fn create_topic(&self, topic: &str) -> Result<(), Failure> {
        let creating = format!("create topic {topic}");
        let admin: AdminClient<DefaultClientContext> = self
            .kafka()
            .create()
            .map_err(|e| Failure::cannot(&creating, e))?;
        let new = NewTopic::new(topic, 1, TopicReplication::Fixed(1));
        let options = AdminOptions::new().request_timeout(Some(self.timeout));
        let results = self
            .within(&creating, admin.create_topics([&new], &options))
            .await?
            .map_err(|e| Failure::cannot(&creating, e))?;
        for result in results {
            match result {
                Ok(_) | Err((_, RDKafkaErrorCode::TopicAlreadyExists)) => {}
                Err((_, code)) => return Err(Failure::cannot(&creating, code)),
            }
        }
        Ok(())
    }
}
