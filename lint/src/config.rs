//! `avdl2rs.toml`: the settings of `fmt` and `lint` for the contract files below it. Each
//! file takes the nearest `avdl2rs.toml` found going up from its folder, as rustfmt finds
//! `rustfmt.toml`, so one repository can keep different settings for different folders.
//!
//! The lookup lives here, beside the lint settings it reads, so that the command line and the
//! language server find the same settings for a file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::finding::Lines;

/// Why the settings of a file could not be read: an unreadable or malformed `avdl2rs.toml`,
/// named with its path (and line and column when malformed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// The name of the settings file.
pub const FILE_NAME: &str = "avdl2rs.toml";

/// The settings of one `avdl2rs.toml`; a table or key left out takes its default.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// `[fmt]`: the layout `fmt` writes.
    #[serde(default)]
    pub fmt: FmtConfig,
    /// `[lint]`: rule levels and options (an unknown rule id or option is an error).
    #[serde(default)]
    pub lint: crate::Settings,
    /// `[lsp]`: what the language server does beyond the rules.
    #[serde(default)]
    pub lsp: LspConfig,
}

impl Config {
    /// Makes the paths of the settings read from the `avdl2rs.toml` in `folder` absolute:
    /// each is relative to that folder, wherever the file that inherits them is.
    fn resolve_paths(mut self, folder: &Path) -> Config {
        for dir in &mut self.lsp.include {
            *dir = folder.join(&*dir);
        }
        self
    }
}

/// `[lsp]` of `avdl2rs.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LspConfig {
    /// `compat = { level = "BACKWARD", against = "HEAD" }`: check each file's types for
    /// compatibility with the file at a git revision, at a Schema Registry level.
    #[serde(default)]
    pub compat: Option<CompatConfig>,
    /// Whether a rename keeps the old name in the type's or field's aliases, so that data
    /// written under it stays readable (true by default).
    #[serde(default = "LspConfig::default_rename_keeps_alias")]
    pub rename_keeps_alias: bool,
    /// `include = ["schemas/shared"]`: folders searched for IDL imports not found beside the
    /// importing file, after those given with `avdl2rs lsp -I`. Written relative to the
    /// folder of the `avdl2rs.toml` that names them; read, they are absolute (see
    /// [`Config::resolve_paths`]), so a folder below inheriting them finds the same folders.
    #[serde(default)]
    pub include: Vec<PathBuf>,
}

impl LspConfig {
    fn default_rename_keeps_alias() -> bool {
        true
    }
}

impl Default for LspConfig {
    fn default() -> Self {
        LspConfig {
            compat: None,
            rename_keeps_alias: LspConfig::default_rename_keeps_alias(),
            include: Vec::new(),
        }
    }
}

/// `[lsp] compat` of `avdl2rs.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompatConfig {
    /// The Schema Registry level (`BACKWARD`, `FULL_TRANSITIVE`, …; the runtime reads it).
    pub level: String,
    /// The git revision compared with (`HEAD`, a branch, a tag).
    #[serde(default = "CompatConfig::default_against")]
    pub against: String,
}

impl CompatConfig {
    fn default_against() -> String {
        "HEAD".to_owned()
    }
}

/// `[fmt]` of `avdl2rs.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FmtConfig {
    /// Spaces per level of nesting: 2 by default, as in Avro's own IDL files.
    #[serde(default = "FmtConfig::default_indent")]
    pub indent: usize,
}

impl FmtConfig {
    fn default_indent() -> usize {
        2
    }
}

impl Default for FmtConfig {
    fn default() -> Self {
        FmtConfig {
            indent: FmtConfig::default_indent(),
        }
    }
}

/// The settings of many files, each `avdl2rs.toml` read once however many files it covers.
#[derive(Debug, Default)]
pub struct Configs {
    /// The settings in force in each folder looked at so far.
    by_folder: HashMap<PathBuf, Config>,
}

impl Configs {
    /// The settings for `file` (a path, or `-` for stdin, which takes those of the current
    /// folder): the nearest `avdl2rs.toml` above it, or the defaults when there is none.
    pub fn for_file(&mut self, file: &Path) -> Result<&Config, ConfigError> {
        self.for_folder(&folder_of(file))
    }

