//! `avdl2rs fmt`, run as a process: files and folders formatted in place (unchanged files not
//! rewritten, hidden folders not searched), stdin to stdout, `--check` diffs and exit codes, the indent of `avdl2rs.toml`,
//! and inputs that stop it (a syntax error, bytes that are not UTF-8, a folder without IDL,
//! no path) exiting 2 with every file left as it was.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use crate::cli_support::{cli_binary, code, path_str, run, stderr, stdout};

const UGLY: &str = "protocol P{record A{int a;   // the a\n\n\n string? b=null;}}";
const FORMATTED: &str =
    "protocol P {\n  record A {\n    int a; // the a\n\n    string? b = null;\n  }\n}\n";

fn write(path: &Path, text: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn inode(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().ino()
}

#[test]
fn a_folder_is_formatted_in_place_and_unchanged_files_are_not_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let (ugly, nested, tidy, other) = (
        dir.path().join("a.avdl"),
        dir.path().join("deeper/b.avdl"),
        dir.path().join("tidy.avdl"),
        dir.path().join("notes.txt"),
    );
    // Hidden folders (`.git`, editors' folders) are not searched, as `lint` does not.
    let hidden = dir.path().join(".cache/c.avdl");
    write(&hidden, UGLY.as_bytes());
    write(&ugly, UGLY.as_bytes());
    write(&nested, UGLY.as_bytes());
    write(&tidy, FORMATTED.as_bytes());
    write(&other, UGLY.as_bytes());
    let tidy_inode = inode(&tidy);
    let out = run(&["fmt", path_str(dir.path())], "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&ugly), FORMATTED);
    assert_eq!(read(&nested), FORMATTED);
    assert_eq!(read(&tidy), FORMATTED);
    // A file is replaced by renaming a new one over it: the same inode means untouched.
    assert_eq!(inode(&tidy), tidy_inode);
    assert_eq!(read(&other), UGLY);
    assert_eq!(read(&hidden), UGLY);
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[test]
fn a_file_named_directly_is_formatted_whatever_its_extension() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("contract.idl");
    write(&file, UGLY.as_bytes());
    let out = run(&["fmt", path_str(&file)], "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&file), FORMATTED);
}

#[test]
fn stdin_is_formatted_to_stdout() {
    let out = run(&["fmt", "-"], UGLY);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), FORMATTED);
}

#[test]
fn check_prints_a_unified_diff_and_exits_1_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let (ugly, tidy) = (dir.path().join("a.avdl"), dir.path().join("tidy.avdl"));
    write(
        &ugly,
        b"protocol P {\n    record A {\n        int a;\n    }\n}\n",
    );
    write(&tidy, FORMATTED.as_bytes());
    let out = run(&["fmt", "--check", path_str(dir.path())], "");
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let name = ugly.display();
    let expected = format!(
        "--- {name}\n+++ {name}\n@@ -1,5 +1,5 @@\n protocol P {{\n-    record A {{\n-        int a;\n-    }}\n+  record A {{\n+    int a;\n+  }}\n }}\n"
    );
    assert_eq!(stdout(&out), expected);
    // A relative path gets git's `a/` and `b/`, for `git apply`.
    let relative = std::process::Command::new(cli_binary())
        .args(["fmt", "--check", "a.avdl"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        stdout(&relative).starts_with("--- a/a.avdl\n+++ b/a.avdl\n@@"),
        "{}",
        stdout(&relative)
    );
    assert_eq!(
        read(&ugly),
        "protocol P {\n    record A {\n        int a;\n    }\n}\n"
    );
    let out = run(&["fmt", "--check", path_str(&tidy)], "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let out = run(&["fmt", "--check", "-"], FORMATTED);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn a_file_that_does_not_parse_exits_2_located_and_leaves_every_file_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let (good, bad) = (dir.path().join("a.avdl"), dir.path().join("b.avdl"));
    write(&good, UGLY.as_bytes());
    let broken = "protocol P {\n  record A { int a }\n}\n";
    write(&bad, broken.as_bytes());
    let out = run(&["fmt", path_str(dir.path())], "");
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.contains("error: expected"), "{err}");
    assert!(
        err.contains(&format!(" --> {}:2:20", bad.display())),
        "{err}"
    );
    assert_eq!(read(&good), UGLY);
    assert_eq!(read(&bad), broken);
}

#[test]
fn bytes_that_are_not_utf8_exit_2_at_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.avdl");
    let bytes = b"protocol P {\n  record A { string \xff a; }\n}\n";
    write(&file, bytes);
    let out = run(&["fmt", path_str(&file)], "");
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.contains("UTF-8"), "{err}");
    assert!(
        err.contains(&format!(" --> {}:2:21", file.display())),
        "{err}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
}

#[test]
fn a_folder_without_idl_files_and_a_missing_path_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("notes.txt"), b"x");
    let out = run(&["fmt", path_str(dir.path())], "");
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("no .avdl files in"),
        "{}",
        stderr(&out)
    );
    let missing = dir.path().join("missing.avdl");
    let out = run(&["fmt", path_str(&missing)], "");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
}

#[test]
fn no_path_is_a_usage_error() {
    let out = run(&["fmt"], UGLY);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("<PATH>"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let out = run(&["fmt", "-", "a.avdl"], UGLY);
    assert_eq!(code(&out), 2);
}

#[test]
fn the_indent_comes_from_the_nearest_avdl2rs_toml() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("avdl2rs.toml"), b"[fmt]\nindent = 4\n");
    let (wide, narrow) = (
        dir.path().join("a/wide.avdl"),
        dir.path().join("b/narrow.avdl"),
    );
    write(&wide, UGLY.as_bytes());
    write(&narrow, UGLY.as_bytes());
    write(&dir.path().join("b/avdl2rs.toml"), b"[lint]\n");
    let out = run(&["fmt", path_str(dir.path())], "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        read(&wide),
        "protocol P {\n    record A {\n        int a; // the a\n\n        string? b = null;\n    }\n}\n"
    );
    assert_eq!(read(&narrow), FORMATTED);
}

#[test]
fn a_linked_file_is_formatted_through_its_link_and_linked_folders_are_not_walked() {
    let dir = tempfile::tempdir().unwrap();
    let (target, link) = (dir.path().join("real/a.avdl"), dir.path().join("link.avdl"));
    write(&target, UGLY.as_bytes());
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = run(&["fmt", path_str(&link)], "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(link.symlink_metadata().unwrap().is_symlink());
    assert_eq!(read(&target), FORMATTED);

    let tree = dir.path().join("tree");
    write(&tree.join("own.avdl"), UGLY.as_bytes());
    // A link back up would make the walk endless if it were followed.
    std::os::unix::fs::symlink(dir.path(), tree.join("up")).unwrap();
    write(&target, UGLY.as_bytes());
    let out = run(&["fmt", path_str(&tree)], "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(read(&tree.join("own.avdl")), FORMATTED);
    assert_eq!(read(&target), UGLY);
}
