//! Generates the Rust types and codecs of the benchmark schemas (`schemas/*.avsc`) into
//! `OUT_DIR/shapes.rs` with the codegen's default options, as a user's build script would.

use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let schemas = manifest.join("schemas");
    println!("cargo:rerun-if-changed={}", schemas.display());
    let source = generate(&schemas, avdl2rs_codegen::Options::default());
    std::fs::write(out_dir.join("shapes.rs"), source).expect("OUT_DIR is writable");
}

/// The generated source of every schema file in `dir`, in file-name order.
fn generate(dir: &Path, options: avdl2rs_codegen::Options) -> String {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "avsc"))
        .collect();
    files.sort();
    let mut generator = avdl2rs_codegen::Generator::new(options);
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        generator
            .add_file(file, &[])
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    }
    generator
        .generate()
        .unwrap_or_else(|e| panic!("codegen: {e}"))
}
