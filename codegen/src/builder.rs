//! The `build.rs` entry point: schema files in, Rust source in `OUT_DIR` out.
//!
//! ```no_run
//! // In build.rs, `fn main`:
//! avdl2rs_codegen::Builder::new("orders")
//!     .input("schemas")
//!     .build()
//!     .unwrap();
//! ```
//!
//! and in the crate, `avdl2rs::include_generated!("orders");` where the types should live.
//!
//! The builder reads every input (a file, or every `.avdl`/`.avsc`/`.avpr` file under a
//! directory), generates one Rust source for all of them, and writes it to
//! `$OUT_DIR/<name>.rs` — or, with [`Builder::module_tree`], one file per module under
//! `$OUT_DIR/<name>/` (a root named `mod` keeps them beside it, as with `mod.rs`). A file
//! is written only when its bytes change, so an unchanged schema
//! does not make cargo recompile the crate. It prints `cargo:rerun-if-changed` for each input
//! directory and every file read, imports included, so cargo reruns the script exactly when
//! a schema changes. Its [`BuildError`] prints as a diagnostic (`file:line:col`, the source
//! line and a caret) under both `Display` and `Debug`, so `unwrap()` in a build script shows
//! where the schema is wrong.

mod diagnostic;
mod split;

use std::fmt;
use std::path::{Path, PathBuf};

pub use crate::generated::Generated;
use crate::{Error, GeneratedType, Generator, MapType, Options, TimeCrate};

/// The file extensions read from an input directory.
const SCHEMA_EXTENSIONS: [&str; 3] = ["avdl", "avsc", "avpr"];

/// Generates Rust code from schema files in a build script; see the [module docs](self).
#[derive(Debug, Clone)]
pub struct Builder {
    name: String,
    inputs: Vec<PathBuf>,
    include_dirs: Vec<PathBuf>,
    options: Options,
    out_dir: Option<PathBuf>,
    module_tree: bool,
    cargo_instructions: bool,
}

/// What a successful [`Builder::build`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Built {
    /// Every schema file read, inputs and imports, in the order read.
    pub files_read: Vec<PathBuf>,
    /// Every output file, the root (`<name>.rs`) first.
    pub outputs: Vec<PathBuf>,
    /// The output files whose bytes changed and were written by this run.
    pub written: Vec<PathBuf>,
    /// Every generated named type, with its Rust path relative to the included root.
    pub types: Vec<GeneratedType>,
}

impl Builder {
    /// A builder whose output is `$OUT_DIR/<name>.rs`, included with
    /// `avdl2rs::include_generated!("<name>")`.
    pub fn new(name: impl Into<String>) -> Self {
        Builder {
            name: name.into(),
            inputs: Vec::new(),
            include_dirs: Vec::new(),
            options: Options::default(),
            out_dir: None,
            module_tree: false,
            cargo_instructions: true,
        }
    }

    /// Adds a schema file (`.avdl`, `.avsc`, `.avpr`) or a directory, whose schema files are
    /// all read (recursively, in path order). Relative paths are relative to the package
    /// root, where cargo runs build scripts.
    ///
    /// Files are read in the order added, and a `.avsc`/`.avpr` file may refer to the named
    /// types of the files read before it; IDL files import what they use, and a type
    /// imported by several files is generated once.
    pub fn input(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.inputs.push(path.as_ref().to_path_buf());
        self
    }

    /// Adds a directory searched for IDL imports that are not beside the importing file.
    pub fn include_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.include_dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// Replaces all generator options at once.
    pub fn options(&mut self, options: Options) -> &mut Self {
        self.options = options;
        self
    }

    /// The Rust type of Avro maps (see [`Options::map_type`]).
    #[deprecated(note = "set it on the options: `.options(Options::default().map_type(…))`")]
    pub fn map_type(&mut self, map_type: MapType) -> &mut Self {
        self.set(|o| o.map_type(map_type))
    }

    /// The Rust types of date and time logical types (see [`Options::time_crate`]).
    #[deprecated(note = "set it on the options: `.options(Options::default().time_crate(…))`")]
    pub fn time_crate(&mut self, time_crate: TimeCrate) -> &mut Self {
        self.set(|o| o.time_crate(time_crate))
    }

    /// Puts every type in the root module (see [`Options::flat_modules`]).
    #[deprecated(note = "set it on the options: `.options(Options::default().flat_modules(…))`")]
    pub fn flat_modules(&mut self, flat: bool) -> &mut Self {
        self.set(|o| o.flat_modules(flat))
    }

