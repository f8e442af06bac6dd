//! The `avdl2rs` command line; everything is in the library so it can be tested.

fn main() -> std::process::ExitCode {
    avdl2rs_cli::run(std::env::args_os())
}
