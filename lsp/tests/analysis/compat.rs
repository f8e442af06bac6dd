//! The compatibility diagnostic against a git revision.

use std::path::Path;
use std::process::Command;

use avdl2rs_lsp::analysis::{compat_diagnostics, CompatLevel, IncompatibilityKind};

use super::{fixture, offset};

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .status()
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

const V1: &str = "@namespace(\"shop\")\nprotocol P {\n  import idl \"money.avdl\";\n  \
                  record Order {\n    long id;\n    string note = \"\";\n    Money total;\n  }\n}\n";
const MONEY: &str = "@namespace(\"shop\")\nprotocol M {\n  record Money { long cents; }\n}\n";

#[test]
fn incompatible_changes_are_placed_on_their_fields() {
    let (dir, mut workspace) = fixture(&[("order.avdl", V1), ("money.avdl", MONEY)]);
    git(dir.path(), &["init", "-q"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-qm", "v1"]);
    let path = dir.path().join("order.avdl");
    // Unchanged: nothing to say.
    let found = compat_diagnostics(&workspace, &path, CompatLevel::Full, "HEAD").unwrap();
    assert!(found.is_empty(), "{found:?}");
    // A field added without a default, another's type changed, in the editor's text.
    let v2 = V1
        .replace("long id;", "string id;")
        .replace("Money total;", "Money total;\n    int added;");
    workspace.update(&path, &v2);
    std::fs::write(&path, &v2).unwrap();
    let found = compat_diagnostics(&workspace, &path, CompatLevel::Backward, "HEAD").unwrap();
    let mut placed: Vec<(usize, IncompatibilityKind)> =
        found.iter().map(|d| (d.span.start, d.kind)).collect();
    placed.sort_by_key(|p| p.0);
    assert_eq!(
        placed,
        [
            (
                offset(&path, "id;", 0, 0),
                IncompatibilityKind::TypeMismatch
            ),
            (
                offset(&path, "added;", 0, 0),
                IncompatibilityKind::ReaderFieldMissingDefault
            ),
        ],
        "{found:?}"
    );
    assert!(found
        .iter()
        .all(|d| d.message.starts_with("BACKWARD compatibility: ")));
    // The field removed without a default is FORWARD's concern, on the type's name.
    let v3 = V1.replace("    long id;\n", "");
    workspace.update(&path, &v3);
    let found = compat_diagnostics(&workspace, &path, CompatLevel::Forward, "HEAD").unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        found[0].span,
        offset(&path, "Order", 0, 0)..offset(&path, "Order", 0, 5)
    );
    // A nested record's change is reported by that record's file.
    workspace.update(&path, V1);
    let money = dir.path().join("money.avdl");
    workspace.update(
        &money,
        &MONEY.replace("long cents;", "long cents;\n    string currency;"),
    );
    assert!(
        compat_diagnostics(&workspace, &path, CompatLevel::Backward, "HEAD")
            .unwrap()
            .is_empty()
    );
    let found = compat_diagnostics(&workspace, &money, CompatLevel::Backward, "HEAD").unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
}

#[test]
fn a_file_new_since_the_revision_has_nothing_and_a_bad_revision_is_an_error() {
    let (dir, workspace) = fixture(&[("money.avdl", MONEY)]);
    git(dir.path(), &["init", "-q"]);
    git(
        dir.path(),
        &["commit", "-q", "--allow-empty", "-m", "empty"],
    );
    let path = dir.path().join("money.avdl");
    assert!(
        compat_diagnostics(&workspace, &path, CompatLevel::Full, "HEAD")
            .unwrap()
            .is_empty()
    );
    let error =
        compat_diagnostics(&workspace, &path, CompatLevel::Full, "no-such-rev").unwrap_err();
    assert!(error.contains("no-such-rev"), "{error}");
}
