//! `--help` of the `avdl2rs` command and of every subcommand, nested ones included, compared
//! with reviewed snapshots in `cli/tests/snapshots/help/`, one file per command line
//! (`avdl2rs-registry-get.txt` holds `avdl2rs registry get --help`). The commands come from
//! walking the clap tree of [`avdl2rs_cli::Cli`], so a new subcommand without a snapshot fails
//! and so does a snapshot of a subcommand that is gone. The help text is what a user reads
//! first, so a change to it should be seen in review like any other change of behaviour.

use std::path::{Path, PathBuf};
use std::process::Command as Process;

use avdl2rs_tests::snapshot::Snapshots;
use clap::CommandFactory;

use crate::cli_support::{cli_binary, code, stderr, stdout};

/// The command that rewrites the snapshots of this module.
const UPDATE_COMMAND: &str = "UPDATE_SNAPSHOTS=1 cargo test -p avdl2rs-cli -- help_snapshots";

/// The terminal width help is laid out for. Without clap's `wrap_help` feature, which these
/// crates leave off, clap assumes 100 columns and wraps nothing; with it, clap measures the
/// terminal and, on the pipes of a test, falls back to `COLUMNS`, so setting that keeps the
/// layout independent of whoever runs the tests.
const WIDTH: &str = "100";

fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/help")
}

#[test]
fn help_of_every_command_matches_the_reviewed_snapshots() {
    let commands = command_lines();
    assert!(
        commands.len() > 1,
        "the clap tree has no subcommands: {commands:?}"
    );
    let mut snapshots = Snapshots::new(UPDATE_COMMAND);
    let mut expected = Vec::new();
    for command in &commands {
        let file = snapshot_dir().join(format!("{}.txt", command.join("-")));
        snapshots.check(&file, &help_text(command));
        expected.push(file);
    }
    snapshots.check_no_others(&snapshot_dir(), ".txt", &expected);
    snapshots.assert_all_match();
}

/// Every command line that has a help of its own: the program, then each subcommand under
/// it, depth first. The tree is taken before clap builds it, so the `help` subcommand clap
/// adds by itself is not among them.
fn command_lines() -> Vec<Vec<String>> {
    let mut lines = Vec::new();
    walk(&avdl2rs_cli::Cli::command(), &[], &mut lines);
    lines
}

fn walk(command: &clap::Command, parents: &[String], lines: &mut Vec<Vec<String>>) {
    let mut line = parents.to_vec();
    line.push(command.get_name().to_owned());
    lines.push(line.clone());
    for subcommand in command.get_subcommands() {
        walk(subcommand, &line, lines);
    }
}

/// What `--help` prints for `command` (the program name first), run as a user runs it. The
/// environment is emptied: the options read from a variable show its value in their help,
/// and `CLICOLOR_FORCE` would colour it.
fn help_text(command: &[String]) -> String {
    let output = Process::new(cli_binary())
        .args(&command[1..])
        .arg("--help")
        .env_clear()
        .env("COLUMNS", WIDTH)
        .output()
        .expect("the avdl2rs binary runs");
    let shown = command.join(" ");
    assert_eq!(code(&output), 0, "{shown} --help: {}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("Usage: "),
        "{shown} --help printed no usage: {text:?}"
    );
    text
}
