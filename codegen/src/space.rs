//! The type space: every Rust type to generate, built from a [`SchemaSet`] before any token
//! is written.
//!
//! Building happens in fixed steps, each over the complete graph: register every named type
//! (so forward and recursive references resolve), convert fields (creating union enums named
//! from parent and field), box the edges that close cycles ([`crate::cycles`]), then decide
//! which types can derive `Eq` and `Hash`.

use std::collections::{BTreeSet, HashMap};

use avdl2rs_emit::{Logical, TimeCrate, TimeKind, Value};
use avdl2rs_schema::{LogicalType, NamedKind, NamedSchema, Schema, SchemaKind, SchemaSet};
use serde_json::Value as Json;

use crate::naming;
use crate::one_of::{self, OneOfDef, TopUnion};
use crate::{Error, Options};

/// Index of a [`TypeDef`] in [`TypeSpace::defs`].
pub(crate) type TypeId = usize;

/// All types to generate, in a deterministic order: named types in the set's registration
/// order, then union enums in the order they were met.
pub(crate) struct TypeSpace {
    /// The types.
    pub defs: Vec<TypeDef>,
    /// The enums of one of several named types, written after the types.
    pub one_ofs: Vec<OneOfDef>,
}

/// One generated type.
pub(crate) struct TypeDef {
    /// The Rust module path (module idents) holding the type; empty for the root.
    pub module: Vec<String>,
    /// The Rust type ident.
    pub ident: String,
    /// The doc string.
    pub doc: Option<String>,
    /// What the type is.
    pub kind: DefKind,
    /// Whether the type can derive `Eq` and `Hash` (no floats or maps inside).
    pub eq: bool,
    /// Whether a value of the type can hold another value of it, at any depth: only such
    /// types need the reader's nesting limits.
    pub recursive: bool,
}

/// The kinds of generated types.
pub(crate) enum DefKind {
    /// A struct for a record or error.
    Record {
        /// The Avro named type.
        named: NamedSchema,
        /// The fields, in schema order.
        fields: Vec<FieldDef>,
    },
    /// A unit-variant enum for an Avro enum.
    Enum {
        /// The Avro named type.
        named: NamedSchema,
        /// Per symbol, in order: the Avro symbol and the variant ident.
        symbols: Vec<(String, String)>,
        /// The position of the default symbol.
        default: Option<usize>,
    },
    /// A tuple struct around `[u8; size]`.
    Fixed {
        /// The Avro named type.
        named: NamedSchema,
        /// The size.
        size: usize,
    },
    /// An enum for a union that is not just `null` plus one type.
    Union {
        /// The non-null branches.
        variants: Vec<VariantDef>,
        /// The number of branches, `null` included.
        branches: usize,
        /// The position of `null`, if any.
        null_index: Option<usize>,
        /// The union's schema.
        schema: Schema,
    },
}

/// A record field.
pub(crate) struct FieldDef {
    /// The Avro field name.
    pub avro_name: String,
    /// The Rust field ident.
    pub ident: String,
    /// The doc string.
    pub doc: Option<String>,
    /// Field aliases.
    pub aliases: Vec<String>,
    /// The Rust type.
    pub ty: TypeRef,
    /// The default value, as written.
    pub default: Option<Json>,
}

/// A variant of a union enum.
pub(crate) struct VariantDef {
    /// The variant ident.
    pub ident: String,
    /// The branch position in the union.
    pub index: usize,
    /// The branch type.
    pub ty: TypeRef,
}

/// A Rust type as used in a field, item, value or variant: the emitter's codec model, with
/// the generated types it refers to named by their [`TypeId`].
pub(crate) type TypeRef = Value<TypeId>;

impl TypeSpace {
    /// Builds the type space of every named type in `set`, each type held by value (the
    /// generator then boxes what recursion and size require: `cycles`, `large`), with the
    /// one-of enums of the options and of `top_unions`.
    pub fn build(
        set: &SchemaSet,
        options: &Options,
        top_unions: &[TopUnion],
    ) -> Result<TypeSpace, Error> {
        let mut builder = Builder {
            set,
            options,
            defs: Vec::new(),
            by_name: HashMap::new(),
            one_ofs: Vec::new(),
        };
        builder.register_named()?;
        let registered: Vec<one_of::Registered<'_>> = builder
            .defs
            .iter()
            .map(|def| one_of::Registered {
                module: &def.module,
                ident: &def.ident,
                full_name: def.named().map(|named| named.name.full_name()),
            })
            .collect();
        let one_ofs = one_of::plan(set, &registered, options, top_unions)?;
        builder.one_ofs = one_ofs;
        builder.convert_named()?;
        let mut space = TypeSpace {
            defs: builder.defs,
            one_ofs: builder.one_ofs,
        };
        space.decide_eq();
        Ok(space)
    }

