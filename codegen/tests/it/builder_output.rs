//! What `Builder::build` writes: the generator's output under the chosen name, only when its
//! bytes change, and a module tree that means the same as the single file.

use crate::builder_support;

use builder_support::{fixture, scratch_dir};
use std::path::{Path, PathBuf};

use avdl2rs_codegen::builder::Built;
use avdl2rs_codegen::{Builder, Generator, Options};

/// The JSON fixtures, in the order a directory input reads them.
fn json_fixtures() -> [PathBuf; 2] {
    [
        fixture("json/money.avsc"),
        fixture("json/nested/order.avsc"),
    ]
}

/// What the generator alone makes of `files`, in this order.
fn generated(files: &[PathBuf]) -> String {
    let mut generator = Generator::new(Options::default());
    for file in files {
        generator.add_file(file, &[]).unwrap();
    }
    generator.generate().unwrap()
}

fn builder(name: &str, out: &Path) -> Builder {
    let mut builder = Builder::new(name);
    builder.out_dir(out).cargo_instructions(false);
    builder
}

#[test]
fn writes_the_generated_source_under_its_name() {
    let out = scratch_dir("single");
    let files = json_fixtures();
    let built = builder("shop", &out)
        .input(&files[0])
        .input(&files[1])
        .build()
        .unwrap();
    let path = out.join("shop.rs");
    assert_eq!(built.outputs, vec![path.clone()]);
    assert_eq!(built.written, vec![path.clone()]);
    assert_eq!(built.files_read, files);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), generated(&files));
    let mut names: Vec<_> = built.types.iter().map(|t| t.full_name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "shop.common.Money",
            "shop.orders.Order",
            "shop.orders.State"
        ]
    );
}

#[test]
fn a_directory_gives_its_schema_files_recursively_in_path_order() {
    let out = scratch_dir("directory");
    let built = builder("shop", &out)
        .input(fixture("json"))
        .build()
        .unwrap();
    let expected = json_fixtures();
    assert_eq!(built.files_read, expected);
    assert_eq!(
        std::fs::read_to_string(out.join("shop.rs")).unwrap(),
        generated(&expected)
    );
}

#[test]
fn unchanged_output_is_not_rewritten() {
    let out = scratch_dir("unchanged");
    let mut builder = builder("shop", &out);
    builder.input(fixture("json"));
    builder.build().unwrap();
    let path = out.join("shop.rs");
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(old)
        .unwrap();

    let again = builder.build().unwrap();
    assert!(again.written.is_empty(), "rewrote {:?}", again.written);
    assert_eq!(std::fs::metadata(&path).unwrap().modified().unwrap(), old);

    // Other options give other bytes, which are written.
    let changed = builder
        .options(Options::default().extra_derive("PartialOrd"))
        .build()
        .unwrap();
    assert_eq!(changed.written, vec![path.clone()]);
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("PartialOrd"));
}

#[test]
fn options_reach_the_generator() {
    let out = scratch_dir("options");
    let options = Options::default()
        .map_type(avdl2rs_codegen::MapType::BTreeMap)
        .flat_modules(true);
    builder("shop", &out)
        .input(fixture("json"))
        .options(options.clone())
        .build()
        .unwrap();
    let mut generator = Generator::new(options);
    for file in json_fixtures() {
        generator.add_file(&file, &[]).unwrap();
    }
    let text = std::fs::read_to_string(out.join("shop.rs")).unwrap();
    assert_eq!(text, generator.generate().unwrap());
    assert!(text.contains("BTreeMap"));
}

/// `text` with every `include!("path")` (relative to `dir`) replaced by the included items,
/// formatted.
fn inlined(text: &str, dir: &Path) -> String {
    prettyplease::unparse(&inline_includes(text, dir))
}

/// `text` formatted as the generator formats it, without the header comment.
fn formatted(text: &str) -> String {
    prettyplease::unparse(&syn::parse_file(text).unwrap())
}

fn inline_includes(text: &str, dir: &Path) -> syn::File {
    let mut file = syn::parse_file(text).unwrap();
    for item in &mut file.items {
        inline_in_item(item, dir);
    }
    file
}

fn inline_in_item(item: &mut syn::Item, dir: &Path) {
    let syn::Item::Mod(module) = item else {
        return;
    };
    let Some((_, items)) = &mut module.content else {
        return;
    };
    let [syn::Item::Macro(include)] = items.as_slice() else {
        panic!(
            "a split module holds one include!, not {} items",
            items.len()
        );
    };
    assert!(include.mac.path.segments.last().unwrap().ident == "include");
    let relative: syn::LitStr = include.mac.parse_body().unwrap();
    let path = dir.join(relative.value());
    let child = std::fs::read_to_string(&path).unwrap();
    let child_dir = path.parent().unwrap().to_path_buf();
    let inlined = inline_includes(&child, &child_dir);
    *items = inlined.items;
}

/// Builds the JSON fixtures as a module tree rooted at `name` in a scratch directory.
fn module_tree(name: &str, test: &str) -> (PathBuf, Built) {
    let out = scratch_dir(test);
    let built = builder(name, &out)
        .input(fixture("json"))
        .module_tree(true)
        .build()
        .unwrap();
    (out, built)
}

#[test]
fn a_module_tree_is_the_single_file_cut_at_each_module() {
    let (out, built) = module_tree("shop", "tree");
    let relative: Vec<_> = built
        .outputs
        .iter()
        .map(|p| p.strip_prefix(&out).unwrap().to_path_buf())
        .collect();
    let expected: Vec<PathBuf> = [
        "shop.rs",
        "shop/shop/common.rs",
        "shop/shop/orders.rs",
        "shop/shop.rs",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    assert_eq!(relative, expected);
    for path in &built.outputs {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.starts_with("// @generated"), "{}", path.display());
    }
    let root = std::fs::read_to_string(out.join("shop.rs")).unwrap();
    assert_eq!(
        inlined(&root, &out),
        formatted(&generated(&json_fixtures()))
    );
}

#[test]
fn a_tree_rooted_at_mod_keeps_its_modules_beside_it() {
    let (out, built) = module_tree("mod", "mod_tree");
    assert_eq!(built.outputs[0], out.join("mod.rs"));
    assert!(built.outputs.contains(&out.join("shop.rs")));
    assert!(built.outputs.contains(&out.join("shop/orders.rs")));
    let root = std::fs::read_to_string(out.join("mod.rs")).unwrap();
    assert!(root.contains(r#"include!("shop.rs")"#), "{root}");
    assert_eq!(
        inlined(&root, &out),
        formatted(&generated(&json_fixtures()))
    );
}
