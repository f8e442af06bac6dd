//! The type nodes.

use super::support::{ast_nodes, child, children, token, tokens, AstNode, Name};
use super::Annotation;
use crate::syntax::{SyntaxKind, SyntaxNode, SyntaxToken};

ast_nodes! {
    /// A primitive or logical type keyword (`int`, `date`, …), or a message's `void`.
    PrimitiveType,
    /// A reference to a named type.
    TypeRef,
    /// `array<T>`
    ArrayType,
    /// `map<T>`
    MapType,
    /// `union { T, U }`
    UnionType,
    /// `T?`: `T` or null.
    NullableType,
    /// `decimal(precision, scale)`
    DecimalType,
}

/// Any type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A primitive or logical type keyword, or `void`.
    Primitive(PrimitiveType),
    /// A reference to a named type.
    Ref(TypeRef),
    /// `array<T>`
    Array(ArrayType),
    /// `map<T>`
    Map(MapType),
    /// `union { … }`
    Union(UnionType),
    /// `T?`
    Nullable(NullableType),
    /// `decimal(p, s)`
    Decimal(DecimalType),
}

impl AstNode for Type {
    fn can_cast(kind: SyntaxKind) -> bool {
        use SyntaxKind as K;
        matches!(
            kind,
            K::PrimitiveType
                | K::TypeRef
                | K::ArrayType
                | K::MapType
                | K::UnionType
                | K::NullableType
                | K::DecimalType
        )
    }

    fn cast(node: SyntaxNode) -> Option<Self> {
        Some(match node.kind() {
            SyntaxKind::PrimitiveType => Type::Primitive(PrimitiveType(node)),
            SyntaxKind::TypeRef => Type::Ref(TypeRef(node)),
            SyntaxKind::ArrayType => Type::Array(ArrayType(node)),
            SyntaxKind::MapType => Type::Map(MapType(node)),
            SyntaxKind::UnionType => Type::Union(UnionType(node)),
            SyntaxKind::NullableType => Type::Nullable(NullableType(node)),
            SyntaxKind::DecimalType => Type::Decimal(DecimalType(node)),
            _ => return None,
        })
    }

    fn syntax(&self) -> &SyntaxNode {
        match self {
            Type::Primitive(n) => &n.0,
            Type::Ref(n) => &n.0,
            Type::Array(n) => &n.0,
            Type::Map(n) => &n.0,
            Type::Union(n) => &n.0,
            Type::Nullable(n) => &n.0,
            Type::Decimal(n) => &n.0,
        }
    }
}

impl Type {
    /// The annotations written before the type (for `@a("x") T?`, those of `T`, where the
    /// parser puts them).
    pub fn annotations(&self) -> impl Iterator<Item = Annotation> {
        let node = match self {
            Type::Nullable(n) => n
                .inner()
                .map_or_else(|| n.0.clone(), |t| t.syntax().clone()),
            other => other.syntax().clone(),
        };
        children::<Annotation>(&node)
            .collect::<Vec<_>>()
            .into_iter()
    }
}

impl PrimitiveType {
    /// The keyword (`int`, `uuid`, `void`…).
    pub fn keyword(&self) -> Option<SyntaxToken> {
        tokens(&self.0).next()
    }
}

impl TypeRef {
    /// The referenced name.
    pub fn name(&self) -> Option<Name> {
        tokens(&self.0).next().and_then(Name::cast)
    }
}

impl ArrayType {
    /// The type of the items.
    pub fn items(&self) -> Option<Type> {
        child(&self.0)
    }
}

impl MapType {
    /// The type of the values.
    pub fn values(&self) -> Option<Type> {
        child(&self.0)
    }
}

impl UnionType {
    /// The branches, in the order written.
    pub fn members(&self) -> impl Iterator<Item = Type> {
        children(&self.0)
    }
}

impl NullableType {
    /// The type made nullable.
    pub fn inner(&self) -> Option<Type> {
        child(&self.0)
    }
}

impl DecimalType {
    /// The precision literal.
    pub fn precision(&self) -> Option<SyntaxToken> {
        token(&self.0, SyntaxKind::Int)
    }

    /// The scale literal, when written.
    pub fn scale(&self) -> Option<SyntaxToken> {
        tokens(&self.0)
            .filter(|t| t.kind() == SyntaxKind::Int)
            .nth(1)
    }
}
