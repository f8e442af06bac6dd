//! What the registry tests share: the fake server, and one interface over both clients so
//! every scenario runs against the blocking and the async transport alike.

pub mod fake;
#[macro_use]
pub mod serdes;

use std::sync::Arc;

use avdl2rs_registry::{
    blocking, nonblocking, ClientConfig, CompatLevel, CompatibilityReport, Result, Schema,
    SubjectVersion, Version,
};

/// The client calls the scenarios use, for either transport.
pub trait Under: Send + Sync {
    fn schema_by_id(&self, id: i32) -> Result<Arc<Schema>>;
    fn register(&self, subject: &str, schema: &Schema, normalize: bool) -> Result<i32>;
    fn lookup(&self, subject: &str, schema: &Schema, normalize: bool) -> Result<SubjectVersion>;
    fn id_of(&self, subject: &str, schema: &Schema, normalize: bool) -> Result<i32>;
    fn subject_version(&self, subject: &str, version: Version) -> Result<SubjectVersion>;
    fn latest(&self, subject: &str) -> Result<Arc<SubjectVersion>>;
    fn subjects(&self) -> Result<Vec<String>>;
    fn versions(&self, subject: &str) -> Result<Vec<i32>>;
    fn delete_subject(&self, subject: &str, permanent: bool) -> Result<Vec<i32>>;
    fn test_compatibility(
        &self,
        subject: &str,
        version: Version,
        schema: &Schema,
    ) -> Result<CompatibilityReport>;
    fn config(&self, subject: Option<&str>) -> Result<CompatLevel>;
    fn set_config(&self, subject: Option<&str>, level: CompatLevel) -> Result<CompatLevel>;
}

/// Builds a client under test from settings.
pub type Make = fn(ClientConfig) -> Arc<dyn Under>;

pub fn blocking_client(config: ClientConfig) -> Arc<dyn Under> {
    Arc::new(blocking::Client::new(config).unwrap())
}

pub fn async_client(config: ClientConfig) -> Arc<dyn Under> {
    Arc::new(AsyncUnder {
        runtime: runtime(),
        client: nonblocking::Client::new(config).unwrap(),
    })
}

/// A runtime for driving async clients from test threads.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The async client, driven from test threads through its own runtime.
pub struct AsyncUnder {
    runtime: tokio::runtime::Runtime,
    client: nonblocking::Client,
}

macro_rules! forward {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $out:ty;)*) => {
        impl Under for blocking::Client {
            $(fn $name(&self, $($arg: $ty),*) -> Result<$out> {
                blocking::Client::$name(self, $($arg),*)
            })*
        }
        impl Under for AsyncUnder {
            $(fn $name(&self, $($arg: $ty),*) -> Result<$out> {
                self.runtime.block_on(self.client.$name($($arg),*))
            })*
        }
    };
}

forward! {
    schema_by_id(id: i32) -> Arc<Schema>;
    register(subject: &str, schema: &Schema, normalize: bool) -> i32;
    subject_version(subject: &str, version: Version) -> SubjectVersion;
    latest(subject: &str) -> Arc<SubjectVersion>;
    subjects() -> Vec<String>;
    versions(subject: &str) -> Vec<i32>;
    delete_subject(subject: &str, permanent: bool) -> Vec<i32>;
    test_compatibility(subject: &str, version: Version, schema: &Schema) -> CompatibilityReport;
    config(subject: Option<&str>) -> CompatLevel;
    set_config(subject: Option<&str>, level: CompatLevel) -> CompatLevel;
    lookup(subject: &str, schema: &Schema, normalize: bool) -> SubjectVersion;
    id_of(subject: &str, schema: &Schema, normalize: bool) -> i32;
}

/// Runs a scenario `fn(Make)` once per transport, as two tests.
#[macro_export]
macro_rules! both_transports {
    ($($(#[$attr:meta])* $scenario:ident),* $(,)?) => {
        mod blocking_transport {
            $($(#[$attr])* #[test] fn $scenario() { super::$scenario(super::support::blocking_client) })*
        }
        mod async_transport {
            $($(#[$attr])* #[test] fn $scenario() { super::$scenario(super::support::async_client) })*
        }
    };
}
