//! # avdl2rs-emit
//!
//! The codec emitter: Avro shape + Rust idents in, `AvroSchema`/`AvroEncode`/`AvroDecode`
//! impls out.
//!
//! Generated code and the `Avro` derive both call this crate, so a hand-written struct and a
//! generated one with the same schema get the same codec. The emitter knows nothing about
//! schema files or naming: its caller says, per type, which Rust idents and types stand for
//! which Avro shapes ([`Value`]), and the emitter writes straight-line code — one expression
//! per field, unions as `match`, nested named types through their own trait impls.
//!
//! [`node`] writes schema nodes, the pieces from which the runtime assembles the schema of a
//! derived type at compile time.
//!
//! It depends only on `proc-macro2`, `quote`, `syn`, the schema model and `serde_json`, so the
//! proc-macro crate can call it without pulling the runtime, the IDL parser or the code
//! formatter into its own build (and so into every build of a program using the runtime's
//! default features).
//!
//! The emitted impls are meant to sit inside a `const _: () = { ... };` block (see
//! [`wrap_in_const`]) and use only fully qualified paths.

/// The schema model's logical types, whose spellings [`TimeKind`] and the derive read.
pub use avdl2rs_schema::LogicalType;
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};

pub mod node;

/// How a Rust value is written as Avro: the Avro schema of a field, array item, map value or
/// union branch, together with the Rust type that represents it.
///
/// `N` names the types with codec impls of their own (named types and union enums): code
/// generation names them by their place in its type space, the derive by the `syn::Type` the
/// user wrote. The emitter asks its caller for their paths (see [`type_impls`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value<N> {
    /// `null` as `()`.
    Null,
    /// `boolean` as `bool`.
    Boolean,
    /// `int` as `i32`.
    Int,
    /// `long` as `i64`.
    Long,
    /// `float` as `f32`.
    Float,
    /// `double` as `f64`.
    Double,
    /// `bytes` as `Vec<u8>` (anything that derefs to `[u8]`).
    Bytes,
    /// `string` as `String` (anything that derefs to `str`).
    String,
    /// An array as `Vec<T>`.
    Array(Box<Value<N>>),
    /// A map as any map type iterating `(&String, &T)` and collecting from `(String, T)`.
    Map(Box<Value<N>>),
    /// A two-branch union of `null` and one other schema, as `Option<T>`.
    Optional {
        /// The position of `null` in the union (0 or 1).
        null_index: usize,
        /// The non-null branch.
        some: Box<Value<N>>,
    },
    /// A union of `null` and two or more other schemas, as `Option<E>` where `E` is a union
    /// enum ([`Shape::Union`] with `null_index` set).
    OptionalUnion {
        /// The position of `null` in the union.
        null_index: usize,
        /// The number of branches of the union, `null` included.
        branches: usize,
        /// The union enum type.
        ty: N,
    },
    /// A type with its own `AvroEncode`/`AvroDecode` impls: a named type or a union enum.
    Named {
        /// The type.
        ty: N,
        /// Whether the Rust value is a `Box` of `ty` (a recursive reference).
        boxed: bool,
    },
    /// A logical type, through the runtime's helpers.
    Logical(Logical),
}

/// Logical types with a dedicated Rust representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Logical {
    /// `date`, `time-*`, `timestamp-*`, `local-timestamp-*` as a date/time crate's type.
    Time {
        /// The crate whose types hold the value.
        time_crate: TimeCrate,
        /// The logical type.
        kind: TimeKind,
    },
    /// `uuid` on `string`, as `uuid::Uuid`.
    UuidString,
    /// `uuid` on `fixed(16)`, as `uuid::Uuid`.
    UuidFixed,
    /// `decimal` on `bytes`, as the runtime's `Decimal`.
    DecimalBytes {
        /// The decimal's precision.
        precision: u32,
        /// The decimal's scale.
        scale: u32,
    },
    /// `decimal` on `fixed(size)`, as the runtime's `Decimal`.
    DecimalFixed {
        /// The fixed size in bytes.
        size: usize,
        /// The decimal's precision.
        precision: u32,
        /// The decimal's scale.
        scale: u32,
    },
    /// `duration` on `fixed(12)`, as the runtime's `Duration`.
    Duration,
}

/// The crate whose types represent date and time logical types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeCrate {
    /// `chrono`, re-exported by the runtime.
    Chrono,
    /// `time`, re-exported by the runtime (its feature `time`).
    Time,
}

