//! `order-events produce --topic T` writes the events of two orders across a change of
//! `OrderPaid`; `order-events consume --topic T --count N` prints them. Brokers by
//! `-b/--brokers` or `AVDL2RS_KAFKA_BROKERS`, the registry by `--url` or
//! `AVDL2RS_SCHEMA_REGISTRY_URL`, as for `avdl2rs kafka`.
//!
//! Exit codes: 0 done, 1 a message could not be read, 2 could not run.

use std::process::ExitCode;

use clap::Parser;
use order_events::connection::Connection;
use order_events::failure::Failure;
use order_events::options::{Action, Args};
use order_events::{consume, produce};

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

async fn run(args: &Args) -> Result<(), Failure> {
    let connection = Connection::from_args(args)?;
    match &args.action {
        Action::Produce { topic } => produce::run(&connection, topic).await,
        Action::Consume { topic, count } => consume::run(&connection, topic, *count).await,
    }
}
