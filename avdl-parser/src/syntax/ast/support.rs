//! What the typed nodes share: casting, names, annotations, doc comments.

use std::borrow::Cow;

use crate::syntax::{SyntaxKind, SyntaxNode, SyntaxToken};

/// A typed view of a node of one kind (or of a few kinds, for the enums).
pub trait AstNode: Sized {
    /// Whether a node of `kind` can be viewed as this type.
    fn can_cast(kind: SyntaxKind) -> bool;
    /// The typed view of `node`, if it has a kind this type views.
    fn cast(node: SyntaxNode) -> Option<Self>;
    /// The node viewed.
    fn syntax(&self) -> &SyntaxNode;
}

/// Declares typed views of single node kinds, each named as its kind.
macro_rules! ast_nodes {
    ($($(#[$doc:meta])* $name:ident,)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct $name(SyntaxNode);

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                kind == SyntaxKind::$name
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                Self::can_cast(node.kind()).then(|| $name(node))
            }
            fn syntax(&self) -> &SyntaxNode {
                &self.0
            }
        }
    )*};
}
pub(super) use ast_nodes;

/// The first child of `node` of type `N`.
pub(super) fn child<N: AstNode>(node: &SyntaxNode) -> Option<N> {
    node.children().find_map(N::cast)
}

/// The children of `node` of type `N`.
pub(super) fn children<N: AstNode>(node: &SyntaxNode) -> impl Iterator<Item = N> {
    node.children().filter_map(N::cast)
}

/// The tokens that are direct children of `node`, trivia left out.
pub(super) fn tokens(node: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
}

/// The first direct token of `node` of `kind`.
pub(super) fn token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    tokens(node).find(|t| t.kind() == kind)
}

/// The name that follows the first direct token of `node` (its keyword, or `@`, or `=`).
pub(super) fn name_after_first(node: &SyntaxNode) -> Option<Name> {
    tokens(node).nth(1).and_then(Name::cast)
}

/// A name as written in the text: a name token, a keyword in a name position, or the word
/// `NaN` or `Infinity` where the grammar reads it as a name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Name(SyntaxToken);

impl Name {
    /// `token` as a name, if it can be one.
    pub fn cast(token: SyntaxToken) -> Option<Name> {
        may_be_name(token.kind(), token.text()).then_some(Name(token))
    }

    /// The name as the compiler reads it: backticks removed (`` a.`enum` `` is `a.enum`).
    pub fn text(&self) -> String {
        name_text(self.0.text()).into_owned()
    }

    /// The token, with its position and the text as written.
    pub fn token(&self) -> &SyntaxToken {
        &self.0
    }
}

/// Whether a token of `kind` written `text` may stand for a name: a name token, a keyword,
/// or the word `NaN` or `Infinity`, which lex as numbers.
pub(in crate::syntax) fn may_be_name(kind: SyntaxKind, text: &str) -> bool {
    kind.is_name() || (kind == SyntaxKind::Float && matches!(text, "NaN" | "Infinity"))
}

/// A name as the compiler reads what is written: backticks removed.
pub(in crate::syntax) fn name_text(written: &str) -> Cow<'_, str> {
    match written.contains('`') {
        true => Cow::Owned(written.replace('`', "")),
        false => Cow::Borrowed(written),
    }
}

/// A `/** … */` comment: the documentation of the declaration after it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DocComment(SyntaxToken);

impl DocComment {
    /// The `doc` string the compiler makes of it (trimmed, star column removed).
    pub fn text(&self) -> String {
        let raw = self.0.text();
        let inner = raw.strip_prefix("/**").unwrap_or(raw);
        crate::doc::doc_text(inner.strip_suffix("*/").unwrap_or(inner))
    }

    /// The comment token.
    pub fn token(&self) -> &SyntaxToken {
        &self.0
    }
}

/// Nodes that may be documented and commented: declarations, fields, messages, symbols.
pub trait Documented: AstNode {
    /// The doc comment of the node, as the compiler finds it: the last `/** … */` among the
    /// comments and blanks right before its first token.
    fn doc(&self) -> Option<DocComment> {
        let first = self
            .syntax()
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| !t.kind().is_trivia())?;
        std::iter::successors(first.prev_token(), |t| t.prev_token())
            .take_while(|t| t.kind().is_trivia())
            .find(|t| t.kind() == SyntaxKind::DocComment)
            .map(DocComment)
    }

    /// The comments the parser attached to the node: those on the lines before its first
    /// token (doc comments included), in the order of the text.
    fn leading_comments(&self) -> Vec<SyntaxToken> {
        self.syntax()
            .children_with_tokens()
            .map_while(|e| e.into_token().filter(|t| t.kind().is_trivia()))
            .filter(|t| t.kind().is_comment())
            .collect()
    }
}
