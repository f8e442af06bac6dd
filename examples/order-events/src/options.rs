//! The command line: brokers and registry by the options and environment variables of the
//! `avdl2rs kafka` command, so that one environment serves both.

use clap::{Parser, Subcommand};

/// The environment variable with the brokers, as `avdl2rs kafka` reads it.
pub const BROKERS_VAR: &str = "AVDL2RS_KAFKA_BROKERS";

/// `order-events [OPTIONS] <produce|consume>`.
#[derive(Debug, Parser)]
#[command(
    name = "order-events",
    about = "Order events of three types in one topic, each under its own subject",
    after_help = "Exit codes: 0 done; 1 a message could not be read; 2 could not run (options, \
                  no broker or registry, nothing within --timeout)."
)]
pub struct Args {
    /// The brokers, `host:port` separated by commas.
    #[arg(short = 'b', long, env = BROKERS_VAR, global = true, value_name = "HOST:PORT,...")]
    pub brokers: Option<String>,
    /// The Schema Registry's base URL.
    #[arg(long, env = avdl2rs_registry::URL_VAR, global = true, value_name = "URL")]
    pub url: Option<String>,
    /// How long to wait for the broker to take a message, or for the next message.
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 30)]
    pub timeout: u64,
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// The two sides of the topic.
#[derive(Debug, Subcommand)]
pub enum Action {
    /// Writes the events of two orders: the first by the first release (`OrderPaid`
    /// version 1), the second by the current one (version 2). Creates the topic, with one
    /// partition, if it is missing.
    Produce {
        /// The topic.
        #[arg(long)]
        topic: String,
    },
    /// Prints the topic's events from its beginning, one line each: the type's name, a
    /// space, the value as JSON.
    Consume {
        /// The topic.
        #[arg(long)]
        topic: String,
        /// Stop after this many messages; without it, stop once none came within --timeout.
        #[arg(long, value_name = "N")]
        count: Option<usize>,
    },
}
