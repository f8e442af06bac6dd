//! One file per module: the generated source, cut at each inline `mod` into files that
//! include each other, laid out as Rust lays out module files.
//!
//! A root `orders.rs` keeps the root items and replaces `pub mod com { … }` with
//! `pub mod com { include!("orders/com.rs"); }`; `orders/com.rs` does the same for its own
//! modules with `include!("com/<child>.rs")`. A root named `mod.rs` has its modules beside
//! it instead (`com.rs`, `com/<child>.rs`). `include!` resolves a relative path against the
//! directory of the file it is written in, so the tree works wherever it is written; and
//! since generated modules refer to each other through `super::` paths, the code means
//! exactly what the single file means.

use std::path::{Path, PathBuf};

use syn::Item;

use crate::render::HEADER;
use crate::Error;

/// The files of `source` split by module, as paths relative to the output directory and
/// their text, the root file `<root>.rs` first.
pub(super) fn module_files(root: &str, source: &str) -> Result<Vec<(PathBuf, String)>, Error> {
    let file = syn::parse_file(source).map_err(|e| Error::Unsupported {
        message: format!("generated code does not parse (a generator bug): {e}"),
    })?;
    let (dir, prefix) = if root == "mod" {
        (PathBuf::new(), String::new())
    } else {
        (PathBuf::from(root), format!("{root}/"))
    };
    let mut files = Vec::new();
    let root_items = split_items(file.items, &dir, &prefix, &mut files);
    files.insert(0, (PathBuf::from(format!("{root}.rs")), render(root_items)));
    Ok(files)
}

/// Moves the body of each inline module `m` in `items` to `<dir>/<m>.rs` (pushed on `files`,
/// children first), leaving `include!("<prefix><m>.rs")` in its place: `prefix` is the path
/// from the including file's directory to `dir`.
fn split_items(
    items: Vec<Item>,
    dir: &Path,
    prefix: &str,
    files: &mut Vec<(PathBuf, String)>,
) -> Vec<Item> {
    items
        .into_iter()
        .map(|item| match item {
            Item::Mod(mut module) => {
                if let Some((brace, body)) = module.content.take() {
                    let stem = syn::ext::IdentExt::unraw(&module.ident).to_string();
                    let body = split_items(body, &dir.join(&stem), &format!("{stem}/"), files);
                    files.push((dir.join(format!("{stem}.rs")), render(body)));
                    let relative = format!("{prefix}{stem}.rs");
                    let include: Item = syn::parse_quote!(::core::include!(#relative););
                    module.content = Some((brace, vec![include]));
                }
                Item::Mod(module)
            }
            other => other,
        })
        .collect()
}

/// Formats items as a file with the generated-code header.
fn render(items: Vec<Item>) -> String {
    let file = syn::File {
        shebang: None,
        frontmatter: None,
        attrs: Vec::new(),
        items,
    };
    let text = prettyplease::unparse(&file);
    format!("{HEADER}{text}")
}