impl TimeCrate {
    /// The runtime's `__private` module with this crate's encode, decode and serde helpers.
    pub fn runtime_module(self) -> &'static str {
        match self {
            TimeCrate::Chrono => "logical_chrono",
            TimeCrate::Time => "logical_time",
        }
    }
}

/// The date and time logical types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeKind {
    /// `date` on `int`: days since 1970-01-01.
    Date,
    /// `time-millis` on `int`.
    TimeMillis,
    /// `time-micros` on `long`.
    TimeMicros,
    /// `timestamp-millis` on `long`.
    TimestampMillis,
    /// `timestamp-micros` on `long`.
    TimestampMicros,
    /// `timestamp-nanos` on `long`.
    TimestampNanos,
    /// `local-timestamp-millis` on `long`.
    LocalTimestampMillis,
    /// `local-timestamp-micros` on `long`.
    LocalTimestampMicros,
    /// `local-timestamp-nanos` on `long`.
    LocalTimestampNanos,
}

impl TimeKind {
    /// Every date and time logical type.
    pub const ALL: [TimeKind; 9] = [
        TimeKind::Date,
        TimeKind::TimeMillis,
        TimeKind::TimeMicros,
        TimeKind::TimestampMillis,
        TimeKind::TimestampMicros,
        TimeKind::TimestampNanos,
        TimeKind::LocalTimestampMillis,
        TimeKind::LocalTimestampMicros,
        TimeKind::LocalTimestampNanos,
    ];

    /// The logical type of the schema model.
    pub fn logical_type(self) -> LogicalType {
        match self {
            TimeKind::Date => LogicalType::Date,
            TimeKind::TimeMillis => LogicalType::TimeMillis,
            TimeKind::TimeMicros => LogicalType::TimeMicros,
            TimeKind::TimestampMillis => LogicalType::TimestampMillis,
            TimeKind::TimestampMicros => LogicalType::TimestampMicros,
            TimeKind::TimestampNanos => LogicalType::TimestampNanos,
            TimeKind::LocalTimestampMillis => LogicalType::LocalTimestampMillis,
            TimeKind::LocalTimestampMicros => LogicalType::LocalTimestampMicros,
            TimeKind::LocalTimestampNanos => LogicalType::LocalTimestampNanos,
        }
    }

    /// The date or time kind of `logical`, if it is one.
    pub fn of(logical: LogicalType) -> Option<TimeKind> {
        TimeKind::ALL
            .into_iter()
            .find(|kind| kind.logical_type() == logical)
    }

    /// The `logicalType` spelling, e.g. `timestamp-millis` (the schema model's table).
    pub fn name(self) -> &'static str {
        self.logical_type().name()
    }

    /// The logical type spelled `name`, if it is a date or time type.
    pub fn from_name(name: &str) -> Option<TimeKind> {
        TimeKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// The suffix of the runtime's helpers for the type, e.g. `timestamp_millis`.
    pub fn helper_suffix(self) -> String {
        self.name().replace('-', "_")
    }

    /// The Avro base type: `int` for `date` and `time-millis`, else `long`.
    pub fn base(self) -> &'static str {
        match self {
            TimeKind::Date | TimeKind::TimeMillis => "int",
            _ => "long",
        }
    }
}

/// The schema facts a type's `AvroSchema` impl exposes, computed by the caller.
#[derive(Debug, Clone)]
pub struct SchemaConsts {
    /// How the texts are written.
    pub texts: SchemaTexts,
    /// The CRC-64-AVRO fingerprint of the canonical form.
    pub fingerprint: u64,
    /// The full name.
    pub full_name: String,
}

/// How a type's `SCHEMA_JSON` and `CANONICAL_FORM` are written.
#[derive(Debug, Clone)]
pub enum SchemaTexts {
    /// Written out.
    Written {
        /// The full, standalone schema JSON.
        schema_json: String,
        /// The Parsing Canonical Form.
        canonical_form: String,
    },
    /// Assembled at compile time from the type's schema node (see [`node::assembled_texts`]),
    /// for a type whose schema holds other named types, so that each type's text is written
    /// once however many schemas embed it.
    Assembled {
        /// The length in bytes of the full schema JSON.
        json_len: usize,
        /// The length in bytes of the Parsing Canonical Form.
        canonical_len: usize,
        /// The capacity the assembly needs (see [`node::assembly_capacity`]).
        capacity: usize,
    },
}

/// A record field: its Rust ident, its Avro name (used in error paths) and shape.
#[derive(Debug, Clone)]
pub struct RecordField<N> {
    /// The Rust field ident (`r#type` and the like allowed).
    pub ident: syn::Ident,
    /// The Avro field name.
    pub avro_name: String,
    /// How the field is encoded.
    pub value: Value<N>,
}

