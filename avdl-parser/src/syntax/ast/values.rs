//! Annotations and the JSON values of annotations and defaults.

use super::support::{ast_nodes, child, children, name_after_first, token, tokens, AstNode, Name};
use crate::syntax::{SyntaxKind, SyntaxNode, SyntaxToken};

ast_nodes! {
    /// `@name(value)`
    Annotation,
    /// A JSON value: a default, or the value of an annotation.
    JsonValue,
    /// `"key": value` in a JSON object.
    JsonMember,
}

impl Annotation {
    /// The annotation's name (`namespace` in `@namespace("a.b")`).
    pub fn name(&self) -> Option<Name> {
        name_after_first(&self.0)
    }

    /// Its value.
    pub fn value(&self) -> Option<JsonValue> {
        child(&self.0)
    }
}

impl JsonValue {
    /// The literal (string, number, `true`, `false`, `null`), when the value is one.
    pub fn literal(&self) -> Option<SyntaxToken> {
        tokens(&self.0).next()
    }

    /// The members of an object value, in the order written.
    pub fn members(&self) -> impl Iterator<Item = JsonMember> {
        self.0
            .children()
            .filter(|n| n.kind() == SyntaxKind::JsonObject)
            .flat_map(|n| children(&n).collect::<Vec<_>>())
    }

    /// The items of an array value, in the order written.
    pub fn items(&self) -> impl Iterator<Item = JsonValue> {
        self.0
            .children()
            .filter(|n| n.kind() == SyntaxKind::JsonArray)
            .flat_map(|n| children(&n).collect::<Vec<_>>())
    }

    /// Whether the value is an object.
    pub fn is_object(&self) -> bool {
        self.0
            .children()
            .any(|n| n.kind() == SyntaxKind::JsonObject)
    }

    /// Whether the value is an array.
    pub fn is_array(&self) -> bool {
        self.0.children().any(|n| n.kind() == SyntaxKind::JsonArray)
    }
}

impl JsonMember {
    /// The key's string literal, as written.
    pub fn key(&self) -> Option<SyntaxToken> {
        token(&self.0, SyntaxKind::String)
    }

    /// The value.
    pub fn value(&self) -> Option<JsonValue> {
        child(&self.0)
    }
}

/// Nodes that carry annotations (`@name(value)`) of their own.
pub trait HasAnnotations: AstNode {
    /// The node's annotations, in the order written.
    fn annotations(&self) -> impl Iterator<Item = Annotation> {
        children(self.syntax())
    }
}
