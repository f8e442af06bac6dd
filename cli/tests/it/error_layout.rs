//! Every command that reads IDL shows its errors in the compiler's layout, the one `gen` and
//! build scripts show: `error: …`, ` --> file:line:col`, the source line, a caret under the
//! place; each error of a file in turn; no colour when stderr is not a terminal.

use crate::cli_support::{cli_binary, code, path_str, run, stderr};

/// `orders.avdl` with `record` misspelt, written in `dir`.
fn misspelt(dir: &std::path::Path) -> String {
    let path = dir.join("orders.avdl");
    let text = "protocol Orders {\n  recrod OrderEvent {\n    int id;\n  }\n}\n";
    std::fs::write(&path, text).unwrap();
    path_str(&path).to_owned()
}

#[test]
fn idl_compat_fromjson_and_gen_show_one_layout() {
    let dir = tempfile::tempdir().unwrap();
    let avdl = misspelt(dir.path());
    let expected = format!(
        "error: unknown keyword `recrod`; did you mean `record`?\n --> {avdl}:2:3\n  |\n\
         2 |   recrod OrderEvent {{\n  |   ^^^^^^\n"
    );
    let commands: [(&[&str], i32); 4] = [
        (&["idl", &avdl], 1),
        (&["gen", &avdl], 1),
        (&["fromjson", "--schema", &avdl, "-"], 1),
        // compat exits 2 when a version cannot be read: no verdict was reached.
        (&["compat", "--level", "BACKWARD", &avdl, &avdl], 2),
    ];
    for (args, exit) in commands {
        let output = run(args, "{}");
        assert_eq!(code(&output), exit, "{args:?}: {}", stderr(&output));
        assert_eq!(stderr(&output), expected, "{args:?}");
    }
}

#[test]
fn related_errors_each_in_turn_and_one_line_messages_alike() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.avdl");
    std::fs::write(
        &path,
        "protocol P {\n  record R {\n    Nope a;\n    Nada b;\n  }\n}\n",
    )
    .unwrap();
    let file = path_str(&path);
    let output = run(&["idl", file], "");
    let expected = format!(
        "error: Undefined schema: Nope\n --> {file}:3:5\n  |\n3 |     Nope a;\n  |     ^^^^\n\n\
         error: Undefined schema: Nada\n --> {file}:4:5\n  |\n4 |     Nada b;\n  |     ^^^^\n"
    );
    assert_eq!(stderr(&output), expected);
    let missing = dir.path().join("missing.avsc");
    let output = run(&["canonical", path_str(&missing)], "");
    let text = stderr(&output);
    assert!(
        text.starts_with("error: cannot read ") && text.lines().count() == 1,
        "{text}"
    );
}

/// stderr of `idl` on `avdl` run on a pseudo-terminal by util-linux `script`, with `NO_COLOR`
/// set to `no_color` or unset. `script` comes with every Debian system (bsdutils, an essential
/// package), so its absence fails the test rather than skipping it.
fn on_a_terminal(avdl: &str, no_color: Option<&str>) -> String {
    let log = tempfile::NamedTempFile::new().unwrap();
    let command = format!("'{}' idl '{avdl}'", cli_binary().display());
    let mut script = std::process::Command::new("script");
    script.args(["-qec", &command]).arg(log.path());
    match no_color {
        Some(value) => script.env("NO_COLOR", value),
        None => script.env_remove("NO_COLOR"),
    };
    let output = script.output().expect("util-linux `script` runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn colour_only_on_a_terminal_and_without_no_color() {
    let dir = tempfile::tempdir().unwrap();
    let avdl = misspelt(dir.path());
    let coloured = on_a_terminal(&avdl, None);
    assert!(coloured.contains("\x1b["), "{coloured:?}");
    assert!(
        coloured.contains("unknown keyword `recrod`"),
        "{coloured:?}"
    );
    for no_color in ["1", ""] {
        let plain = on_a_terminal(&avdl, Some(no_color));
        assert_eq!(plain.contains("\x1b["), no_color.is_empty(), "{plain:?}");
    }
    // Not a terminal: plain (the other tests read stderr through a pipe).
    assert!(!stderr(&run(&["idl", &avdl], "")).contains('\x1b'));
}