/// A variant of a union enum: a tuple variant holding one branch.
#[derive(Debug, Clone)]
pub struct UnionVariant<N> {
    /// The variant ident.
    pub ident: syn::Ident,
    /// The branch's position in the Avro union.
    pub index: usize,
    /// How the branch's value is encoded.
    pub value: Value<N>,
}

/// The Avro shape of a type that gets codec impls.
#[derive(Debug, Clone)]
pub enum Shape<N> {
    /// A record: a struct with named fields, in schema order.
    Record(Vec<RecordField<N>>),
    /// An enum: unit variants in symbol order.
    Enum(Vec<syn::Ident>),
    /// A fixed: a tuple struct around `[u8; size]`.
    Fixed(usize),
    /// A union: an enum of tuple variants, one per non-null branch.
    ///
    /// The enum implements the runtime's hidden `DecodeBranch` (reading a branch whose index
    /// was read). Without a `null` branch it also gets `AvroDecode`; with one, an enclosing
    /// `Option` ([`Value::OptionalUnion`]) reads the index and calls `DecodeBranch` for the
    /// non-null branches.
    Union {
        /// The variants.
        variants: Vec<UnionVariant<N>>,
        /// The number of branches of the Avro union, `null` included.
        branches: usize,
        /// The position of the `null` branch, if the union has one.
        null_index: Option<usize>,
    },
}

/// One type to emit codec impls for.
#[derive(Debug, Clone)]
pub struct TypeCodec<N> {
    /// The Rust type ident.
    pub ident: syn::Ident,
    /// The shape.
    pub shape: Shape<N>,
    /// The schema constants; `None` for union enums, which have no schema of their own name.
    pub schema: Option<SchemaConsts>,
    /// Whether decoding the type enters a nesting level of the reader's depth and stack
    /// limits. Only a type that can hold itself can make a decode deep, so a caller that knows
    /// the type cannot (the code generator) leaves it out, and a caller that cannot tell (the
    /// derive sees one type) keeps it.
    pub nested: bool,
    /// Whether calls to the codecs of named types ([`Value::Named`]) name the type, so that
    /// a type without the impls is reported at the type as its author wrote it (the derive,
    /// with the user's field types). Without it the type is inferred from the field, which
    /// keeps generated code short where every type has its impls.
    pub name_field_types: bool,
}

/// What the emitter needs besides the model: for each type `N` names, its path as written
/// where the impls go, and whether to write it in calls (see [`TypeCodec::name_field_types`]).
struct Cx<'a, N> {
    path: &'a dyn Fn(&N) -> TokenStream,
    name_types: bool,
}

/// Emits the `AvroSchema` (when `schema` is set), `AvroEncode` and `AvroDecode` impls of one
/// type, after `use <runtime>::__private as __avro;`: the emitted code names the runtime
/// through that one alias rather than the runtime's path in every call. Names from schemas
/// never start with `_` (see `avdl2rs-codegen`'s naming), so the alias cannot shadow or be
/// shadowed by a generated type or module. `runtime` is the
/// path of the runtime crate, e.g. `::avdl2rs`; `path` writes the path of a type the shape
/// refers to ([`Value::Named`], [`Value::OptionalUnion`]) as seen from where the impls go.
/// The impls belong in a block of their own ([`wrap_in_const`]), which scopes the alias.
pub fn type_impls<N>(
    codec: &TypeCodec<N>,
    runtime: &syn::Path,
    path: &dyn Fn(&N) -> TokenStream,
) -> TokenStream {
    let cx = &Cx {
        path,
        name_types: codec.name_field_types,
    };
    let ident = &codec.ident;
    let alias = quote!(use #runtime::__private as __avro;);
    let schema = codec
        .schema
        .as_ref()
        .map(|s| schema_impl(ident, s, runtime));
    let (encode, decode) = match &codec.shape {
        Shape::Record(fields) => {
            let full_name = codec.schema.as_ref().map(|s| s.full_name.as_str());
            let context = ErrorContext { full_name };
            let encode = record_encode(fields, cx);
            let decode = record_decode(fields, codec.nested, cx);
            let uses_context = encode.uses_context || decode.uses_context;
            let define = uses_context.then(|| context.define());
            let (encode, decode) = (
                encode_impl(ident, &encode.body),
                decode_impl(ident, &decode.body),
            );
            return quote!(#alias #schema #define #encode #decode);
        }
        Shape::Enum(variants) => (enum_encode(variants), enum_decode(variants)),
        Shape::Fixed(size) => fixed_codec(*size),
        Shape::Union {
            variants,
            branches,
            null_index,
        } => {
            let impls = union_impls(ident, variants, *branches, *null_index, codec.nested, cx);
            return quote!(#alias #impls);
        }
    };
    let encode = encode_impl(ident, &encode);
    let decode = decode_impl(ident, &decode);
    quote!(#alias #schema #encode #decode)
}

fn encode_impl(ident: &syn::Ident, body: &TokenStream) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl __avro::AvroEncode for #ident {
            #[inline]
            fn encode(&self, out: &mut ::std::vec::Vec<u8>) -> ::core::result::Result<(), __avro::EncodeError> {
                #body
            }
        }
    }
}

fn decode_impl(ident: &syn::Ident, body: &TokenStream) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl __avro::AvroDecode for #ident {
            #[inline]
            fn decode(reader: &mut __avro::codec::Reader<'_>) -> ::core::result::Result<Self, __avro::DecodeError> {
                #body
            }
        }
    }
}

