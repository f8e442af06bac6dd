//! IDL text through the formatter (`avdl_parser::format`, `avdl2rs fmt`): it must give an
//! error or text that formats to itself, and that the compiler reads as the same JSON as the
//! original whenever the original compiles.
//!
//! Input: the file's bytes, at indent 2 or 4 as the first byte's low bit says. The file is the
//! only one there is: imports are not found, so the fuzzer never reads the machine's files.
#![no_main]

use std::io;
use std::path::{Path, PathBuf};

use avdl_parser::format::{format_bytes, FormatOptions};
use avdl_parser::idl_writer::Indent;
use avdl_parser::{ParseOptions, SourceFiles};
use libfuzzer_sys::fuzz_target;

const MAIN: &str = "main.avdl";

/// A file system holding `main.avdl` only.
struct OneFile<'a>(&'a [u8]);

impl SourceFiles for OneFile<'_> {
    fn is_file(&self, path: &Path) -> bool {
        path == Path::new(MAIN)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        match self.is_file(path) {
            true => Ok(self.0.to_vec()),
            false => Err(io::ErrorKind::NotFound.into()),
        }
    }

    fn identity(&self, path: &Path) -> PathBuf {
        path.to_owned()
    }
}

/// The compiler's JSON text of `bytes`, if it compiles.
fn compiled(bytes: &[u8]) -> Option<String> {
    let file = avdl_parser::parse_file_in(&OneFile(bytes), MAIN, &ParseOptions::default()).ok()?;
    Some(file.to_json_string(false))
}

fuzz_target!(|input: &[u8]| {
    let Some((&first, text)) = input.split_first() else {
        return;
    };
    let options = FormatOptions {
        indent: Indent {
            width: if first & 1 == 0 { 2 } else { 4 },
        },
    };
    let Ok(formatted) = format_bytes(text, MAIN, &options) else {
        return;
    };
    let again = format_bytes(formatted.as_bytes(), MAIN, &options)
        .unwrap_or_else(|e| panic!("formatted text does not format: {e}\n{formatted}"));
    assert_eq!(again, formatted, "formatting is not a fixed point");
    if let Some(json) = compiled(text) {
        assert_eq!(
            compiled(formatted.as_bytes()).as_deref(),
            Some(json.as_str()),
            "formatting changed the meaning:\n{formatted}"
        );
    }
});
