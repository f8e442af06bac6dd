//! The cross-crate tests, one module per topic, linked into one test binary (one link for the
//! crate instead of one per file). A new test file goes beside this one, with its `mod` line
//! below; shared helpers are modules of their own here too.

// The compiled record chain of `build.rs` (`avdl2rs_tests::COMPILED_CHAIN` records) nests
// deeper than rustc's default limit allows: `long_chains` checks that this is the limit the
// generator asks for.
#![recursion_limit = "512"]

mod architecture_names;
mod builder_fresh_project;
mod codegen_behaviour;
mod codegen_evolution;
mod codegen_one_of;
mod codegen_roundtrip;
mod codegen_snapshots;
mod codegen_valid_schemas;
mod derive_holds_generated;
mod derive_schemas;
mod derive_serde_names;
mod derive_twins;
mod generated_depth;
mod generated_differential;
mod generic_records;
mod idl_conformance;
mod idl_writer;
mod located_errors;
mod long_chains;
mod module_imports;
mod readme_quickstart;
mod runtime_dependencies;
mod scratch_project;
mod snapshot_types;
