//! Reading fixtures and checking them.

use std::path::{Path, PathBuf};

use avdl2rs_lint::{check, Finding, Rule, Settings, Source};

/// The fixtures folder.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The findings of the fixture `name` under `settings`.
pub fn findings_with(name: &str, settings: &Settings) -> Vec<Finding> {
    let path = fixtures().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let source = if name.ends_with(".avdl") {
        Source::idl(name, &text, &path, &[])
    } else {
        Source::json(name, &text)
    };
    check(&source, settings, None).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The findings of the fixture `name` under the default settings.
pub fn findings(name: &str) -> Vec<Finding> {
    findings_with(name, &Settings::default())
}

/// The (line, column) of each finding of `rule`.
pub fn places(findings: &[Finding], rule: Rule) -> Vec<(usize, usize)> {
    findings
        .iter()
        .filter(|f| f.rule == rule)
        .map(|f| (f.line, f.column))
        .collect()
}
