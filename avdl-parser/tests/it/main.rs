//! The integration tests of `avdl-parser`, one module per topic, linked into one test binary (one
//! link for the crate instead of one per file). A new test file goes beside this one, with its
//! `mod` line below; shared helpers are modules of their own here too.

mod cases;
mod errors;
mod format;
mod json_value;
mod parallel_errors;
mod syntax_ast;
mod syntax_damage;
mod syntax_inputs;
mod syntax_positions;
mod syntax_recovery;
mod syntax_round_trip;
mod syntax_structure;
