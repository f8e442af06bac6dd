//! # avdl2rs-codegen
//!
//! Turns Avro schemas — `.avsc`, `.avpr`, or Avro IDL through `avdl-parser` — into one
//! formatted Rust source file: a type per named type (namespaces as nested modules), union
//! enums, serde derives, and the `avdl2rs` runtime traits with straight-line binary codecs.
//!
//! ```no_run
//! use avdl2rs_codegen::{Generator, Options};
//! let mut generator = Generator::new(Options::default());
//! generator.add_file("schemas/order.avdl".as_ref(), &[]).unwrap();
//! let rust_source = generator.generate().unwrap();
//! # let _ = rust_source;
//! ```
//!
//! The steps: files are parsed into one [`avdl2rs_schema::SchemaSet`] (so files share named
//! types), the set becomes a type space (`space`), and the type space becomes tokens
//! (`render`, which asks `context` about the type space and writes each type's definition
//! with `items`, its codec with `codec` and its schema item with `schema_items`, into the
//! module tree of `modules`), with the codec impls and schema items written by
//! `avdl2rs-emit`, the emitter the `Avro` derive shares. Enums of one of several named types
//! (`one_of`: those [`Options::one_of`] asks for, and one per top-level union of named types)
//! are planned with the type space and written by `one_of_items`, with the impls
//! `#[derive(AvroOneOf)]` gives.

#![warn(missing_docs)]

/// The README, this crate's guide: `cargo test --doc` compiles and runs its snippets.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
mod readme_doctests {}

mod assembly;
pub mod builder;
mod codec;
mod context;
mod cycles;
mod defaults;
mod docs;
mod error;
mod generated;
mod items;
mod large;
mod modules;
mod naming;
mod nesting;
mod nodes;
mod one_of;
mod one_of_items;
mod options;
mod render;
mod rust_types;
mod schema_items;
mod space;

use std::path::{Path, PathBuf};

use avdl2rs_schema::SchemaSet;

pub use avdl2rs_emit::TimeCrate;
pub use builder::Builder;
pub use generated::GeneratedType;
pub use nesting::DeepNesting;
pub use options::{MapType, OneOfEnum, Options};

/// The stack of the thread generating code: reserved, not committed, until a deep schema
/// uses it.
const GENERATION_STACK: usize = 1 << 30;

/// How many errors found after parsing are reported together.
const MAX_ERRORS: usize = 20;
pub use error::Error;

/// The Rust type of each field of one record, by Avro field name, in schema order (see
/// [`Generator::field_types`]).
pub type FieldTypes = Vec<(String, String)>;

/// Collects schemas from any number of files and generates one Rust source for all of them.
#[derive(Debug)]
pub struct Generator {
    options: Options,
    set: SchemaSet,
    files_read: Vec<PathBuf>,
    /// Per file or text added, in order, so that errors found later can name where a type
    /// came from.
    origins: Vec<Origin>,
    /// The top-level unions of named types read, each of which gets a one-of enum.
    top_unions: Vec<one_of::TopUnion>,
}

/// Where the named types registered by one addition came from.
#[derive(Debug)]
struct Origin {
    /// The number of named types registered once it was added.
    end: usize,
    /// The file or caller-given name.
    name: String,
    /// The parsed IDL file, which knows where each of its definitions is.
    idl: Option<Box<avdl_parser::IdlFile>>,
}

impl Generator {
    /// A generator with no schemas yet.
    pub fn new(options: Options) -> Self {
        Generator {
            options,
            set: SchemaSet::new(),
            files_read: Vec::new(),
            origins: Vec::new(),
            top_unions: Vec::new(),
        }
    }

