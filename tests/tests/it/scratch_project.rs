//! A cargo project outside the workspace, built the way a user builds one against this
//! checkout: what the fresh-project and README quickstart tests share. The projects build
//! offline with the workspace's lock file, in one target directory shared by both tests and
//! kept between runs (`<target>/fresh-project`), so only the first build compiles the
//! dependencies.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use avdl2rs_tests::workspace_root;

/// The target directory of the running tests (`<target>/<profile>/deps/<test>`).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.ancestors()
        .nth(3)
        .expect("tests run from <target>/<profile>/deps")
        .to_path_buf()
}

/// Writes `files` (paths relative to `dir`, and their text) into `dir`, and the workspace's
/// lock file beside them: it pins the versions the workspace was tested with and lets cargo
/// resolve offline.
pub fn write_project(dir: &Path, files: &[(&str, &str)]) {
    for (relative, text) in files {
        let path = dir.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    std::fs::copy(workspace_root().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
}

/// Runs `cargo <args>` in the project, offline, with the shared target directory and without
/// debug info (the projects' dependencies are then the same build whatever their manifests
/// say about profiles).
pub fn cargo(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(args)
        .arg("--offline")
        .arg("--target-dir")
        .arg(target_dir().join("fresh-project"))
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .output()
        .expect("cargo runs")
}

/// Output of a command as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
