//! `avdl2rs gen [-I DIR]... IN... [-o FILE|DIR|-]`: Rust code from schema files, the same
//! code a build script's `Builder` writes.

use std::io::Read;
use std::path::{Path, PathBuf};

use avdl2rs_codegen::builder::Generated;
use avdl2rs_codegen::{Builder, Generator, MapType, Options, TimeCrate};

use crate::io::{Failure, Output};

/// Arguments of `gen`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    avdl2rs gen schemas/orders.avdl -o src/orders.rs\n  \
    avdl2rs gen schemas/ -I shared/ -o src/generated/     (one file per module, root mod.rs)\n  \
    avdl2rs gen orders.avsc --map-type btree-map --derive Eq\n  \
    avdl2rs gen shop.avdl --one-of shop.OrderEvent=shop.Created,shop.Paid\n  \
    avdl2rs gen shop.avdl --one-of 'shop.AnyEvent=shop.Created,*'   (`*`: a catch-all variant)\n  \
    avdl2rs idl orders.avdl | avdl2rs gen -")]
pub struct Args {
    /// Schema files (.avdl, .avsc, .avpr) or directories of them; `-` alone reads one IDL
    /// or JSON schema from stdin.
    #[arg(value_name = "IN", required = true)]
    pub inputs: Vec<String>,
    /// Directory searched for imports not found beside the importing file (repeatable).
    #[arg(short = 'I', long = "include", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Where to write: a file, a directory (one file per module, the root in `mod.rs`;
    /// an existing directory or a path ending in `/`), or `-` for stdout.
    #[arg(short, long, value_name = "FILE|DIR|-", default_value = "-")]
    pub output: String,
    #[command(flatten)]
    pub options: GenOptions,
}

/// The generator's options as flags.
#[derive(Debug, clap::Args)]
pub struct GenOptions {
    /// The Rust type of Avro maps.
    #[arg(long, value_enum, default_value = "hash-map")]
    pub map_type: MapArg,
    /// The Rust types of date and time logical types.
    #[arg(long, value_enum, default_value = "chrono")]
    pub time_crate: TimeArg,
    /// Puts every type in the root module instead of one module per namespace.
    #[arg(long)]
    pub flat_modules: bool,
    /// An extra derive for every type, as a Rust path (repeatable).
    #[arg(long = "derive", value_name = "PATH")]
    pub extra_derives: Vec<String>,
    /// Also implements `apache_avro::AvroSchema` (the runtime's `apache-avro` feature).
    #[arg(long)]
    pub apache_avro: bool,
    /// The path of the runtime crate in the generated code.
    #[arg(long, value_name = "PATH", default_value = "::avdl2rs")]
    pub runtime_path: String,
    /// Takes a named type or a namespace from other generated code instead of generating
    /// it, e.g. `com.example.shared=::events::schema::com::example::shared` (repeatable).
    #[arg(long = "extern-path", value_name = "AVRO=PATH", value_parser = parse_extern_path)]
    pub extern_paths: Vec<(String, String)>,
    /// Adds an enum of one of several named types, read by the writer's full name, e.g.
    /// `shop.OrderEvent=shop.Created,shop.Paid`; a last name `*` adds a catch-all
    /// `Other(GenericRecord)` variant (repeatable).
    #[arg(long = "one-of", value_name = "NAME=TYPE,...", value_parser = parse_one_of)]
    pub one_ofs: Vec<OneOfArg>,
}

/// One `--one-of` value.
#[derive(Debug, Clone)]
pub struct OneOfArg {
    name: String,
    types: Vec<String>,
    catch_all: bool,
}

/// Splits `NAME=TYPE,...[,*]`.
fn parse_one_of(text: &str) -> Result<OneOfArg, String> {
    let (name, list) = text
        .split_once('=')
        .filter(|(name, list)| !name.is_empty() && !list.is_empty())
        .ok_or_else(|| format!("{text:?} is not NAME=TYPE,TYPE,..."))?;
    let mut types: Vec<String> = list.split(',').map(str::to_string).collect();
    let catch_all = types.last().is_some_and(|last| last == "*");
    if catch_all {
        types.pop();
    }
    if let Some(bad) = types.iter().find(|t| t.is_empty() || *t == "*") {
        return Err(format!(
            "{text:?}: {bad:?} is not a type name (`*`, a catch-all, can only come last)"
        ));
    }
    Ok(OneOfArg {
        name: name.to_string(),
        types,
        catch_all,
    })
}