    /// Reads a `.avdl`, `.avsc` or `.avpr` file (by extension); IDL imports are looked up
    /// beside the importing file, then in `include_dirs`.
    pub fn add_file(&mut self, path: &Path, include_dirs: &[PathBuf]) -> Result<(), Error> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("avsc" | "avpr") => {
                let json = std::fs::read_to_string(path).map_err(|source| Error::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
                self.add_schema_json(&json, &path.display().to_string())?;
                self.files_read.push(path.to_path_buf());
                Ok(())
            }
            Some("avdl") => self.add_idl(path, include_dirs),
            _ => Err(Error::UnknownExtension {
                path: path.to_path_buf(),
            }),
        }
    }

    /// Adds the types of the IDL file at `path`.
    fn add_idl(&mut self, path: &Path, include_dirs: &[PathBuf]) -> Result<(), Error> {
        let options = avdl_parser::ParseOptions {
            include_dirs: include_dirs.to_vec(),
        };
        let idl =
            avdl_parser::parse_file(path, &options).map_err(|source| Error::Idl { source })?;
        self.files_read.extend(idl.files_read().iter().cloned());
        self.add_parsed_idl(idl, &path.display().to_string())
    }

    /// Adds the types of a parsed IDL file: a protocol's JSON as a whole; for a schema file,
    /// each named type (so that types the main schema does not use are generated too). The
    /// parser's JSON is taken as it is, never written out and read back.
    ///
    /// Errors found later in its types (a default the chosen Rust type cannot hold) point
    /// at the IDL source.
    pub fn add_parsed_idl(&mut self, idl: avdl_parser::IdlFile, origin: &str) -> Result<(), Error> {
        if idl.is_protocol() {
            let parsed = self.set.parse_file_value(idl.json());
            return self.registered(parsed.map(drop), origin, Some(idl));
        }
        if idl.has_main_schema() && idl.json().is_array() {
            // The main schema's own JSON defines its named types inline; it is read apart,
            // only for its branches' names, since the types are registered one by one below.
            let union = SchemaSet::new().parse_value(idl.json());
            let union = union.map_err(|source| Error::Schema {
                origin: origin.to_string(),
                source,
            })?;
            self.top_unions.extend(one_of::TopUnion::of(&union, origin));
        }
        let named = idl
            .named_schemas()
            .map_err(|source| Error::Idl { source })?;
        let parsed = named
            .iter()
            .try_for_each(|(_, schema)| self.set.parse_value(schema).map(drop));
        self.registered(parsed, origin, Some(idl))
    }

    /// Adds the named types of an `.avsc` (schema) or `.avpr` (protocol) text; `origin`
    /// names it in errors. Types may refer to types added before.
    pub fn add_schema_json(&mut self, json: &str, origin: &str) -> Result<(), Error> {
        let parsed = self.set.parse_file_text(json);
        self.registered_file(parsed, origin)
    }

    /// Adds the named types of a schema or protocol given as JSON; see
    /// [`Generator::add_schema_json`].
    pub fn add_schema_value(
        &mut self,
        json: &serde_json::Value,
        origin: &str,
    ) -> Result<(), Error> {
        let parsed = self.set.parse_file_value(json);
        self.registered_file(parsed, origin)
    }

    /// [`Generator::registered`] for a JSON schema file, whose top-level union of named types
    /// gets a one-of enum.
    fn registered_file(
        &mut self,
        parsed: Result<Option<avdl2rs_schema::Schema>, avdl2rs_schema::SchemaError>,
        origin: &str,
    ) -> Result<(), Error> {
        let top = parsed.as_ref().ok().and_then(Option::as_ref);
        let union = top.and_then(|schema| one_of::TopUnion::of(schema, origin));
        self.registered(parsed.map(drop), origin, None)?;
        self.top_unions.extend(union);
        Ok(())
    }

    /// Records where the types just parsed came from, or turns the parse error into ours.
    fn registered(
        &mut self,
        parsed: Result<(), avdl2rs_schema::SchemaError>,
        origin: &str,
        idl: Option<avdl_parser::IdlFile>,
    ) -> Result<(), Error> {
        parsed.map_err(|source| Error::Schema {
            origin: origin.to_string(),
            source,
        })?;
        self.origins.push(Origin {
            end: self.set.len(),
            name: origin.to_string(),
            idl: idl.map(Box::new),
        });
        Ok(())
    }

    /// Where the named type `full_name` was read from.
    fn origin_of(&self, full_name: &str) -> Option<&Origin> {
        let index = self
            .set
            .iter()
            .position(|n| n.name.full_name() == full_name)?;
        self.origins.iter().find(|origin| origin.end > index)
    }

    /// Fills in the origin of errors raised after parsing: the IDL file, line and column of
    /// the definition when the type came from IDL, else the file name.
    fn locate(&self, error: Error) -> Error {
        let Error::InvalidDefault {
            record,
            field,
            message,
            ..
        } = error
        else {
            return error;
        };
        let origin = self.origin_of(&record);
        let in_idl = origin.and_then(|o| o.idl.as_ref()).and_then(|idl| {
            let message = format!("{record}.{field}: invalid default: {message}");
            idl.error_at(
                &record,
                Some(&field),
                avdl_parser::ErrorKind::InvalidDefault,
                message,
            )
        });
        match in_idl {
            Some(source) => Error::Idl { source },
            None => Error::InvalidDefault {
                origin: origin.map(|o| o.name.clone()).unwrap_or_default(),
                record,
                field,
                message,
            },
        }
    }

    /// One error for all of `errors` found after parsing: when all are in IDL files, the
    /// parser's error with the others related (each with its place), else the first other.
    fn locate_all(&self, errors: Vec<Error>) -> Error {
        let mut in_idl = Vec::new();
        let mut other = None;
        for error in errors {
            match self.locate(error) {
                Error::Idl { source } => in_idl.push(source),
                error => {
                    other.get_or_insert(error);
                }
            }
        }
        match (other, avdl_parser::Error::join(in_idl)) {
            (Some(error), _) => error,
            (None, Some(source)) => Error::Idl { source },
            (None, None) => Error::Unsupported {
                message: "generation failed without saying why (a generator bug)".into(),
            },
        }
    }

    /// Runs `f` on a thread with a [`GENERATION_STACK`] stack: the schema writers and the walks
    /// over the type graph recurse once per nested type, and a chain of thousands of records
    /// nests deeper than a main thread's 8 MiB allow (in a debug build of a build script).
    fn on_big_stack<T: Send>(
        &self,
        f: impl FnOnce(&Self) -> Result<T, Error> + Send,
    ) -> Result<T, Error>
    where
        Self: Sync,
    {
        std::thread::scope(|scope| {
            let thread = std::thread::Builder::new()
                .stack_size(GENERATION_STACK)
                .spawn_scoped(scope, || f(self))
                .map_err(|e| Error::Unsupported {
                    message: format!("cannot start the thread that generates the code: {e}"),
                })?;
            thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    }

    /// The type space of the schemas added so far, with the edges of type cycles and the
    /// large union branches boxed.
    fn type_space(&self) -> Result<space::TypeSpace, Error> {
        let mut space = space::TypeSpace::build(&self.set, &self.options, &self.top_unions)
            .map_err(|e| self.locate(e))?;
        cycles::box_cycle_edges(&mut space.defs);
        cycles::mark_recursive(&mut space.defs);
        large::box_large_branches(&mut space.defs);
        Ok(space)
    }

    /// Every file read so far, IDL imports included (for `cargo:rerun-if-changed`).
    pub fn files_read(&self) -> &[PathBuf] {
        &self.files_read
    }

    /// Every generated type that has an Avro name, with its path in the generated code
    /// (relative to where the output is included), in output order. Build scripts use it to
    /// refer to the generated types, e.g. to register them.
    pub fn named_types(&self) -> Result<Vec<GeneratedType>, Error> {
        self.on_big_stack(|generator| Ok(named_types_of(&generator.type_space()?)))
    }

    /// The Rust type of each field of every record, as its generated struct declares it
    /// (`Option<i64>`, `Vec<super::shared::Actor>`): by record full name, then by Avro field
    /// name, in schema order. For tools that show a field's Rust type (an editor's hover)
    /// without generating and reading the whole source; one walk serves every record.
    pub fn field_types(&self) -> Result<Vec<(String, FieldTypes)>, Error> {
        self.on_big_stack(|generator| {
            let space = generator.type_space()?;
            let cx = context::Context::new(&generator.set, &space, &generator.options)?;
            let records = space.defs.iter().filter_map(|def| match &def.kind {
                space::DefKind::Record { named, fields } => Some((def, named, fields)),
                _ => None,
            });
            Ok(records
                .map(|(def, named, fields)| {
                    let written = |field: &space::FieldDef| {
                        let tokens = rust_types::rust_type(&cx, &field.ty, &def.module).to_string();
                        tokens
                            .replace(' ', "")
                            .replace(',', ", ")
                            .replace(';', "; ")
                    };
                    let fields = fields
                        .iter()
                        .map(|field| (field.avro_name.clone(), written(field)))
                        .collect();
                    (named.name.full_name(), fields)
                })
                .collect())
        })
    }

    /// The generated type that nests generic types (`Option`, `Box`, `Vec`, maps) too deeply
    /// for rustc's default `#![recursion_limit]`, with the limit the including crate needs;
    /// `None` for the usual schemas. A chain of more than about 60 records, each holding
    /// the previous one in an optional field, is such a schema.
    pub fn deep_nesting(&self) -> Result<Option<DeepNesting>, Error> {
        self.on_big_stack(|generator| Ok(nesting::deepest(&generator.type_space()?.defs)))
    }

    /// The Rust source of every type added so far: an `@generated` header, then the types,
    /// formatted. The output depends only on the inputs and options.
    pub fn generate(&self) -> Result<String, Error> {
        self.on_big_stack(|generator| generator.source_of(&generator.type_space()?))
    }

    /// [`Self::generate`], [`Self::named_types`], [`Self::deep_nesting`] and
    /// [`Self::files_read`] together, from one walk over the types.
    pub fn generated(&self) -> Result<generated::Generated, Error> {
        self.on_big_stack(|generator| {
            let space = generator.type_space()?;
            Ok(generated::Generated {
                source: generator.source_of(&space)?,
                types: named_types_of(&space),
                files_read: generator.files_read.clone(),
                deep_nesting: nesting::deepest(&space.defs),
            })
        })
    }

    fn source_of(&self, space: &space::TypeSpace) -> Result<String, Error> {
        let cx = context::Context::new(&self.set, space, &self.options)?;
        let tokens = render::file(&cx).map_err(|errors| self.locate_all(errors))?;
        let file: syn::File = syn::parse2(tokens).map_err(|e| Error::Unsupported {
            message: format!("generated code does not parse (a generator bug): {e}"),
        })?;
        Ok(format!(
            "{}{}",
            render::HEADER,
            prettyplease::unparse(&file)
        ))
    }
}

/// The named types of `space` with their Rust paths (see [`Generator::named_types`]).
fn named_types_of(space: &space::TypeSpace) -> Vec<GeneratedType> {
    space
        .defs
        .iter()
        .filter_map(|def| {
            let named = def.named()?;
            let mut segments = def.module.clone();
            segments.push(def.ident.clone());
            Some(GeneratedType {
                full_name: named.name.full_name(),
                rust_path: segments.join("::"),
            })
        })
        .collect()
}