    /// Marks every type that holds no float or map, directly or through other types, as able
    /// to derive `Eq` and `Hash` (a greatest fixpoint, so recursive types qualify).
    fn decide_eq(&mut self) {
        loop {
            let flags: Vec<bool> = self.defs.iter().map(|d| d.eq).collect();
            let mut changed = false;
            for def in &mut self.defs {
                if def.eq && !def.members().all(|t| is_eq(t, &flags)) {
                    def.eq = false;
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }
}

impl TypeDef {
    /// The types this type holds directly: field types or variant types.
    pub fn members(&self) -> Box<dyn Iterator<Item = &TypeRef> + '_> {
        match &self.kind {
            DefKind::Record { fields, .. } => Box::new(fields.iter().map(|f| &f.ty)),
            DefKind::Union { variants, .. } => Box::new(variants.iter().map(|v| &v.ty)),
            DefKind::Enum { .. } | DefKind::Fixed { .. } => Box::new(std::iter::empty()),
        }
    }

    /// Mutable access to the member types, in the order of [`TypeDef::members`].
    pub fn members_mut(&mut self) -> Vec<&mut TypeRef> {
        match &mut self.kind {
            DefKind::Record { fields, .. } => fields.iter_mut().map(|f| &mut f.ty).collect(),
            DefKind::Union { variants, .. } => variants.iter_mut().map(|v| &mut v.ty).collect(),
            DefKind::Enum { .. } | DefKind::Fixed { .. } => Vec::new(),
        }
    }

    /// The Avro named type, for records, enums and fixed.
    pub fn named(&self) -> Option<&NamedSchema> {
        match &self.kind {
            DefKind::Record { named, .. }
            | DefKind::Enum { named, .. }
            | DefKind::Fixed { named, .. } => Some(named),
            DefKind::Union { .. } => None,
        }
    }
}

/// Whether a value of type `ty` supports `Eq` and `Hash`, given which types do.
fn is_eq(ty: &TypeRef, defs_eq: &[bool]) -> bool {
    match ty {
        TypeRef::Float | TypeRef::Double | TypeRef::Map(_) => false,
        TypeRef::Array(t) | TypeRef::Optional { some: t, .. } => is_eq(t, defs_eq),
        TypeRef::OptionalUnion { ty: id, .. } | TypeRef::Named { ty: id, .. } => defs_eq[*id],
        _ => true,
    }
}

struct Builder<'a> {
    set: &'a SchemaSet,
    options: &'a Options,
    defs: Vec<TypeDef>,
    /// Full Avro name → type, for named types that get a Rust type of their own.
    by_name: HashMap<String, TypeId>,
    /// The one-of enums, whose names union enums do not take.
    one_ofs: Vec<OneOfDef>,
}

impl Builder<'_> {
    /// Registers a Rust type for every named type, except fixed types that carry a logical
    /// type (those are used as the logical type's Rust type).
    fn register_named(&mut self) -> Result<(), Error> {
        let mut taken: BTreeSet<(Vec<String>, String)> = BTreeSet::new();
        for named in self.set.iter() {
            if fixed_logical(named).is_some() {
                continue;
            }
            let full_name = named.name.full_name();
            let namespace = named.name.namespace.as_deref().unwrap_or_default();
            let module = naming::module_path(namespace, self.options.flat_modules);
            // Names that differ only in case or punctuation (`builder` and `Builder`), or
            // types of several namespaces in flat modules, map to one Rust name: the later
            // type gets a number, in registration order. The Avro name stays in the schema
            // constants and serde renames.
            let ident = naming::unique(&naming::type_name(&named.name.name), |n| {
                taken.contains(&(module.clone(), n.to_owned()))
            });
            taken.insert((module.clone(), ident.clone()));
            let kind = match &named.kind {
                NamedKind::Record { .. } => DefKind::Record {
                    named: named.clone(),
                    fields: Vec::new(),
                },
                NamedKind::Enum { symbols, default } => enum_kind(named, symbols, default),
                NamedKind::Fixed { size } => DefKind::Fixed {
                    named: named.clone(),
                    size: *size,
                },
            };
            self.by_name.insert(full_name, self.defs.len());
            self.defs.push(TypeDef {
                module,
                ident,
                doc: named.doc.clone(),
                kind,
                eq: true,
                recursive: false,
            });
        }
        Ok(())
    }

