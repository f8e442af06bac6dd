//! IDL text through code generation: the parser (with one importable file beside the main
//! one) and the generator must give an error or Rust source, and that source must parse.
//!
//! Input: the main file, then optionally a zero byte and the file it can import (as
//! `other.avdl`, `other.avsc` or `other.avpr`). Nothing else exists: every other import is
//! not found, so the fuzzer never reads the machine's files.
#![no_main]

use std::io;
use std::path::{Path, PathBuf};

use avdl2rs_codegen::{Generator, Options};
use avdl_parser::{ParseOptions, SourceFiles};
use libfuzzer_sys::fuzz_target;

const MAIN: &str = "main.avdl";
const IMPORTABLE: [&str; 3] = ["other.avdl", "other.avsc", "other.avpr"];

/// The two files of one input.
struct Files<'a> {
    main: &'a [u8],
    other: Option<&'a [u8]>,
}

impl Files<'_> {
    fn get(&self, path: &Path) -> Option<&[u8]> {
        let name = path.file_name()?.to_str()?;
        if name == MAIN {
            Some(self.main)
        } else if IMPORTABLE.contains(&name) {
            self.other
        } else {
            None
        }
    }
}

impl SourceFiles for Files<'_> {
    fn is_file(&self, path: &Path) -> bool {
        self.get(path).is_some()
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.get(path)
            .map(<[u8]>::to_vec)
            .ok_or_else(|| io::ErrorKind::NotFound.into())
    }

    fn identity(&self, path: &Path) -> PathBuf {
        path.file_name().map_or_else(PathBuf::new, PathBuf::from)
    }
}

fuzz_target!(|input: &[u8]| {
    let files = match input.iter().position(|&b| b == 0) {
        Some(split) => Files {
            main: &input[..split],
            other: Some(&input[split + 1..]),
        },
        None => Files {
            main: input,
            other: None,
        },
    };
    let Ok(idl) = avdl_parser::parse_file_in(&files, MAIN, &ParseOptions::default()) else {
        return;
    };
    let mut generator = Generator::new(Options::default());
    if generator.add_parsed_idl(idl, MAIN).is_err() {
        return;
    }
    if let Ok(source) = generator.generate() {
        if let Err(e) = syn::parse_file(&source) {
            panic!("generated code does not parse: {e}\n{source}");
        }
    }
});
