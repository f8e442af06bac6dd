//! The workspace folder the editor opened and the settings of its files: each file takes the
//! nearest `avdl2rs.toml` above it, found by the same lookup as the command line's
//! ([`avdl2rs_lint::config`]).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use avdl2rs_lint::config::{Config, ConfigError, Configs};
use lsp_types::{InitializeParams, Uri};

/// The workspace folder and the settings read so far.
#[derive(Debug, Default)]
pub struct Workspace {
    /// The first workspace folder (or the root of older clients), when it is on disk.
    pub root: Option<PathBuf>,
    /// Directories searched for IDL imports not found beside the importing file: those of
    /// the command line, then the `[lsp] include` of the workspace folder's settings.
    pub include_dirs: Vec<PathBuf>,
    /// The include directories given on the command line (`avdl2rs lsp -I`).
    command_line_includes: Vec<PathBuf>,
    /// The `avdl2rs.toml` files read, by folder.
    configs: Configs,
}

impl Workspace {
    /// The workspace the client names in `initialize`, with the include directories given
    /// on the command line and those of its settings.
    pub fn new(params: &InitializeParams, include_dirs: Vec<PathBuf>) -> Workspace {
        let first_folder = params
            .workspace_folders
            .as_ref()
            .and_then(|folders| folders.first())
            .map(|folder| &folder.uri);
        #[allow(deprecated)] // older clients send only `rootUri`
        let uri = first_folder.or(params.root_uri.as_ref());
        let mut workspace = Workspace {
            root: uri.and_then(uri_to_path),
            include_dirs: Vec::new(),
            command_line_includes: include_dirs,
            configs: Configs::default(),
        };
        workspace.read_include_dirs();
        workspace
    }

    /// The settings of the file at `path`, or of the workspace folder for a file that is not
    /// on disk (the defaults without either).
    pub fn config(&mut self, path: Option<&Path>) -> Result<Config, ConfigError> {
        match (path, &self.root) {
            (Some(path), _) => self.configs.for_file(path).cloned(),
            (None, Some(root)) => self.configs.for_folder(&root.clone()).cloned(),
            (None, None) => Ok(Config::default()),
        }
    }

    /// Forgets the settings read, after an `avdl2rs.toml` changed, and reads the include
    /// directories again; true when they changed (the index must then be rebuilt).
    pub fn reload_configs(&mut self) -> bool {
        self.configs = Configs::default();
        let before = std::mem::take(&mut self.include_dirs);
        self.read_include_dirs();
        before != self.include_dirs
    }

    /// The command line's include directories, then the `[lsp] include` of the workspace
    /// folder's settings. Settings that cannot be read add none: every document's
    /// diagnostics already say why.
    fn read_include_dirs(&mut self) {
        let from_settings = self
            .config(None)
            .map(|config| config.lsp.include)
            .unwrap_or_default();
        self.include_dirs = self.command_line_includes.clone();
        self.include_dirs.extend(from_settings);
    }
}

/// The path of a `file:` URI; `None` for other schemes (an unsaved buffer, say).
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file:///path` on Unix, `file:///C:/path` on Windows; a host before the path is not
    // a local file.
    let path = rest.strip_prefix('/').map(|p| format!("/{p}"))?;
    let decoded = percent_decode(&path)?;
    #[cfg(windows)]
    let decoded = decoded.trim_start_matches('/').replace('/', "\\");
    Some(PathBuf::from(decoded))
}

/// The `file:` URI of an absolute `path`.
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let path = path.to_str()?.replace('\\', "/");
    let path = if path.starts_with('/') {
        path
    } else {
        format!("/{path}")
    };
    let mut uri = String::from("file://");
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~:".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    Uri::from_str(&uri).ok()
}

/// `text` with its `%XX` escapes decoded; `None` when they do not make UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| text.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                decoded.push(byte);
                i += 3;
            }
            None => {
                decoded.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8(decoded).ok()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn file_uris_round_trip_with_escapes() {
        let path = Path::new("/tmp/my contracts/é/orders.avdl");
        let uri = path_to_uri(path).unwrap();
        assert_eq!(
            uri.as_str(),
            "file:///tmp/my%20contracts/%C3%A9/orders.avdl"
        );
        assert_eq!(uri_to_path(&uri).as_deref(), Some(path));
        let untitled = Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(uri_to_path(&untitled), None);
    }
}
