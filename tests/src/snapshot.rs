//! Reviewed snapshot files: text a test produces, compared with a file checked in beside the
//! test. A mismatch reports a unified diff of every file that differs and the command that
//! rewrites them; `UPDATE_SNAPSHOTS=1` rewrites them instead, and the diff is reviewed in git
//! before it is committed, because the snapshot is the specification.

use std::path::{Path, PathBuf};

/// The variable that turns comparing into rewriting.
pub const UPDATE_VAR: &str = "UPDATE_SNAPSHOTS";

/// Whether this run rewrites snapshots (`UPDATE_SNAPSHOTS=1`) instead of comparing them.
pub fn updating() -> bool {
    std::env::var_os(UPDATE_VAR).is_some_and(|v| v == "1")
}

/// Compares text with snapshot files, or rewrites them when updating, collecting every
/// mismatch so that one run shows all of them.
pub struct Snapshots {
    /// The command that rewrites these snapshots, shown with a mismatch.
    update_command: String,
    update: bool,
    mismatches: Vec<String>,
}

impl Snapshots {
    /// Snapshots rewritten by `update_command` (for instance
    /// `UPDATE_SNAPSHOTS=1 cargo test -p avdl2rs-tests -- codegen_snapshots`).
    pub fn new(update_command: &str) -> Self {
        Snapshots {
            update_command: update_command.to_owned(),
            update: updating(),
            mismatches: Vec::new(),
        }
    }

    /// Checks that the file at `path` holds `actual` (a missing file holds nothing), or writes
    /// `actual` there when updating.
    pub fn check(&mut self, path: &Path, actual: &str) {
        if self.update {
            let unchanged = std::fs::read_to_string(path).is_ok_and(|old| old == actual);
            if !unchanged {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).expect("the snapshot folder can be created");
                }
                std::fs::write(path, actual).expect("the snapshot can be written");
            }
            return;
        }
        let expected = std::fs::read_to_string(path).unwrap_or_default();
        if let Some(diff) = mismatch(path, &expected, actual) {
            self.mismatches.push(diff);
        }
    }

    /// Checks that `dir` holds no snapshot file (a name ending in `extension`) besides
    /// `expected`, or deletes the others when updating: a snapshot that nothing produces any
    /// more would otherwise stay behind unchecked, describing something that is gone.
    pub fn check_no_others(&mut self, dir: &Path, extension: &str, expected: &[PathBuf]) {
        for stale in files_besides(dir, extension, expected) {
            if self.update {
                std::fs::remove_file(&stale).expect("the stale snapshot can be deleted");
            } else {
                self.mismatches.push(format!(
                    "{}: nothing produces this snapshot any more; updating deletes it\n",
                    display_path(&stale)
                ));
            }
        }
    }

    /// The report of every mismatch so far, with the update command, or `None` when all
    /// snapshots matched.
    pub fn report(&self) -> Option<String> {
        if self.mismatches.is_empty() {
            return None;
        }
        Some(format!(
            "{} snapshot(s) differ from what the test produced; if the change is intended, run\n\n    {}\n\nand review the diff before committing it.\n\n{}",
            self.mismatches.len(),
            self.update_command,
            self.mismatches.join("\n"),
        ))
    }

    /// Panics with the report when a snapshot differed.
    pub fn assert_all_match(self) {
        if let Some(report) = self.report() {
            panic!("{report}");
        }
    }
}

/// A unified diff from the snapshot `expected` (the file at `path`) to `actual`, or `None`
/// when they are equal.
pub fn mismatch(path: &Path, expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let shown = display_path(path);
    let diff = similar::TextDiff::from_lines(expected, actual);
    Some(
        diff.unified_diff()
            .context_radius(3)
            .header(
                &format!("{shown} (snapshot)"),
                &format!("{shown} (produced)"),
            )
            .missing_newline_hint(true)
            .to_string(),
    )
}

/// The files of `dir` whose names end in `extension`, other than `expected`, sorted.
fn files_besides(dir: &Path, extension: &str, expected: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("the snapshot folder can be listed").path())
        .filter(|path| path.is_file() && path.to_string_lossy().ends_with(extension))
        .filter(|path| !expected.contains(path))
        .collect();
    files.sort();
    files
}

