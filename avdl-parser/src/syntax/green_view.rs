//! The syntax tree read through its green nodes, each with the byte where it starts: a
//! cheaper view than [`ast`](super::ast) for a tool that reads every node of a file once (the
//! linter placing its findings).
//!
//! The typed `ast` view walks rowan's red nodes: every node or token it looks at is a
//! heap-allocated cursor, and each accessor scans the node's children again. This view walks
//! the immutable green tree, where a child is a borrowed reference and its offset a running
//! sum of lengths. The node shapes it reads are the ones the `ast` accessors of the same names
//! read (`syntax/ast`), and its tests hold the two to the same ranges and names.
//!
//! ```
//! use avdl_parser::syntax::{self, green_view::{Name, Node}, SyntaxKind};
//!
//! let text = "protocol P { record `Order` { long id; } }";
//! let parse = syntax::parse(text);
//! let body = Node::root(parse.green())
//!     .child(SyntaxKind::Protocol)
//!     .and_then(|protocol| protocol.child(SyntaxKind::ProtocolBody))
//!     .unwrap();
//! let record = body.child(SyntaxKind::Record).unwrap();
//! let name = Name::after_first(text, record).unwrap();
//! assert_eq!((name.text.as_ref(), name.range), ("Order", 20..27));
//! ```

use std::borrow::Cow;
use std::ops::Range;

use rowan::{GreenNodeData, Language, NodeOrToken};

use super::ast::support::{may_be_name, name_text};
use super::ast::{AstNode, Type};
use super::{AvdlLanguage, SyntaxKind};

/// A node of the green tree and where it starts in the text.
#[derive(Clone, Copy, Debug)]
pub struct Node<'g> {
    green: &'g GreenNodeData,
    start: usize,
}

/// A token among a node's children: its kind and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// What the token is.
    pub kind: SyntaxKind,
    /// Its bytes in the text.
    pub range: Range<usize>,
}

/// A child of a node.
enum Element<'g> {
    Node(Node<'g>),
    Token(Leaf),
}

impl<'g> Node<'g> {
    /// The root of a tree, which starts at byte 0.
    pub fn root(green: &'g GreenNodeData) -> Node<'g> {
        Node { green, start: 0 }
    }

    /// What the node is.
    pub fn kind(self) -> SyntaxKind {
        AvdlLanguage::kind_from_raw(self.green.kind())
    }

    /// The node's bytes, the trivia the parser attached before it included.
    pub fn range(self) -> Range<usize> {
        self.start..self.start + usize::from(self.green.text_len())
    }

    /// The node's children, nodes and tokens, in order.
    fn elements(self) -> impl Iterator<Item = Element<'g>> {
        let mut at = self.start;
        self.green.children().map(move |child| {
            let start = at;
            at += usize::from(child.text_len());
            match child {
                NodeOrToken::Node(green) => Element::Node(Node { green, start }),
                NodeOrToken::Token(token) => Element::Token(Leaf {
                    kind: AvdlLanguage::kind_from_raw(token.kind()),
                    range: start..at,
                }),
            }
        })
    }

    /// The child nodes.
    pub fn children(self) -> impl Iterator<Item = Node<'g>> {
        self.elements().filter_map(|element| match element {
            Element::Node(node) => Some(node),
            Element::Token(_) => None,
        })
    }

    /// The child nodes of `kind`.
    pub fn children_of(self, kind: SyntaxKind) -> impl Iterator<Item = Node<'g>> {
        self.children().filter(move |node| node.kind() == kind)
    }

    /// The first child node of `kind`.
    pub fn child(self, kind: SyntaxKind) -> Option<Node<'g>> {
        self.children_of(kind).next()
    }

    /// The first child node that is a type (`ast::Type`).
    pub fn first_type(self) -> Option<Node<'g>> {
        self.children().find(|node| Type::can_cast(node.kind()))
    }

    /// The child nodes that are types.
    pub fn types(self) -> impl Iterator<Item = Node<'g>> {
        self.children().filter(|node| Type::can_cast(node.kind()))
    }

    /// The node's own tokens that are not trivia.
    pub fn tokens(self) -> impl Iterator<Item = Leaf> + 'g {
        self.elements().filter_map(|element| match element {
            Element::Token(token) if !token.kind.is_trivia() => Some(token),
            _ => None,
        })
    }

    /// The bytes of the node from its first token that is not trivia (as
    /// `avdl_parser::syntax::code_range` gives them).
    pub fn code_range(self) -> Range<usize> {
        let range = self.range();
        match self.code_start() {
            Some(start) => start..range.end,
            None => range,
        }
    }

    /// Where the first token inside the node that is not trivia starts.
    fn code_start(self) -> Option<usize> {
        self.elements().find_map(|element| match element {
            Element::Token(token) => (!token.kind.is_trivia()).then_some(token.range.start),
            Element::Node(node) => node.code_start(),
        })
    }
}

/// A name as `ast::Name` reads one: its bytes and its text without backticks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name<'t> {
    /// The name's bytes, backticks included.
    pub range: Range<usize>,
    /// The name as it reads, backticks left out.
    pub text: Cow<'t, str>,
}

impl<'t> Name<'t> {
    /// `token` of `text` as a name, if it may stand for one (any name or keyword, and the
    /// words `NaN` and `Infinity`, which lex as numbers).
    pub fn of(text: &'t str, token: Leaf) -> Option<Name<'t>> {
        let written = &text[token.range.clone()];
        may_be_name(token.kind, written).then(|| Name {
            range: token.range,
            text: name_text(written),
        })
    }

    /// The first token of `node` as a name (a field variable's, a symbol's, a message's,
    /// a type reference's).
    pub fn first(text: &'t str, node: Node<'_>) -> Option<Name<'t>> {
        Name::of(text, node.tokens().next()?)
    }

    /// The second token of `node` as a name (a declaration's, after its keyword).
    pub fn after_first(text: &'t str, node: Node<'_>) -> Option<Name<'t>> {
        Name::of(text, node.tokens().nth(1)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{self, SyntaxNode};

    /// Every green node paired with the red node at the same place, in preorder.
    fn pairs<'g>(green: Node<'g>, red: SyntaxNode, out: &mut Vec<(Node<'g>, SyntaxNode)>) {
        out.push((green, red.clone()));
        for (g, r) in green.children().zip(red.children()) {
            pairs(g, r, out);
        }
    }

    #[test]
    fn ranges_and_names_agree_with_the_typed_tree() {
        let text = "// c\n@namespace(\"a\")\nprotocol P {\n  /** d */ record `R` {\n    \
                    union { null, array<X> } x = null; // t\n  }\n  enum E { A, `B` }\n  \
                    void m(int i) throws Y;\n}\n";
        let parse = syntax::parse(text);
        let mut all = Vec::new();
        pairs(Node::root(parse.green()), parse.syntax(), &mut all);
        assert!(all.len() > 20);
        for (green, red) in all {
            let whole = red.text_range();
            let code = syntax::code_range(&red);
            assert_eq!(green.kind(), red.kind());
            assert_eq!(
                green.range(),
                usize::from(whole.start())..usize::from(whole.end())
            );
            assert_eq!(
                green.code_range(),
                usize::from(code.start())..usize::from(code.end())
            );
        }
        let root = Node::root(parse.green());
        let body = root
            .child(SyntaxKind::Protocol)
            .unwrap()
            .child(SyntaxKind::ProtocolBody);
        let names: Vec<_> = body
            .unwrap()
            .children()
            .filter_map(|node| Name::after_first(text, node).map(|name| name.text))
            .collect();
        assert_eq!(names, ["R", "E"]);
    }
}