    /// Converts the fields of every record.
    fn convert_named(&mut self) -> Result<(), Error> {
        for id in 0..self.defs.len() {
            let DefKind::Record { named, .. } = &self.defs[id].kind else {
                continue;
            };
            let NamedKind::Record { fields, .. } = &named.kind else {
                continue;
            };
            let fields = fields.clone();
            let named = named.clone();
            let parent = self.defs[id].ident.clone();
            let module = self.defs[id].module.clone();
            let mut taken = BTreeSet::new();
            let mut converted = Vec::with_capacity(fields.len());
            for field in &fields {
                let ident = naming::unique(&naming::field_name(&field.name), |n| taken.contains(n));
                taken.insert(ident.clone());
                let hint = format!("{parent}{}", naming::type_name(&field.name));
                let place = format!("{}.{}", named.name.full_name(), field.name);
                let ty = self.convert(&field.schema, &hint, &place, &module)?;
                converted.push(FieldDef {
                    avro_name: field.name.clone(),
                    ident,
                    doc: field.doc.clone(),
                    aliases: field.aliases.clone(),
                    ty,
                    default: field.default.clone(),
                });
            }
            if let DefKind::Record { fields, .. } = &mut self.defs[id].kind {
                *fields = converted;
            }
        }
        Ok(())
    }

    /// The Rust type of `schema`; `hint` names a union enum created for it, in `module`;
    /// `place` says where the schema sits (`ns.Record.field[]`), for docs and errors.
    fn convert(
        &mut self,
        schema: &Schema,
        hint: &str,
        place: &str,
        module: &[String],
    ) -> Result<TypeRef, Error> {
        if let Some(logical) = schema.logical_type.and_then(|l| self.logical(l, None)) {
            return Ok(TypeRef::Logical(logical));
        }
        Ok(match &schema.kind {
            SchemaKind::Null => TypeRef::Null,
            SchemaKind::Boolean => TypeRef::Boolean,
            SchemaKind::Int => TypeRef::Int,
            SchemaKind::Long => TypeRef::Long,
            SchemaKind::Float => TypeRef::Float,
            SchemaKind::Double => TypeRef::Double,
            SchemaKind::Bytes => TypeRef::Bytes,
            SchemaKind::String => TypeRef::String,
            SchemaKind::Array(items) => TypeRef::Array(Box::new(self.convert(
                items,
                &format!("{hint}Item"),
                &format!("{place}[]"),
                module,
            )?)),
            SchemaKind::Map(values) => TypeRef::Map(Box::new(self.convert(
                values,
                &format!("{hint}Value"),
                &format!("{place}{{}}"),
                module,
            )?)),
            SchemaKind::Union(branches) => self.union(branches, hint, place, module)?,
            SchemaKind::Named(name) => self.named_ref(&name.full_name())?,
        })
    }

    fn named_ref(&self, full_name: &str) -> Result<TypeRef, Error> {
        if let Some(&id) = self.by_name.get(full_name) {
            return Ok(TypeRef::Named {
                ty: id,
                boxed: false,
            });
        }
        let named = self.set.get(full_name).ok_or_else(|| Error::Unsupported {
            message: format!("reference to unknown type {full_name:?}"),
        })?;
        let (logical, size) = fixed_logical(named).expect("only logical fixed types are skipped");
        let logical = self
            .logical(logical, Some(size))
            .expect("fixed_logical checked the base");
        Ok(TypeRef::Logical(logical))
    }

    /// The Rust representation of a logical type on a base of `fixed(size)` or (for `None`)
    /// the primitive base the schema parser validated; `None` to fall back to the base type.
    fn logical(&self, logical: LogicalType, fixed: Option<usize>) -> Option<Logical> {
        let time_crate = self.options.time_crate;
        let time_type =
            |kind| (time_crate != TimeCrate::Raw).then_some(Logical::Time { time_crate, kind });
        match logical {
            LogicalType::Decimal { precision, scale } => Some(match fixed {
                Some(size) => Logical::DecimalFixed {
                    size,
                    precision,
                    scale,
                },
                None => Logical::DecimalBytes { precision, scale },
            }),
            LogicalType::Uuid if fixed.is_some() => Some(Logical::UuidFixed),
            LogicalType::Uuid => Some(Logical::UuidString),
            LogicalType::Duration => Some(Logical::Duration),
            LogicalType::BigDecimal => None,
            time => TimeKind::of(time).and_then(time_type),
        }
    }

