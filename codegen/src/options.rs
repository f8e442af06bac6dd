//! What the generated code looks like: the options a [`crate::Generator`] is built with.

use crate::TimeCrate;

/// The Rust map type for Avro maps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum MapType {
    /// `std::collections::HashMap` (the default).
    #[default]
    HashMap,
    /// `std::collections::BTreeMap`, for ordered iteration and deterministic serde output.
    BTreeMap,
}

/// What the generated code looks like.
///
/// Built from [`Options::default`] through its setters (or read field by field), so that new
/// options can be added without breaking callers:
///
/// ```
/// use avdl2rs_codegen::{MapType, Options};
/// let options = Options::default().map_type(MapType::BTreeMap).flat_modules(true);
/// assert!(options.flat_modules);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// The Rust type for Avro maps.
    pub map_type: MapType,
    /// The Rust types for date and time logical types.
    pub time_crate: TimeCrate,
    /// Put every type in the root module instead of one module per namespace; of two types
    /// with the same Rust name, the later one gets a number (`Same`, `Same2`).
    pub flat_modules: bool,
    /// Extra derives for every generated type, as Rust paths (e.g. `"Eq"`, `"my::Trait"`).
    pub extra_derives: Vec<String>,
    /// Also implement `apache_avro::AvroSchema` for named types, through the runtime's
    /// re-export (the user enables the runtime's `apache-avro` feature).
    pub apache_avro_schema: bool,
    /// The path of the runtime crate in the generated code.
    pub runtime_path: String,
    /// Named types taken from other generated code instead of generated again: pairs of an
    /// Avro full name or namespace and the Rust path of that type or namespace module.
    pub extern_paths: Vec<(String, String)>,
    /// Enums of one of several named types (the runtime's `OneOf`), added to the output.
    pub one_of_enums: Vec<OneOfEnum>,
}

/// An enum of one of several named types, the Rust form of a topic that carries several
/// record types: one newtype variant per type, implementing the runtime's `OneOf` and
/// `resolve::Resolvable`, as `#[derive(AvroOneOf)]` would (see [`Options::one_of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OneOfEnum {
    /// The enum's name, dotted to place it in the module of a namespace
    /// (`com.example.OrderEvent`), else in the root module.
    pub name: String,
    /// The full Avro names of the variants' types, in variant order.
    pub types: Vec<String>,
    /// Whether an `Other(GenericRecord)` variant takes the records of any other writer type.
    pub catch_all: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            map_type: MapType::default(),
            time_crate: TimeCrate::default(),
            flat_modules: false,
            extra_derives: Vec::new(),
            apache_avro_schema: false,
            runtime_path: "::avdl2rs".to_string(),
            extern_paths: Vec::new(),
            one_of_enums: Vec::new(),
        }
    }
}

impl Options {
    /// The Rust type of Avro maps (default `HashMap`).
    #[must_use]
    pub fn map_type(mut self, map_type: MapType) -> Self {
        self.map_type = map_type;
        self
    }

    /// The Rust types of date and time logical types (default `chrono`).
    #[must_use]
    pub fn time_crate(mut self, time_crate: TimeCrate) -> Self {
        self.time_crate = time_crate;
        self
    }

    /// Puts every type in the root module instead of one module per namespace.
    #[must_use]
    pub fn flat_modules(mut self, flat: bool) -> Self {
        self.flat_modules = flat;
        self
    }

    /// Adds a derive (a Rust path such as `"Eq"` or `"my_crate::Trait"`) to every type.
    #[must_use]
    pub fn extra_derive(mut self, path: impl Into<String>) -> Self {
        self.extra_derives.push(path.into());
        self
    }

    /// Also implements `apache_avro::AvroSchema` (needs the runtime's `apache-avro` feature).
    #[must_use]
    pub fn apache_avro_schema(mut self, enable: bool) -> Self {
        self.apache_avro_schema = enable;
        self
    }

    /// The path of the runtime crate in the generated code (default `::avdl2rs`), for crates
    /// that rename or re-export it.
    #[must_use]
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.runtime_path = path.into();
        self
    }

    /// Takes the named type `avro` (a full name), or every named type of the namespace
    /// `avro` and the namespaces below it, from the generated code at `rust_path` instead of
    /// generating it again: `("com.example.shared", "::events::schema::com::example::shared")`
    /// makes `com.example.shared.Envelope` `::events::schema::com::example::shared::Envelope`.
    /// The generated code asserts at compile time that each such type has the fingerprint of
    /// the schema it stands for.
    #[must_use]
    pub fn extern_path(mut self, avro: impl Into<String>, rust_path: impl Into<String>) -> Self {
        self.extern_paths.push((avro.into(), rust_path.into()));
        self
    }

    /// Adds the enum `name` (dotted for a namespace module: `com.example.OrderEvent`) with
    /// one newtype variant per named type of `types` (full Avro names), named as the type's
    /// Rust type, which reads a message into the variant whose type wrote it: the runtime's
    /// `OneOf`, for a topic carrying several record types. A name that is no named type of
    /// the schemas, a type without a Rust type of its own, or an enum name already taken is
    /// an [`crate::Error::InvalidOption`].
    ///
    /// ```
    /// use avdl2rs_codegen::Options;
    /// let options = Options::default().one_of("shop.OrderEvent", ["shop.Created", "shop.Paid"]);
    /// assert_eq!(options.one_of_enums[0].types, ["shop.Created", "shop.Paid"]);
    /// ```
    #[must_use]
    pub fn one_of<S: Into<String>>(
        mut self,
        name: impl Into<String>,
        types: impl IntoIterator<Item = S>,
    ) -> Self {
        self.one_of_enums.push(OneOfEnum {
            name: name.into(),
            types: types.into_iter().map(Into::into).collect(),
            catch_all: false,
        });
        self
    }

    /// [`Options::one_of`] with a catch-all variant `Other(GenericRecord)`, which takes the
    /// records of writer types that no variant is (they are read, never written).
    #[must_use]
    pub fn one_of_with_other<S: Into<String>>(
        self,
        name: impl Into<String>,
        types: impl IntoIterator<Item = S>,
    ) -> Self {
        let mut options = self.one_of(name, types);
        if let Some(added) = options.one_of_enums.last_mut() {
            added.catch_all = true;
        }
        options
    }
}
