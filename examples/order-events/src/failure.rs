//! Why a command stopped, and the exit code a script sees for it.

use std::fmt;

/// Why a command did not finish cleanly.
#[derive(Debug)]
pub enum Failure {
    /// This many messages could not be read (each reported on stderr); the others were
    /// printed. Exit code 1.
    Unreadable(usize),
    /// The command could not go on: options, the broker, the registry, or nothing within the
    /// timeout. Exit code 2, as for a usage error.
    CannotRun(String),
}

impl Failure {
    /// The process's exit code for this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Unreadable(_) => 1,
            Failure::CannotRun(_) => 2,
        }
    }

    /// A [`Failure::CannotRun`] saying what failed, then why.
    pub fn cannot(what: &str, why: impl fmt::Display) -> Failure {
        Failure::CannotRun(format!("{what}: {why}"))
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::Unreadable(count) => write!(f, "{count} message(s) could not be read"),
            Failure::CannotRun(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Failure {}
