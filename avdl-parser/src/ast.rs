//! The syntax tree every input is read into — IDL text and imported JSON alike — with source
//! spans for error messages. Names are already resolved to full names here; what is left for
//! later is checking that references exist and that defaults match.

use serde_json::{Map, Value};

use crate::source::Span;

/// Properties (`@name(value)` annotations, or extra JSON keys), in the order written.
pub(crate) type Props = Map<String, Value>;

/// A schema written where a type is expected.
#[derive(Clone, Debug)]
pub(crate) enum TypeExpr {
    /// A primitive type; logical-type keywords carry `logicalType` (and decimal's precision and
    /// scale) as their first properties.
    Primitive {
        name: &'static str,
        props: Props,
    },
    Array {
        items: Box<TypeExpr>,
        props: Props,
    },
    Map {
        values: Box<TypeExpr>,
        props: Props,
    },
    Union {
        branches: Vec<TypeExpr>,
    },
    /// A reference to a named type by full name; `fallback` is the null-namespace name that JSON
    /// schemas may also mean by an unqualified name.
    Named {
        name: String,
        fallback: Option<String>,
        span: Span,
    },
}

/// The body of a named type.
#[derive(Clone, Debug)]
pub(crate) enum NamedKind {
    Record {
        is_error: bool,
        fields: Vec<Field>,
    },
    Enum {
        symbols: Vec<String>,
        default: Option<String>,
    },
    Fixed {
        size: u64,
    },
}

/// A record, error, enum or fixed definition.
#[derive(Clone, Debug)]
pub(crate) struct NamedType {
    pub name: String,
    pub namespace: Option<String>,
    pub doc: Option<String>,
    /// Aliases as written; interpreted relative to `namespace` when written out.
    pub aliases: Option<Vec<String>>,
    pub props: Props,
    pub kind: NamedKind,
    pub span: Span,
}

impl NamedType {
    /// `namespace.name`, or `name` without a namespace.
    pub fn full_name(&self) -> String {
        crate::full_name::join(self.namespace.as_deref(), &self.name).into_owned()
    }
}

/// A record field or a message parameter.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub name: String,
    pub ty: TypeExpr,
    pub doc: Option<String>,
    pub default: Option<Value>,
    /// `"descending"` or `"ignore"`; ascending is never written.
    pub order: Option<&'static str>,
    pub aliases: Option<Vec<String>>,
    pub props: Props,
    pub span: Span,
    /// Where the default value is, for error messages.
    pub default_span: Span,
}

/// A protocol message.
#[derive(Clone, Debug)]
pub(crate) struct Message {
    pub doc: Option<String>,
    pub props: Props,
    pub request: Vec<Field>,
    pub response: TypeExpr,
    /// `None` when there is no `throws` clause.
    pub errors: Option<Vec<TypeExpr>>,
    pub one_way: bool,
}

/// The protocol header of a protocol file.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProtocolHeader {
    pub name: String,
    pub namespace: Option<String>,
    pub doc: Option<String>,
    pub props: Props,
}
