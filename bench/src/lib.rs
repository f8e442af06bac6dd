//! # avdl2rs-bench
//!
//! The benchmark of generated avdl2rs codecs (`benches/codec.rs`) and the tests that keep it
//! honest (`tests/`). Four shapes of data, generated from `schemas/*.avsc` by `build.rs` with
//! the codegen's default options, are written and read by six implementations behind one
//! trait, [`codecs::Codec`]:
//!
//! * [`codecs::ApacheValue`]: apache-avro through its `Value` tree;
//! * [`codecs::ApacheSerde`]: apache-avro's schema-aware serde serializer and deserializer;
//! * [`codecs::SerdeAvroFast`]: `serde_avro_fast` with a prepared schema;
//! * [`codecs::HandChecked`]: the hand-written codec of [`hand::checked`], with the checks
//!   the runtime makes and none of its functions;
//! * [`codecs::HandUnchecked`]: the straight-line codec of [`hand::unchecked`], which
//!   reserves once and writes without a capacity check per value: the practical limit;
//! * [`codecs::Generated`]: the codec avdl2rs generated.
//!
//! [`values`] builds the sample values every implementation is given; [`twins`] holds the
//! serde structs used where a generated type's serde derives do not suit the libraries;
//! [`evolution`] holds earlier versions of three shapes, for resolving decode; [`ledger`]
//! writes the IDL protocol of the lint and language server benchmarks.
//!
//! After a run (`cargo bench -p avdl2rs-bench -- --warm-up-time 1 --measurement-time 3`),
//! `cargo run -p avdl2rs-bench --bin ratios` prints the medians as a markdown table of
//! ratios against the generated code.

pub mod codecs;
pub mod evolution;
pub mod hand;
pub mod ledger;
pub mod twins;
pub mod values;

/// The code generated from `schemas/` (module `shapes`, the schemas' namespace).
mod generated {
    include!(concat!(env!("OUT_DIR"), "/shapes.rs"));
}

pub use generated::shapes;