    fn union(
        &mut self,
        branches: &[Schema],
        hint: &str,
        place: &str,
        module: &[String],
    ) -> Result<TypeRef, Error> {
        let null_index = branches.iter().position(|b| b.kind == SchemaKind::Null);
        let others: Vec<(usize, &Schema)> = branches
            .iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != null_index)
            .collect();
        match (null_index, others.as_slice()) {
            (Some(null_index), [(_, some)]) => {
                let some = Box::new(self.convert(some, hint, place, module)?);
                return Ok(TypeRef::Optional { null_index, some });
            }
            (_, []) => {
                return Err(Error::Unsupported {
                    message: format!("{place}: a union without a non-null branch"),
                });
            }
            _ => {}
        }
        let id = self.defs.len();
        let taken = |name: &str| {
            self.defs
                .iter()
                .any(|d| d.module == module && d.ident == name)
                || one_of::is_planned(&self.one_ofs, module, name)
        };
        let ident = naming::unique(hint, taken);
        self.defs.push(TypeDef {
            module: module.to_vec(),
            ident: ident.clone(),
            doc: Some(format!("A value of the Avro union at {place}.")),
            kind: DefKind::Union {
                variants: Vec::new(),
                branches: branches.len(),
                null_index,
                schema: Schema::new(SchemaKind::Union(branches.to_vec())),
            },
            eq: true,
            recursive: false,
        });
        let mut variants: Vec<VariantDef> = Vec::new();
        for (index, branch) in others {
            let base = self.branch_name(branch);
            let name = naming::unique(&base, |n| variants.iter().any(|v| v.ident == n));
            let ty = self.convert(branch, &format!("{ident}{name}"), place, module)?;
            variants.push(VariantDef {
                ident: name,
                index,
                ty,
            });
        }
        if let DefKind::Union { variants: slot, .. } = &mut self.defs[id].kind {
            *slot = variants;
        }
        Ok(match null_index {
            Some(null_index) => TypeRef::OptionalUnion {
                null_index,
                branches: branches.len(),
                ty: id,
            },
            None => TypeRef::Named {
                ty: id,
                boxed: false,
            },
        })
    }

    /// A readable variant name for a union branch: the type's name (`Int`, `OrderEvent`,
    /// `TimestampMillis`).
    fn branch_name(&self, branch: &Schema) -> String {
        if let Some(logical) = branch.logical_type {
            return naming::variant_name(logical.name());
        }
        match &branch.kind {
            SchemaKind::Array(_) => "Array".into(),
            SchemaKind::Map(_) => "Map".into(),
            SchemaKind::Named(name) => match self.by_name.get(&name.full_name()) {
                Some(&id) => self.defs[id].ident.clone(),
                None => naming::variant_name(&name.name),
            },
            kind => naming::variant_name(kind.primitive_name().unwrap_or("Branch")),
        }
    }
}

/// The logical type of a fixed named type, with its size, when it has a Rust type of its own.
fn fixed_logical(named: &NamedSchema) -> Option<(LogicalType, usize)> {
    match (&named.kind, named.logical_type) {
        (
            NamedKind::Fixed { size },
            Some(l @ (LogicalType::Decimal { .. } | LogicalType::Uuid | LogicalType::Duration)),
        ) => Some((l, *size)),
        _ => None,
    }
}

fn enum_kind(named: &NamedSchema, symbols: &[String], default: &Option<String>) -> DefKind {
    let mut idents: Vec<(String, String)> = Vec::with_capacity(symbols.len());
    for symbol in symbols {
        let ident = naming::unique(&naming::variant_name(symbol), |n| {
            idents.iter().any(|(_, i)| i == n)
        });
        idents.push((symbol.clone(), ident));
    }
    let default = default
        .as_ref()
        .and_then(|d| symbols.iter().position(|s| s == d));
    DefKind::Enum {
        named: named.clone(),
        symbols: idents,
        default,
    }
}