    /// Adds a derive to every type (see [`Options::extra_derive`]).
    #[deprecated(note = "set it on the options: `.options(Options::default().extra_derive(…))`")]
    pub fn extra_derive(&mut self, path: impl Into<String>) -> &mut Self {
        self.set(|o| o.extra_derive(path))
    }

    /// Also implements `apache_avro::AvroSchema` (see [`Options::apache_avro_schema`]).
    #[deprecated(
        note = "set it on the options: `.options(Options::default().apache_avro_schema(…))`"
    )]
    pub fn apache_avro_schema(&mut self, enable: bool) -> &mut Self {
        self.set(|o| o.apache_avro_schema(enable))
    }

    /// The path of the runtime crate in the generated code (see [`Options::runtime_path`]).
    #[deprecated(note = "set it on the options: `.options(Options::default().runtime_path(…))`")]
    pub fn runtime_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.set(|o| o.runtime_path(path))
    }

    /// Takes a named type or namespace from other generated code (see
    /// [`Options::extern_path`]).
    #[deprecated(note = "set it on the options: `.options(Options::default().extern_path(…))`")]
    pub fn extern_path(
        &mut self,
        avro: impl Into<String>,
        rust_path: impl Into<String>,
    ) -> &mut Self {
        self.set(|o| o.extern_path(avro, rust_path))
    }

    /// Applies one of the options' setters.
    fn set(&mut self, setter: impl FnOnce(Options) -> Options) -> &mut Self {
        self.options = setter(std::mem::take(&mut self.options));
        self
    }

    /// Writes into `dir` instead of `$OUT_DIR` (e.g. to check generated code into `src/`).
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Writes one file per module: the root `<name>.rs` includes `<name>/<module>.rs`, and so
    /// on down the namespaces, so each file stays small enough to read; with the name `mod`,
    /// `mod.rs` includes `<module>.rs` beside it, for a tree checked into `src/`. The
    /// generated code is the same as with one file.
    pub fn module_tree(&mut self, enable: bool) -> &mut Self {
        self.module_tree = enable;
        self
    }

    /// Whether to print `cargo:rerun-if-changed` lines, and a `cargo:warning` when a type
    /// nests too deeply for rustc's default recursion limit (default on; turn off outside a
    /// build script).
    pub fn cargo_instructions(&mut self, enable: bool) -> &mut Self {
        self.cargo_instructions = enable;
        self
    }

    /// Reads the inputs, generates the code and writes the files whose bytes changed.
    pub fn build(&self) -> Result<Built, BuildError> {
        check_name(&self.name)?;
        let out_dir = self.resolve_out_dir()?;
        let generated = self.generate()?;
        self.write_to(&out_dir, generated)
    }

    /// Writes code generated elsewhere (e.g. from a schema on stdin) as [`Builder::build`]
    /// writes its own: under this builder's name and layout, only the files that changed.
    pub fn write(&self, generated: Generated) -> Result<Built, BuildError> {
        check_name(&self.name)?;
        let out_dir = self.resolve_out_dir()?;
        self.write_to(&out_dir, generated)
    }

    fn write_to(&self, out_dir: &Path, generated: Generated) -> Result<Built, BuildError> {
        let outputs = if self.module_tree {
            split::module_files(&self.name, &generated.source)?
        } else {
            vec![(PathBuf::from(format!("{}.rs", self.name)), generated.source)]
        };
        let mut built = Built {
            files_read: generated.files_read,
            outputs: Vec::new(),
            written: Vec::new(),
            types: generated.types,
        };
        for (relative, text) in outputs {
            let path = out_dir.join(relative);
            if write_if_changed(&path, text.as_bytes())? {
                built.written.push(path.clone());
            }
            built.outputs.push(path);
        }
        Ok(built)
    }

    /// Reads the inputs and generates the code as one source, without writing anything
    /// (what `avdl2rs gen` prints). Prints `cargo:rerun-if-changed` as [`Builder::build`].
    pub fn generate(&self) -> Result<Generated, BuildError> {
        let files = self.input_files()?;
        let mut generator = Generator::new(self.options.clone());
        let added = files
            .iter()
            .try_for_each(|file| generator.add_file(file, &self.include_dirs));
        self.emit_rerun(generator.files_read());
        added?;
        let generated = generator.generated()?;
        if let (true, Some(deep)) = (self.cargo_instructions, &generated.deep_nesting) {
            println!("cargo:warning={deep}");
        }
        Ok(generated)
    }

    fn resolve_out_dir(&self) -> Result<PathBuf, BuildError> {
        match &self.out_dir {
            Some(dir) => Ok(dir.clone()),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::NoOutDir),
        }
    }

    /// The schema files of every input, in input order; a directory's files sorted by path.
    /// Input directories are reported to cargo here, so that adding a file to one reruns
    /// the build script even when the directory has no schema yet.
    fn input_files(&self) -> Result<Vec<PathBuf>, BuildError> {
        if self.inputs.is_empty() {
            return Err(BuildError::NoInputs);
        }
        let mut files = Vec::new();
        for input in &self.inputs {
            if input.is_dir() {
                self.emit_rerun(std::slice::from_ref(input));
                let mut found = Vec::new();
                collect_schema_files(input, &mut found)?;
                if found.is_empty() {
                    return Err(BuildError::EmptyDir { dir: input.clone() });
                }
                found.sort();
                files.extend(found);
            } else if input.is_file() {
                files.push(input.clone());
            } else {
                return Err(BuildError::NotFound {
                    path: input.clone(),
                });
            }
        }
        Ok(files)
    }

    fn emit_rerun(&self, paths: &[PathBuf]) {
        if self.cargo_instructions {
            for path in paths {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}

/// The output name becomes a file name and an `include_generated!` argument: it must be a
/// plain name, not a path.
fn check_name(name: &str) -> Result<(), BuildError> {
    let plain = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && !name.ends_with(".rs");
    if plain {
        Ok(())
    } else {
        Err(BuildError::InvalidName {
            name: name.to_string(),
        })
    }
}

/// Appends every schema file under `dir` (recursively) to `found`.
fn collect_schema_files(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), BuildError> {
    let io = |source| BuildError::Io {
        path: dir.to_path_buf(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_dir() {
            collect_schema_files(&path, found)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SCHEMA_EXTENSIONS.contains(&e))
        {
            found.push(path);
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` (creating its directory) unless it already holds exactly them;
/// returns whether it wrote.
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<bool, BuildError> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    let io = |source| BuildError::Io {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(io)?;
    }
    std::fs::write(path, bytes).map_err(io)?;
    Ok(true)
}

/// Why a [`Builder::build`] failed. `Debug` prints the same diagnostic as `Display`.
pub enum BuildError {
    /// A schema could not be read or code could not be generated; IDL errors are shown
    /// with their source line.
    Generate(Error),
    /// No input was added.
    NoInputs,
    /// An input is neither a file nor a directory.
    NotFound {
        /// The input as given.
        path: PathBuf,
    },
    /// An input directory holds no `.avdl`, `.avsc` or `.avpr` file.
    EmptyDir {
        /// The directory.
        dir: PathBuf,
    },
    /// `OUT_DIR` is not set: the builder runs outside a build script without
    /// [`Builder::out_dir`].
    NoOutDir,
    /// The output name is not a plain file name.
    InvalidName {
        /// The name given to [`Builder::new`].
        name: String,
    },
    /// A directory could not be listed or an output could not be written.
    Io {
        /// The directory or file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl From<Error> for BuildError {
    fn from(error: Error) -> Self {
        BuildError::Generate(error)
    }
}

impl BuildError {
    /// The error as the compiler writes one, the way the command line shows it too:
    /// `error: …`, and for an IDL error ` --> file:line:col`, the source line with the place
    /// underlined and the help, then each related error of the file in turn.
    pub fn render(&self, style: avdl_parser::render::Style) -> String {
        diagnostic::rendered(self, style)
    }

    /// The message on one line (`file:line:col: …` for an IDL error), for reports read by
    /// programs.
    pub fn summary(&self) -> String {
        match self {
            BuildError::Generate(error) => error.to_string(),
            BuildError::NoInputs => "no schema input: call Builder::input".to_owned(),
            BuildError::NotFound { path } => {
                format!("schema input {} does not exist", path.display())
            }
            BuildError::EmptyDir { dir } => format!(
                "schema directory {} holds no .avdl, .avsc or .avpr file",
                dir.display()
            ),
            BuildError::NoOutDir => {
                "OUT_DIR is not set: run the builder from build.rs or give it Builder::out_dir"
                    .to_owned()
            }
            BuildError::InvalidName { name } => format!(
                "output name {name:?} must be a plain file name without `.rs`, like \"orders\""
            ),
            BuildError::Io { path, source } => format!("{}: {source}", path.display()),
        }
    }
}

/// Written as [`BuildError::render`] writes it without colour, for a build script's output.
impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rendered = self.render(avdl_parser::render::Style::Plain);
        f.write_str(rendered.trim_end())
    }
}

impl fmt::Debug for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Generate(error) => Some(error),
            BuildError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
