//! The integration tests of the `avdl2rs` runtime, one module per topic, linked into one test
//! binary (one link for the crate instead of one per file). A new test file goes beside this one,
//! with its `mod` line below; shared helpers are modules of their own here too.

// First, so that the modules after it can use its macros.
#[macro_use]
mod resolve_support;

mod avro_json_encoding;
mod avro_json_typed;
mod codec_differential;
mod codec_support;
mod compat_apache;
mod compat_levels;
mod compat_rules;
mod compat_support;
mod confluent_safe_path;
mod decimal_scale;
mod decode_fuzz;
mod decode_limits;
mod deprecated_names;
mod hostile_inputs;
mod logical_chrono;
mod logical_time;
mod logical_values;
mod one_of;
mod resolve_apache;
mod resolve_decode;
mod resolve_flat;
mod resolve_hostile;
mod resolve_steps;
mod schema_items;
mod subject_names;
mod wire_fingerprint;
mod wire_formats;
mod wire_support;
