//! One module per subcommand, each with its clap `Args` and a `run` function.

pub mod canonical;
pub mod cat;
pub mod compat;
pub mod concat;
mod container;
mod contract;
pub mod count;
pub mod decode;
pub mod encode;
pub mod fingerprint;
pub mod fmt;
pub mod fragtojson;
pub mod fromjson;
pub mod gen;
pub mod getmeta;
pub mod getschema;
pub mod idl;
pub mod idl2schemata;
pub mod jsontofrag;
#[cfg(feature = "kafka")]
pub mod kafka;
pub mod lint;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod random;
pub mod recodec;
pub mod registry;
pub mod repair;
pub mod toidl;
