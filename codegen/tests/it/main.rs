//! The integration tests of `avdl2rs-codegen`, one module per topic, linked into one test binary
//! (one link for the crate instead of one per file). A new test file goes beside this one, with its
//! `mod` line below; shared helpers are modules of their own here too.

mod builder_errors;
mod builder_idl;
mod builder_output;
mod builder_support;
mod deprecated_names;
mod doc_comments;
mod large_branches;
mod one_of_enums;
