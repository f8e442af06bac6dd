//! The `avdl2rs` command line as a library: [`Cli`] describes the arguments, [`run`] executes
//! them and returns the process exit code.
//!
//! Exit codes: `0` success, `1` invalid input (the located error is printed on stderr),
//! `2` usage error, or a command that could not run (no registry given or reachable); `compat` uses `1` for incompatible and `2` for a check that could not run, `fmt` `1` for files `--check` finds to change and `2` for a file that does not parse. A subcommand is one module under `cmd/` plus one [`Command`] variant.

#![warn(missing_docs)]

/// The README, this crate's guide: `cargo test --doc` compiles and runs its snippets.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

mod cmd;
mod io;
mod json_values;
mod message_text;
mod random_data;
mod registry_options;
mod schema_file;
mod walk;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

pub use io::Failure;

/// Avro IDL and schemas to JSON schemas (and, with further commands, to Rust).
#[derive(Debug, Parser)]
#[command(
    name = "avdl2rs",
    version,
    about,
    after_help = "Examples:\n  \
        avdl2rs idl schemas/orders.avdl orders.avpr\n  \
        avdl2rs idl -I shared/ - < orders.avdl\n  \
        avdl2rs idl2schemata schemas/orders.avdl out/\n  \
        avdl2rs toidl orders.avpr orders.avdl\n  \
        avdl2rs fmt --check schemas/\n  \
        avdl2rs lsp\n  \
        avdl2rs gen -I shared/ schemas/ -o src/generated.rs\n  \
        avdl2rs cat --head 5 events.avro\n  \
        avdl2rs fromjson --schema event.avsc events.jsonl -o events.avro\n  \
        avdl2rs kafka consume --topic orders --from-beginning --count 10"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Converts an IDL file to its protocol (.avpr) or schema (.avsc) JSON.
    Idl(cmd::idl::Args),
    /// Writes one self-contained .avsc file per named type of an IDL file.
    Idl2schemata(cmd::idl2schemata::Args),
    /// Converts a schema (.avsc) or protocol (.avpr) to IDL.
    Toidl(cmd::toidl::Args),
    /// Lays out IDL files as Java's IDL writer does, in place or as a diff (--check).
    Fmt(cmd::fmt::Args),
    /// Generates Rust types with Avro codecs from schema files (.avdl, .avsc, .avpr).
    Gen(cmd::gen::Args),
    /// Checks a new schema version against previous ones at a compatibility level.
    Compat(cmd::compat::Args),
    /// Checks IDL and schema files for mistakes: defaults, names, docs, logical types, evolution.
    Lint(cmd::lint::Args),
    /// Runs the language server for editors (LSP over stdio): diagnostics, outline, formatting.
    #[cfg(feature = "lsp")]
    Lsp(cmd::lsp::Args),
    /// Talks to a Schema Registry: register, check, get, config, subjects.
    Registry(cmd::registry::Args),
    /// Consumes and produces Avro messages of a Kafka topic as JSON lines.
    #[cfg(feature = "kafka")]
    Kafka(cmd::kafka::Args),
    /// Prints the records of Avro object container files as JSON lines.
    #[command(visible_alias = "tojson")]
    Cat(cmd::cat::Args),
    /// Writes JSON values in Avro's JSON encoding into an Avro object container file.
    Fromjson(cmd::fromjson::Args),
    /// Encodes one value in Avro's JSON encoding as raw Avro binary.
    Jsontofrag(cmd::jsontofrag::Args),
    /// Decodes one value's raw Avro binary into Avro's JSON encoding.
    Fragtojson(cmd::fragtojson::Args),
    /// Writes a container file of valid random records of a schema.
    Random(cmd::random::Args),
    /// Joins container files of one schema, copying their blocks without decoding them.
    Concat(cmd::concat::Args),
    /// Writes a container file again with every block compressed in another codec.
    Recodec(cmd::recodec::Args),
    /// Writes the readable records of a damaged container file to a new one, reporting what was lost
    Repair(cmd::repair::Args),
    /// Prints a Confluent-framed or single-object message as Avro JSON.
    Decode(cmd::decode::Args),
    /// Frames one value in Avro's JSON encoding as a Confluent or single-object message.
    Encode(cmd::encode::Args),
    /// Prints the fingerprint of a schema's Parsing Canonical Form (CRC-64-AVRO, MD5, SHA-256).
    Fingerprint(cmd::fingerprint::Args),
    /// Prints a schema's Parsing Canonical Form.
    Canonical(cmd::canonical::Args),
    /// Prints the schema of an Avro object container file.
    Getschema(cmd::getschema::Args),
    /// Prints the metadata of an Avro object container file.
    Getmeta(cmd::getmeta::Args),
    /// Prints the number of records in an Avro object container file.
    Count(cmd::count::Args),
}

/// Runs the command line `args` (the program name first) and returns the exit code.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with success; usage errors exit with 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                io::USAGE
            } else {
                io::SUCCESS
            });
        }
    };
    let result = match &cli.command {
        Command::Idl(args) => cmd::idl::run(args),
        Command::Idl2schemata(args) => cmd::idl2schemata::run(args),
        Command::Toidl(args) => cmd::toidl::run(args),
        Command::Fmt(args) => return cmd::fmt::run(args),
        Command::Gen(args) => cmd::gen::run(args),
        Command::Compat(args) => return cmd::compat::run(args),
        Command::Lint(args) => return cmd::lint::run(args),
        #[cfg(feature = "lsp")]
        Command::Lsp(args) => return cmd::lsp::run(args),
        Command::Registry(args) => return cmd::registry::run(args),
        #[cfg(feature = "kafka")]
        Command::Kafka(args) => return cmd::kafka::run(args),
        Command::Cat(args) => cmd::cat::run(args),
        Command::Fromjson(args) => cmd::fromjson::run(args),
        Command::Jsontofrag(args) => cmd::jsontofrag::run(args),
        Command::Fragtojson(args) => cmd::fragtojson::run(args),
        Command::Random(args) => cmd::random::run(args),
        Command::Concat(args) => cmd::concat::run(args),
        Command::Recodec(args) => cmd::recodec::run(args),
        Command::Repair(args) => return cmd::repair::run(args),
        Command::Decode(args) => cmd::decode::run(args),
        Command::Encode(args) => cmd::encode::run(args),
        Command::Fingerprint(args) => cmd::fingerprint::run(args),
        Command::Canonical(args) => cmd::canonical::run(args),
        Command::Getschema(args) => cmd::getschema::run(args),
        Command::Getmeta(args) => cmd::getmeta::run(args),
        Command::Count(args) => cmd::count::run(args),
    };
    match result {
        Ok(()) => ExitCode::from(io::SUCCESS),
        Err(failure) => failure.report(),
    }
}
