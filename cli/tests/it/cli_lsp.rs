//! `avdl2rs lsp` end to end with a real LSP client: `pytest-lsp` runs
//! `tests/scripts/lsp_warehouse.py` against the binary, on the warehouse example, a broken
//! copy of it and a copy committed to a git repository (initialize, open, diagnostics,
//! outline, formatting, semantic tokens, definition, hover, completion, rename, the
//! compatibility check against HEAD).

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs pytest-lsp (.ci/lsp-client)"]
fn a_real_client_drives_the_server_on_the_warehouse_example() {
    let python = avdl2rs_tests::external("AVDL2RS_LSP_PYTHON", "pytest-lsp (.ci/lsp-client)");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schemas = manifest
        .join("../examples/warehouse/schemas")
        .canonicalize()
        .unwrap();
    let output = Command::new(python)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "asyncio_mode=auto",
        ])
        .arg(manifest.join("tests/scripts/lsp_warehouse.py"))
        .env("AVDL2RS_BIN", env!("CARGO_BIN_EXE_avdl2rs"))
        .env("AVDL2RS_WAREHOUSE", schemas)
        .output()
        .expect("python starts");
    assert!(
        output.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
