//! The files of each crate import in one direction: no two modules reach each other through
//! their `crate::` and `super::` paths, except where the recursion is the domain's. A leaf
//! type kept in the module above it shows up here as such a pair.
//!
//! Every path of a file up to its `mod tests` counts, in `use` lines or in code (not in
//! comments, whose links are no imports); `crate::{a,
//! b::c}` counts `a` and `b::c`. A path stands for the deepest module it names, so a path to
//! a crate root re-export (`crate::Value`) counts for nothing: the root is the facade. Paths
//! without `crate::` or `super::` (a parent naming its own submodules) are not seen, and need
//! not be: a parent sits above its children.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use avdl2rs_tests::workspace_root;

/// Crates whose `src/` is checked.
const CRATES: [&str; 13] = [
    "avdl-parser",
    "schema",
    "emit",
    "codegen",
    "derive",
    "runtime",
    "registry",
    "container",
    "kafka",
    "cli",
    "lint",
    "lsp",
    "bench",
];

/// Pairs of modules that import each other because what they model is recursive: an IDL
/// file's imports are loaded by the loader that reads the importing file.
const DOMAIN: [(&str, &str); 2] = [("json_import", "loader"), ("loader", "reader")];

type Module = Vec<String>;

#[test]
fn no_two_modules_of_a_crate_import_each_other() {
    let mut found = Vec::new();
    for krate in CRATES {
        let src = workspace_root().join(krate).join("src");
        let mut files = BTreeMap::new();
        read_modules(&src, &src, &mut files);
        assert!(files.len() > 1, "no modules found under {}", src.display());
        let edges = imports(&files);
        for (from, to) in edges
            .iter()
            .flat_map(|(f, ts)| ts.iter().map(move |t| (f, t)))
        {
            let pair = (from.join("::"), to.join("::"));
            let listed = (pair.0.as_str(), pair.1.as_str());
            if from < to
                && edges.get(to).is_some_and(|back| back.contains(from))
                && !DOMAIN.contains(&listed)
            {
                found.push(format!("{krate}: {} <-> {}", pair.0, pair.1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "modules importing each other:\n{}",
        found.join("\n")
    );
}

/// The module path of every `.rs` file under `dir` (`a/mod.rs` and `a.rs` are `a`), with
/// its text up to its `mod tests`.
fn read_modules(src: &Path, dir: &Path, out: &mut BTreeMap<Module, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_modules(src, &path, out);
            continue;
        }
        let rel = path.strip_prefix(src).unwrap().with_extension("");
        let mut module: Module = rel
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
        if matches!(
            module.last().map(String::as_str),
            Some("mod" | "lib" | "main")
        ) {
            module.pop();
        }
        let code = path.extension().is_some_and(|e| e == "rs") && !rel.starts_with("bin");
        if code && !rel.ends_with("tests") {
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("\nmod tests {").next().unwrap();
            let lines = code.lines().filter(|l| !l.trim_start().starts_with("//"));
            out.entry(module)
                .or_default()
                .extend(lines.map(|l| format!("{l}\n")));
        }
    }
}

/// For each module, the other modules its `crate::` and `super::` paths name.
fn imports(files: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut edges = BTreeMap::new();
    for (module, text) in files {
        let parent = &module[..module.len().saturating_sub(1)];
        let mut named = BTreeSet::new();
        for (prefix, base) in [("crate::", &[][..]), ("super::", parent)] {
            for (at, _) in text.match_indices(prefix) {
                let rest = &text[at + prefix.len()..];
                let paths: Vec<&str> = match rest.strip_prefix('{') {
                    Some(group) => group[..group.find('}').unwrap_or(0)].split(',').collect(),
                    None => vec![rest],
                };
                for path in paths {
                    let mut full: Module = base.to_vec();
                    let segments = path.trim().split("::").map(|s| {
                        s.chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect()
                    });
                    full.extend(segments.take_while(|s: &String| !s.is_empty()));
                    while !full.is_empty() && !files.contains_key(&full) {
                        full.pop();
                    }
                    if !full.is_empty() && full != *module {
                        named.insert(full);
                    }
                }
            }
        }
        edges.insert(module.clone(), named);
    }
    edges
}
