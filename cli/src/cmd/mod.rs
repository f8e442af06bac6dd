//! One module per subcommand, each with its clap `Args` and a `run` function.

pub mod compat;
pub mod gen;
pub mod idl;
pub mod idl2schemata;
pub mod registry;
