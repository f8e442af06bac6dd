//! One module per subcommand, each with its clap `Args` and a `run` function.

pub mod cat;
pub mod compat;
mod container;
pub mod count;
pub mod gen;
pub mod getmeta;
pub mod getschema;
pub mod idl;
pub mod idl2schemata;
#[cfg(feature = "kafka")]
pub mod kafka;
pub mod registry;