/// `path` relative to the workspace root where it is inside it, so reports read the same on
/// every machine.
fn display_path(path: &Path) -> String {
    let root: PathBuf = super::workspace_root();
    path.strip_prefix(&root)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_text_is_no_mismatch() {
        assert_eq!(mismatch(Path::new("a.rs"), "x\ny\n", "x\ny\n"), None);
    }

    #[test]
    fn a_mismatch_is_a_unified_diff_with_context() {
        let expected = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n";
        let actual = "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\neight\n";
        let path = crate::workspace_root().join("tests/snapshots/x.rs");
        let diff = mismatch(&path, expected, actual).unwrap();
        assert_eq!(
            diff,
            "--- tests/snapshots/x.rs (snapshot)\n\
             +++ tests/snapshots/x.rs (produced)\n\
             @@ -1,7 +1,7 @@\n \
             one\n two\n three\n-four\n+FOUR\n five\n six\n seven\n"
        );
    }

    #[test]
    fn a_missing_final_newline_is_shown() {
        let diff = mismatch(Path::new("a.txt"), "a\n", "a").unwrap();
        assert!(diff.contains("\\ No newline at end of file"), "{diff}");
    }

    #[test]
    fn the_report_names_the_update_command_and_holds_every_diff() {
        let mut snapshots = Snapshots {
            update_command: "UPDATE_SNAPSHOTS=1 cargo test -p demo".to_owned(),
            update: false,
            mismatches: Vec::new(),
        };
        let dir = std::env::temp_dir().join(crate::fresh_name("snapshot-report"));
        std::fs::create_dir_all(&dir).unwrap();
        let same = dir.join("same.txt");
        let changed = dir.join("changed.txt");
        std::fs::write(&same, "kept\n").unwrap();
        std::fs::write(&changed, "old line\n").unwrap();
        snapshots.check(&same, "kept\n");
        assert_eq!(snapshots.report(), None);
        snapshots.check(&changed, "new line\n");
        snapshots.check(&dir.join("missing.txt"), "created\n");
        let report = snapshots.report().unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(report.starts_with("2 snapshot(s) differ"), "{report}");
        assert!(
            report.contains("\n    UPDATE_SNAPSHOTS=1 cargo test -p demo\n"),
            "{report}"
        );
        assert!(report.contains("-old line\n+new line\n"), "{report}");
        assert!(report.contains("+created\n"), "{report}");
        assert!(!report.contains("kept"), "{report}");
    }

    #[test]
    fn a_file_nothing_produces_is_reported_or_deleted() {
        let dir = std::env::temp_dir().join(crate::fresh_name("snapshot-stale"));
        std::fs::create_dir_all(&dir).unwrap();
        let kept = dir.join("kept.txt");
        let stale = dir.join("stale.txt");
        let other_kind = dir.join("notes.md");
        for file in [&kept, &stale, &other_kind] {
            std::fs::write(file, "text\n").unwrap();
        }
        let mut snapshots = Snapshots {
            update_command: String::new(),
            update: false,
            mismatches: Vec::new(),
        };
        snapshots.check_no_others(&dir, ".txt", std::slice::from_ref(&kept));
        let report = snapshots.report().unwrap();
        snapshots.update = true;
        snapshots.mismatches.clear();
        snapshots.check_no_others(&dir, ".txt", std::slice::from_ref(&kept));
        let left = files_besides(&dir, "", &[]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(report.starts_with("1 snapshot(s) differ"), "{report}");
        assert!(report.contains("stale.txt: nothing produces"), "{report}");
        assert_eq!(snapshots.report(), None);
        assert_eq!(left, [kept, other_kind]);
    }

    #[test]
    fn updating_writes_only_changed_files() {
        let mut snapshots = Snapshots {
            update_command: String::new(),
            update: true,
            mismatches: Vec::new(),
        };
        let dir = std::env::temp_dir().join(crate::fresh_name("snapshot-update"));
        let file = dir.join("deeper/new.txt");
        snapshots.check(&file, "text\n");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(text, "text\n");
        assert_eq!(snapshots.report(), None);
    }
}
