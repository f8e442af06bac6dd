//! Running the built `avdl2rs` binary from the CLI tests.

use std::path::Path;
use std::process::Output;

/// The `avdl2rs` binary cargo built for these tests from the current code.
pub fn cli_binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_avdl2rs"))
}

/// Runs the binary with `args`, feeding `stdin`, with backtraces on so that a panic shows.
pub fn run(args: &[&str], stdin: &str) -> Output {
    avdl2rs_tests::run_with_stdin(cli_binary(), args, stdin.as_bytes())
}

/// The exit code of a run (a run killed by a signal has none: the test fails).
pub fn code(output: &Output) -> i32 {
    output.status.code().expect("exit code")
}

/// The stdout of a run, as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The stderr of a run, as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A path as a command-line argument.
pub fn path_str(path: &Path) -> &str {
    path.to_str().expect("UTF-8 test paths")
}
