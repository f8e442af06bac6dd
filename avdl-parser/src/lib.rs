//! # avdl-parser
//!
//! Parses Avro IDL files into the `.avpr` / `.avsc` JSON that the Java reference tools emit.