    /// The settings in force in `folder`: its own file, else its parent's settings.
    fn load_above(&mut self, folder: &Path) -> Result<Config, ConfigError> {
        let candidate = folder.join(FILE_NAME);
        if candidate.is_file() {
            return read(&candidate).map(|config| config.resolve_paths(folder));
        }
        match folder.parent() {
            Some(parent) => {
                let parent = parent.to_owned();
                Ok(self.for_folder(&parent)?.clone())
            }
            None => Ok(Config::default()),
        }
    }

    /// The settings in force in `folder`, an absolute path, read once.
    pub fn for_folder(&mut self, folder: &Path) -> Result<&Config, ConfigError> {
        if !self.by_folder.contains_key(folder) {
            let config = self.load_above(folder)?;
            self.by_folder.insert(folder.to_owned(), config);
        }
        Ok(&self.by_folder[folder])
    }
}

/// The absolute folder whose settings apply to `file`.
fn folder_of(file: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    if file == Path::new("-") {
        return cwd;
    }
    let absolute = cwd.join(file);
    let absolute = std::fs::canonicalize(&absolute).unwrap_or(absolute);
    if absolute.is_dir() {
        return absolute;
    }
    absolute.parent().map(Path::to_owned).unwrap_or(cwd)
}

/// Reads one settings file; a malformed one is an error naming its line and column.
fn read(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ConfigError(format!("cannot read {}: {e}", path.display())))?;
    toml::from_str(&text).map_err(|e| {
        let place = e
            .span()
            .map(|span| {
                let (line, column) = Lines::new(&text).line_column(span.start);
                format!(":{line}:{column}")
            })
            .unwrap_or_default();
        ConfigError(format!("{}{place}: {}", path.display(), e.message()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_file_above_applies_and_defaults_without_one() {
        let root = tempfile::tempdir().unwrap();
        let inner = root.path().join("contracts/orders");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(root.path().join(FILE_NAME), "[fmt]\nindent = 4\n").unwrap();
        let file = inner.join("orders.avdl");
        std::fs::write(&file, "").unwrap();
        let mut configs = Configs::default();
        assert_eq!(configs.for_file(&file).unwrap().fmt.indent, 4);
        std::fs::write(inner.join(FILE_NAME), "[lint]\nnaming = \"error\"\n").unwrap();
        let mut configs = Configs::default();
        let config = configs.for_file(&file).unwrap();
        assert_eq!(config.fmt.indent, 2);
        let naming = config.lint.level(crate::Rule::Naming);
        assert_eq!(naming, crate::Level::Error);
    }

    #[test]
    fn include_folders_are_relative_to_the_file_naming_them() {
        let root = tempfile::tempdir().unwrap();
        let root_path = std::fs::canonicalize(root.path()).unwrap();
        let inner = root_path.join("contracts/orders");
        std::fs::create_dir_all(&inner).unwrap();
        let text = "[lsp]\ninclude = [\"schemas/shared\"]\n";
        std::fs::write(root_path.join(FILE_NAME), text).unwrap();
        let mut configs = Configs::default();
        let config = configs.for_file(&inner.join("orders.avdl")).unwrap();
        assert_eq!(config.lsp.include, [root_path.join("schemas/shared")]);
    }

    #[test]
    fn a_malformed_file_is_an_error_at_its_place() {
        let root = tempfile::tempdir().unwrap();
        let path = root.path().join(FILE_NAME);
        std::fs::write(&path, "[fmt]\nindent = \"two\"\n").unwrap();
        let error = Configs::default()
            .for_file(&root.path().join("a.avdl"))
            .unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains(&format!("{}:2:10", path.display())),
            "{message}"
        );
        let error = read(&path).unwrap_err().to_string();
        assert!(error.contains("invalid type"), "{error}");
        std::fs::write(&path, "[lint]\nnaming = \"warn\"\nnamin = \"warn\"\n").unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(error.contains(":3:1: unknown lint rule `namin`"), "{error}");
    }
}