/// Splits `AVRO=PATH`.
fn parse_extern_path(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((avro, rust)) if !avro.is_empty() && !rust.is_empty() => {
            Ok((avro.to_string(), rust.to_string()))
        }
        _ => Err(format!("{text:?} is not AVRO_NAME=RUST_PATH")),
    }
}

/// `--map-type` values.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum MapArg {
    /// `std::collections::HashMap`.
    HashMap,
    /// `std::collections::BTreeMap`.
    BtreeMap,
}

/// `--time-crate` values.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum TimeArg {
    /// `chrono` types.
    Chrono,
    /// `time` crate types.
    Time,
    /// The plain `i32`/`i64` values.
    Raw,
}

impl GenOptions {
    /// The generator options these flags select.
    pub fn to_options(&self) -> Options {
        let options = Options::default()
            .map_type(match self.map_type {
                MapArg::HashMap => MapType::HashMap,
                MapArg::BtreeMap => MapType::BTreeMap,
            })
            .time_crate(match self.time_crate {
                TimeArg::Chrono => TimeCrate::Chrono,
                TimeArg::Time => TimeCrate::Time,
                TimeArg::Raw => TimeCrate::Raw,
            })
            .flat_modules(self.flat_modules)
            .apache_avro_schema(self.apache_avro)
            .runtime_path(self.runtime_path.clone());
        let options = self.extra_derives.iter().fold(options, |options, derive| {
            options.extra_derive(derive.clone())
        });
        let options = self
            .extern_paths
            .iter()
            .fold(options, |options, (avro, rust)| {
                options.extern_path(avro.clone(), rust.clone())
            });
        self.one_ofs.iter().fold(options, |options, one_of| {
            let (name, types) = (one_of.name.clone(), one_of.types.iter());
            match one_of.catch_all {
                true => options.one_of_with_other(name, types),
                false => options.one_of(name, types),
            }
        })
    }
}

/// Generates the code and writes it where `--output` says.
pub fn run(args: &Args) -> Result<(), Failure> {
    let mut builder = Builder::new("mod");
    builder
        .options(args.options.to_options())
        .cargo_instructions(false);
    for dir in &args.include_dirs {
        builder.include_dir(dir);
    }
    let generated = if args.inputs == ["-"] {
        from_stdin(&args.include_dirs, args.options.to_options())?
    } else {
        if args.inputs.iter().any(|i| i == "-") {
            return Err(Failure::Message(
                "`-` (stdin) must be the only input".to_string(),
            ));
        }
        for input in &args.inputs {
            builder.input(input);
        }
        builder.generate().map_err(Failure::Build)?
    };
    if let Some(deep) = &generated.deep_nesting {
        eprintln!("warning: {deep}");
    }
    match output_dir(&args.output) {
        Some(dir) => {
            builder.out_dir(dir).module_tree(true);
            builder.write(generated).map_err(Failure::Build).map(drop)
        }
        None => args
            .output
            .parse::<Output>()
            .unwrap_or_default()
            .write(generated.source.as_bytes()),
    }
}

/// The directory of a module-tree output: an existing directory or a path ending in a
/// separator.
fn output_dir(output: &str) -> Option<&Path> {
    let path = Path::new(output);
    (output != "-" && (output.ends_with(['/', '\\']) || path.is_dir())).then_some(path)
}

/// Generates code from one schema on stdin: JSON when it starts with `{` or `[`, IDL
/// otherwise (imports are then looked up in the include directories only).
fn from_stdin(include_dirs: &[PathBuf], options: Options) -> Result<Generated, Failure> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| Failure::Message(format!("cannot read stdin: {e}")))?;
    let mut generator = Generator::new(options);
    let added = if text.trim_start().starts_with(['{', '[']) {
        generator.add_schema_json(&text, "<stdin>")
    } else {
        let parse_options = avdl_parser::ParseOptions {
            include_dirs: include_dirs.to_vec(),
        };
        let idl =
            avdl_parser::parse_str(&text, "<stdin>", &parse_options).map_err(Failure::Invalid)?;
        generator.add_parsed_idl(idl, "<stdin>")
    };
    added
        .and_then(|()| generator.generated())
        .map_err(|e| Failure::Build(e.into()))
}
