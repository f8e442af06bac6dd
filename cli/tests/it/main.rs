//! The integration tests of the `avdl2rs` command, one module per topic, linked into one test
//! binary (one link for the crate instead of one per file). They run the binary cargo builds for
//! them (`CARGO_BIN_EXE_avdl2rs`) as a process. A new test file goes beside this one, with its
//! `mod` line below; shared helpers are modules of their own here too.

mod block_commands;
mod cli_commands;
mod cli_compat;
mod cli_fmt;
mod cli_gen;
mod cli_idl;
#[cfg(feature = "kafka")]
mod cli_kafka;
mod cli_lint;
#[cfg(feature = "lsp")]
mod cli_lsp;
mod cli_registry;
mod cli_registry_contract;
mod cli_support;
mod cli_toidl;
mod compat_git_imports;
mod container_commands;
mod error_layout;
// The snapshots are of the default build's help, which lists `kafka`.
#[cfg(feature = "kafka")]
mod help_snapshots;
mod idl_gen_agree;
mod item_budget;
mod json_commands;
mod json_interop;
mod message_commands;
mod random_command;
mod repair_command;
mod schema_forms;
mod whole_outputs;