/// Wraps impls in `const _: () = { ... };` so that nothing they need leaks into the module.
pub fn wrap_in_const(items: TokenStream) -> TokenStream {
    quote! { const _: () = { #items }; }
}

fn schema_impl(ident: &syn::Ident, s: &SchemaConsts, rt: &syn::Path) -> TokenStream {
    let SchemaConsts {
        texts,
        fingerprint,
        full_name,
    } = s;
    let fingerprint = Literal::u64_suffixed(*fingerprint);
    let (schema_json, canonical_form) = match texts {
        SchemaTexts::Assembled {
            json_len,
            canonical_len,
            capacity,
        } => node::assembled_texts(*json_len, *canonical_len, *capacity),
        SchemaTexts::Written {
            schema_json,
            canonical_form,
        } => (
            raw_str(schema_json).into_token_stream(),
            raw_str(canonical_form).into_token_stream(),
        ),
    };
    quote! {
        #[automatically_derived]
        impl #rt::AvroSchema for #ident {
            const SCHEMA_JSON: &'static str = #schema_json;
            const CANONICAL_FORM: &'static str = #canonical_form;
            const FINGERPRINT: u64 = #fingerprint;
            const FULL_NAME: &'static str = #full_name;
        }
    }
}

/// `text` as a raw string literal, so that JSON reads as JSON (no `\"` escapes).
pub(crate) fn raw_str(text: &str) -> Literal {
    // One `#` more than the longest run of them after a quote closes no string early.
    let longest = text
        .split('"')
        .skip(1)
        .map(|after| after.len() - after.trim_start_matches('#').len())
        .max()
        .unwrap_or(0);
    let hashes = "#".repeat(longest + 1);
    format!("r{hashes}\"{text}\"{hashes}")
        .parse()
        .expect("a raw string literal parses")
}

/// A Rust place holding a value to encode: either an expression of type `T` (a place such as
/// `self.id`) or of type `&T` (a closure parameter or match binding).
#[derive(Clone)]
struct Place {
    tokens: TokenStream,
    is_ref: bool,
}

impl Place {
    fn by_ref(tokens: TokenStream) -> Self {
        Place {
            tokens,
            is_ref: true,
        }
    }
    /// An expression of type `&T`.
    fn as_ref(&self) -> TokenStream {
        let t = &self.tokens;
        if self.is_ref {
            quote!(#t)
        } else {
            quote!(&#t)
        }
    }
    /// An expression of type `T`, for `Copy` values.
    fn as_copy(&self) -> TokenStream {
        let t = &self.tokens;
        if self.is_ref {
            quote!(*#t)
        } else {
            quote!(#t)
        }
    }
}

/// An encode expression: of type `()` when it cannot fail, else `Result<(), EncodeError>`.
struct Encode {
    tokens: TokenStream,
    fallible: bool,
}

impl Encode {
    fn infallible(tokens: TokenStream) -> Self {
        Encode {
            tokens,
            fallible: false,
        }
    }
    fn fallible(tokens: TokenStream) -> Self {
        Encode {
            tokens,
            fallible: true,
        }
    }
    /// The expression as one of type `Result<(), EncodeError>`.
    fn as_result(&self) -> TokenStream {
        let t = &self.tokens;
        if self.fallible {
            t.clone()
        } else {
            quote!({ #t; ::core::result::Result::Ok(()) })
        }
    }
}

/// The expression that writes the value at `place` (Avro shape `value`) to `out`.
fn encode_value<N>(value: &Value<N>, place: &Place, cx: &Cx<'_, N>) -> Encode {
    match value {
        Value::Null => Encode::infallible(quote!(())),
        Value::Boolean => primitive_write("write_boolean", place.as_copy()),
        Value::Int => primitive_write("write_int", place.as_copy()),
        Value::Long => primitive_write("write_long", place.as_copy()),
        Value::Float => primitive_write("write_float", place.as_copy()),
        Value::Double => primitive_write("write_double", place.as_copy()),
        Value::Bytes => primitive_write("write_bytes", place.as_ref()),
        Value::String => primitive_write("write_string", place.as_ref()),
        Value::Array(item) => {
            let items = place.as_ref();
            if let Some((write, _)) = bulk_codec(item) {
                return primitive_write(write, items);
            }
            if let Value::Null = **item {
                return Encode::infallible(quote!(__avro::write_items(out, #items, |_, _| ())));
            }
            let write = encode_value(item, &Place::by_ref(quote!(item)), cx);
            let body = &write.tokens;
            if write.fallible {
                Encode::fallible(quote!(__avro::codec::write_array(out, #items, |out, item| #body)))
            } else {
                Encode::infallible(quote!(__avro::write_items(out, #items, |out, item| #body)))
            }
        }
        Value::Map(v) => {
            let write = element_writer(v, quote!(value), cx);
            let map = place.as_ref();
            let len = &place.tokens;
            Encode::fallible(quote!(__avro::codec::write_map(out, #len.len(), #map, #write)))
        }
        Value::Optional { null_index, some } => {
            let null = Literal::i64_unsuffixed(*null_index as i64);
            let option = &place.tokens;
            let write = encode_value(some, &Place::by_ref(quote!(value)), cx);
            let body = &write.tokens;
            if write.fallible {
                Encode::fallible(quote! {
                    __avro::try_write_optional(out, #option.as_ref(), #null, |out, value| #body)
                })
            } else {
                Encode::infallible(quote! {
                    __avro::write_optional(out, #option.as_ref(), #null, |out, value| #body)
                })
            }
        }
        Value::OptionalUnion { null_index, .. } => {
            let null = Literal::i64_unsuffixed(*null_index as i64);
            let option = &place.tokens;
            Encode::fallible(quote!(__avro::encode_optional_union(out, #option.as_ref(), #null)))
        }
        // Unnamed, the type is inferred from the value (a `Box` needs the type to deref to).
        Value::Named { ty, boxed } => {
            let v = place.as_ref();
            if *boxed || cx.name_types {
                let ty = (cx.path)(ty);
                Encode::fallible(quote!(<#ty as __avro::AvroEncode>::encode(#v, out)))
            } else {
                Encode::fallible(quote!(__avro::AvroEncode::encode(#v, out)))
            }
        }
        Value::Logical(logical) => encode_logical(logical, place),
    }
}

/// The closure `|out, element| ...` that writes one map value.
fn element_writer<N>(value: &Value<N>, element: TokenStream, cx: &Cx<'_, N>) -> TokenStream {
    if let Value::Null = value {
        return quote!(|_, _| ::core::result::Result::Ok(()));
    }
    let body = encode_value(value, &Place::by_ref(element.clone()), cx).as_result();
    quote!(|out, #element| #body)
}

/// The closure `|reader| ...` that reads one array item or map value.
fn element_reader<N>(value: &Value<N>, cx: &Cx<'_, N>) -> TokenStream {
    if let Value::Null = value {
        return quote!(|_| ::core::result::Result::Ok(()));
    }
    let read = decode_value(value, cx);
    quote!(|reader| #read)
}

/// The runtime's writer and reader of an array whose items are all `item`, when they copy
/// the items in bulk rather than one by one: arrays of `double` and `float`, whose items
/// have a fixed width.
fn bulk_codec<N>(item: &Value<N>) -> Option<(&'static str, &'static str)> {
    match item {
        Value::Double => Some(("write_doubles", "read_doubles")),
        Value::Float => Some(("write_floats", "read_floats")),
        _ => None,
    }
}

fn primitive_write(function: &str, arg: TokenStream) -> Encode {
    let function = format_ident!("{function}");
    Encode::infallible(quote!(__avro::codec::#function(out, #arg)))
}

fn encode_logical(logical: &Logical, place: &Place) -> Encode {
    let v = place.as_ref();
    let p = quote!(__avro);
    Encode::fallible(match logical {
        Logical::Time { time_crate, kind } => {
            let module = format_ident!("{}", time_crate.runtime_module());
            let function = format_ident!("encode_{}", kind.helper_suffix());
            quote!(#p::#module::#function(#v, out))
        }
        Logical::UuidString => quote!(#p::encode_uuid_string(#v, out)),
        Logical::UuidFixed => quote!(#p::encode_uuid_fixed(#v, out)),
        Logical::DecimalBytes { precision, scale } => {
            let (precision, scale) = decimal_literals(*precision, *scale);
            quote!(#p::encode_decimal_bytes(#v, #precision, #scale, out))
        }
        Logical::DecimalFixed {
            size,
            precision,
            scale,
        } => {
            let size = Literal::usize_unsuffixed(*size);
            let (precision, scale) = decimal_literals(*precision, *scale);
            quote!(#p::encode_decimal_fixed(#v, #size, #precision, #scale, out))
        }
        Logical::Duration => quote!(#p::encode_duration(#v, out)),
    })
}

/// The expression of type `Result<T, DecodeError>` that reads a value of shape `value`
/// from a `&mut Reader` named `reader`.
fn decode_value<N>(value: &Value<N>, cx: &Cx<'_, N>) -> TokenStream {
    match value {
        Value::Null => quote!(::core::result::Result::Ok(())),
        Value::Boolean => quote!(reader.read_boolean()),
        Value::Int => quote!(reader.read_int()),
        Value::Long => quote!(reader.read_long()),
        Value::Float => quote!(reader.read_float()),
        Value::Double => quote!(reader.read_double()),
        Value::Bytes => quote!(__avro::decode_bytes(reader)),
        Value::String => quote!(__avro::decode_string(reader)),
        Value::Array(item) => {
            if let Some((_, read)) = bulk_codec(item) {
                let read = format_ident!("{read}");
                return quote!(reader.#read());
            }
            let read = element_reader(item, cx);
            quote!(reader.read_array(#read))
        }
        Value::Map(v) => {
            let read = element_reader(v, cx);
            quote!(reader.read_map(#read))
        }
        Value::Optional { null_index, some } => {
            let null_index = Literal::usize_unsuffixed(*null_index);
            let some = decode_value(some, cx);
            quote!(__avro::decode_optional(reader, #null_index, |reader| #some))
        }
        // The union enum is the field's type: the call needs no path of it.
        Value::OptionalUnion {
            null_index,
            branches,
            ..
        } => {
            let null_index = Literal::usize_unsuffixed(*null_index);
            let branches = Literal::usize_unsuffixed(*branches);
            quote!(__avro::decode_optional_union(reader, #branches, #null_index))
        }
        // Unnamed, the type is inferred from the field or variant the value goes to.
        Value::Named { ty, boxed } => {
            let decode = if cx.name_types {
                let ty = (cx.path)(ty);
                quote!(<#ty as __avro::AvroDecode>::decode(reader))
            } else {
                quote!(__avro::AvroDecode::decode(reader))
            };
            if *boxed {
                quote!(#decode.map(::std::boxed::Box::new))
            } else {
                decode
            }
        }
        Value::Logical(logical) => decode_logical(logical),
    }
}

/// The expression of type `Result<T, DecodeError>` that reads a logical type's value from a
/// `&mut Reader` named `reader`, through the runtime alias `__avro` (see [`type_impls`]; also how
/// generated code decodes the defaults of logical types, which have no literal syntax).
pub fn decode_logical(logical: &Logical) -> TokenStream {
    let p = quote!(__avro);
    match logical {
        Logical::Time { time_crate, kind } => {
            let module = format_ident!("{}", time_crate.runtime_module());
            let function = format_ident!("decode_{}", kind.helper_suffix());
            quote!(#p::#module::#function(reader))
        }
        Logical::UuidString => quote!(#p::decode_uuid_string(reader)),
        Logical::UuidFixed => quote!(#p::decode_uuid_fixed(reader)),
        Logical::DecimalBytes { precision, scale } => {
            let (precision, scale) = decimal_literals(*precision, *scale);
            quote!(#p::decode_decimal_bytes(reader, #precision, #scale))
        }
        Logical::DecimalFixed {
            size,
            precision,
            scale,
        } => {
            let size = Literal::usize_unsuffixed(*size);
            let (precision, scale) = decimal_literals(*precision, *scale);
            quote!(#p::decode_decimal_fixed(reader, #size, #precision, #scale))
        }
        Logical::Duration => quote!(#p::decode_duration(reader)),
    }
}

/// A decimal's precision and scale as literals.
fn decimal_literals(precision: u32, scale: u32) -> (Literal, Literal) {
    (
        Literal::u32_unsuffixed(precision),
        Literal::u32_unsuffixed(scale),
    )
}

/// The error-path step a record adds around a failing field: the field, then the record's
/// full name (which the runtime shows only when no enclosing field follows). A record's
/// codec defines it once, as the local function `field_error` of the field name generic
/// over both error types, so each field costs one call rather than its own closure
/// repeating the type name, and encode and decode share it.
struct ErrorContext<'a> {
    full_name: Option<&'a str>,
}

impl ErrorContext<'_> {
    /// The `fn field_error` item.
    fn define(&self) -> TokenStream {
        let in_type = self.full_name.map(|name| quote!(.in_type(#name)));
        quote! {
            fn field_error<E: __avro::ErrorPath>(field: &'static str) -> impl ::core::ops::FnOnce(E) -> E {
                move |e| e.in_field(field) #in_type
            }
        }
    }

    /// The `map_err` argument for field `name`.
    fn at(name: &str) -> TokenStream {
        quote!(field_error(#name))
    }
}

/// The body of a record's `encode` or `decode`, and whether it calls `field_error`.
struct RecordBody {
    body: TokenStream,
    uses_context: bool,
}

fn record_encode<N>(fields: &[RecordField<N>], cx: &Cx<'_, N>) -> RecordBody {
    let mut uses_context = false;
    let statements: Vec<TokenStream> = fields
        .iter()
        .map(|field| {
            let ident = &field.ident;
            let place = Place {
                tokens: quote!(self.#ident),
                is_ref: false,
            };
            let encode = encode_value(&field.value, &place, cx);
            let tokens = &encode.tokens;
            match (&field.value, encode.fallible) {
                (Value::Null, _) => quote!(),
                (_, true) => {
                    uses_context = true;
                    let at = ErrorContext::at(&field.avro_name);
                    quote!(#tokens.map_err(#at)?;)
                }
                (_, false) => quote!(#tokens;),
            }
        })
        .collect();
    let out_unused = fields.iter().all(|f| matches!(f.value, Value::Null));
    let silence = out_unused.then(|| quote!(let _ = out;));
    let body = quote! {
        #silence
        #(#statements)*
        ::core::result::Result::Ok(())
    };
    RecordBody { body, uses_context }
}

fn record_decode<N>(fields: &[RecordField<N>], nested: bool, cx: &Cx<'_, N>) -> RecordBody {
    let inits = fields.iter().map(|field| {
        let ident = &field.ident;
        match &field.value {
            Value::Null => quote!(#ident: (),),
            value => {
                let decode = decode_value(value, cx);
                let at = ErrorContext::at(&field.avro_name);
                quote!(#ident: #decode.map_err(#at)?,)
            }
        }
    });
    let reader_unused = fields.iter().all(|f| matches!(f.value, Value::Null));
    let silence = reader_unused.then(|| quote!(let _ = reader;));
    let body = quote! {
        #silence
        ::core::result::Result::Ok(Self { #(#inits)* })
    };
    RecordBody {
        body: in_nesting_level(body, nested),
        uses_context: !reader_unused,
    }
}

/// `body` run one nesting level deeper when `nested`, so that a recursive type stops at the
/// reader's depth and stack limits.
fn in_nesting_level(body: TokenStream, nested: bool) -> TokenStream {
    if nested {
        quote!(reader.nested(|reader| { #body }))
    } else {
        body
    }
}

fn enum_encode(variants: &[syn::Ident]) -> TokenStream {
    if variants.is_empty() {
        // An enum without symbols (the specification allows one) has no value to write.
        return quote! {
            let _ = out;
            match *self {}
        };
    }
    let arms = variants.iter().enumerate().map(|(index, variant)| {
        let index = Literal::i32_unsuffixed(index as i32);
        quote!(Self::#variant => #index,)
    });
    quote! {
        let index = match self { #(#arms)* };
        __avro::codec::write_int(out, index);
        ::core::result::Result::Ok(())
    }
}

fn enum_decode(variants: &[syn::Ident]) -> TokenStream {
    if variants.is_empty() {
        // No index is below 0, so the read always fails; the error after it is only the
        // type-correct ending.
        return quote! {
            let index = reader.read_enum_index(0)?;
            ::core::result::Result::Err(__avro::DecodeError::new(
                __avro::DecodeErrorKind::EnumIndexOutOfRange { index: index as i32, symbols: 0 },
                reader.position(),
            ))
        };
    }
    let count = Literal::usize_unsuffixed(variants.len());
    let last = variants.len().saturating_sub(1);
    let arms = variants.iter().enumerate().map(|(index, variant)| {
        if index == last {
            quote!(_ => Self::#variant,)
        } else {
            let index = Literal::usize_unsuffixed(index);
            quote!(#index => Self::#variant,)
        }
    });
    if let [only] = variants {
        return quote! {
            reader.read_enum_index(#count)?;
            ::core::result::Result::Ok(Self::#only)
        };
    }
    quote! {
        ::core::result::Result::Ok(match reader.read_enum_index(#count)? { #(#arms)* })
    }
}

fn fixed_codec(size: usize) -> (TokenStream, TokenStream) {
    let encode = quote! {
        __avro::codec::write_fixed(out, &self.0);
        ::core::result::Result::Ok(())
    };
    let size = Literal::usize_unsuffixed(size);
    let decode = quote!(reader.read_fixed::<#size>().map(Self));
    (encode, decode)
}

fn union_encode<N>(variants: &[UnionVariant<N>], cx: &Cx<'_, N>) -> TokenStream {
    let arms = variants.iter().map(|variant| {
        let ident = &variant.ident;
        let index = Literal::i64_unsuffixed(variant.index as i64);
        let write = encode_value(&variant.value, &Place::by_ref(quote!(value)), cx).as_result();
        quote! {
            Self::#ident(value) => {
                __avro::codec::write_long(out, #index);
                #write
            }
        }
    });
    quote!(match self { #(#arms)* })
}

fn union_impls<N>(
    ident: &syn::Ident,
    variants: &[UnionVariant<N>],
    branches: usize,
    null_index: Option<usize>,
    nested: bool,
    cx: &Cx<'_, N>,
) -> TokenStream {
    let encode = encode_impl(ident, &union_encode(variants, cx));
    let last = variants.len().saturating_sub(1);
    let arms = variants.iter().enumerate().map(|(position, variant)| {
        let ident = &variant.ident;
        let read = decode_value(&variant.value, cx);
        // The last arm takes every remaining index: the reader has bounded the index by the
        // branch count, and the caller has handled a null branch before getting here.
        let pattern = if position == last {
            quote!(_)
        } else {
            let i = Literal::usize_unsuffixed(variant.index);
            quote!(#i)
        };
        quote!(#pattern => #read.map(Self::#ident),)
    });
    let body = if variants.len() == 1 {
        let only = &variants[0];
        let (ident, read) = (&only.ident, decode_value(&only.value, cx));
        quote! {
            let _ = index;
            #read.map(Self::#ident)
        }
    } else {
        quote!(match index { #(#arms)* })
    };
    let body = in_nesting_level(body, nested);
    let decode_branch = quote! {
        #[automatically_derived]
        impl __avro::DecodeBranch for #ident {
            fn decode_branch(index: usize, reader: &mut __avro::codec::Reader<'_>) -> ::core::result::Result<Self, __avro::DecodeError> {
                #body
            }
        }
    };
    let branches = Literal::usize_unsuffixed(branches);
    let decode = null_index.is_none().then(|| {
        decode_impl(
            ident,
            &quote!(<Self as __avro::DecodeBranch>::decode_branch(reader.read_union_index(#branches)?, reader)),
        )
    });
    quote!(#encode #decode_branch #decode)
}

#[cfg(test)]
mod tests {
    use super::{raw_str, TimeKind};
    use quote::ToTokens;

    #[test]
    fn time_kinds_are_named_as_in_the_specification() {
        let names: Vec<&str> = TimeKind::ALL.iter().map(|k| k.name()).collect();
        assert_eq!(
            names,
            [
                "date",
                "time-millis",
                "time-micros",
                "timestamp-millis",
                "timestamp-micros",
                "timestamp-nanos",
                "local-timestamp-millis",
                "local-timestamp-micros",
                "local-timestamp-nanos",
            ]
        );
        for kind in TimeKind::ALL {
            assert_eq!(TimeKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(TimeKind::from_name("uuid"), None);
        // The base types of the specification's "Logical Types" section.
        assert_eq!(TimeKind::Date.base(), "int");
        assert_eq!(TimeKind::TimeMillis.base(), "int");
        assert_eq!(TimeKind::TimeMicros.base(), "long");
        assert_eq!(
            TimeKind::LocalTimestampNanos.helper_suffix(),
            "local_timestamp_nanos"
        );
    }

    #[test]
    fn raw_strings_hold_quotes_and_hashes_unchanged() {
        for text in [r#"{"a":1}"#, "", r###"{"doc":"a "# b "## c"}"###, "#\"#"] {
            let literal: syn::LitStr = syn::parse2(raw_str(text).into_token_stream()).unwrap();
            assert_eq!(literal.value(), text);
        }
    }
}
