//! Damaged inputs: every input cut short at many points, and changed a byte here and there.
//! The tree must never panic, must always print the text back, and must report a syntax
//! error exactly when the compiler finds the text ungrammatical (a text the compiler accepts
//! has no syntax error in the tree either).

use std::io;
use std::path::{Path, PathBuf};

use avdl_parser::{syntax, FileSystem, SourceFiles};

use crate::syntax_inputs::{self, Input};
use crate::syntax_round_trip::is_syntax_error;

/// The file system, with the root file's text replaced: imports of a damaged file still
/// resolve beside the original, so the compiler gets as far as it can.
struct Damaged<'a> {
    root: &'a Path,
    text: &'a str,
}

impl SourceFiles for Damaged<'_> {
    fn is_file(&self, path: &Path) -> bool {
        path == self.root || FileSystem.is_file(path)
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        if path == self.root {
            Ok(self.text.as_bytes().to_vec())
        } else {
            FileSystem.read(path)
        }
    }

    fn identity(&self, path: &Path) -> PathBuf {
        FileSystem.identity(path)
    }
}

/// How many damaged texts the compiler accepted and found ungrammatical.
#[derive(Default)]
struct Tally {
    accepted: usize,
    ungrammatical: usize,
}

/// Checks the tree of `text` (a damaged `input`) against the compiler; a failure message.
fn check(input: &Input, text: &str, what: &str, tally: &mut Tally) -> Option<String> {
    let parse = syntax::parse(text);
    let name = input.path.display();
    if parse.syntax().to_string() != text {
        return Some(format!("{name} {what}: does not print back"));
    }
    let files = Damaged {
        root: &input.path,
        text,
    };
    let options = syntax_inputs::options_for(&input.path);
    let compiled = avdl_parser::parse_file_in(&files, &input.path, &options);
    match &compiled {
        Ok(_) => tally.accepted += 1,
        Err(e) if is_syntax_error(e.kind()) => tally.ungrammatical += 1,
        Err(_) => {}
    }
    match compiled {
        Ok(_) if !parse.errors().is_empty() => Some(format!(
            "{name} {what}: the compiler accepts {text:?}, the tree says {:?}",
            parse.errors()[0]
        )),
        Err(e) if is_syntax_error(e.kind()) && parse.errors().is_empty() => Some(format!(
            "{name} {what}: the compiler says {e} about {text:?}, the tree nothing"
        )),
        _ => None,
    }
}

/// About `count` char boundaries of `text`, evenly spread, the end included.
fn cut_points(text: &str, count: usize) -> Vec<usize> {
    let step = (text.len() / count).max(1);
    let mut points: Vec<usize> = (0..text.len())
        .step_by(step)
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    points.push(text.len());
    points
}

#[test]
fn truncated_inputs() {
    let mut failures = Vec::new();
    let mut cuts = 0;
    let mut tally = Tally::default();
    for input in syntax_inputs::all() {
        for end in cut_points(&input.text, 150) {
            cuts += 1;
            failures.extend(check(
                &input,
                &input.text[..end],
                &format!("cut at {end}"),
                &mut tally,
            ));
        }
    }
    assert!(cuts > 3000, "only {cuts} cuts");
    // Most cuts break the grammar; cuts between declarations keep a valid file.
    assert!(
        tally.ungrammatical > cuts / 2,
        "{} of {cuts}",
        tally.ungrammatical
    );
    assert!(tally.accepted > 30, "only {} accepted", tally.accepted);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The bytes a mutation writes: brackets, separators, quotes, comment and escape marks, a
/// letter, a digit, a minus, a line break.
const MUTATION_BYTES: &[u8] = b"{}()<>[];,=:?@\"`/*\\x1-.\n";

#[test]
fn mutated_inputs() {
    let mut failures = Vec::new();
    let mut mutations = 0;
    let mut tally = Tally::default();
    for input in syntax_inputs::all() {
        for (n, at) in cut_points(&input.text, 40).into_iter().enumerate() {
            let byte = MUTATION_BYTES[n % MUTATION_BYTES.len()] as char;
            let next = input.text[at..].chars().next().map_or(0, char::len_utf8);
            let (before, after) = (&input.text[..at], &input.text[at + next..]);
            let deleted = format!("{before}{after}");
            let replaced = format!("{before}{byte}{after}");
            let inserted = format!("{}{byte}{}", before, &input.text[at..]);
            for (what, text) in [
                ("deleted", deleted),
                ("replaced", replaced),
                ("inserted", inserted),
            ] {
                mutations += 1;
                failures.extend(check(&input, &text, &format!("{what} at {at}"), &mut tally));
            }
        }
    }
    assert!(mutations > 2000, "only {mutations} mutations");
    assert!(
        tally.ungrammatical > mutations / 4,
        "{} of {mutations}",
        tally.ungrammatical
    );
    assert!(
        tally.accepted > mutations / 10,
        "only {} accepted",
        tally.accepted
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
