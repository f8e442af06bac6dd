//! `textDocument/semanticTokens/full`: every token of an IDL file classified from the syntax
//! tree — keywords, type keywords, declared and referenced names, strings, numbers, comments,
//! doc comments, annotations — so an editor colours what the parser sees, broken files
//! included.

use std::collections::HashMap;

use avdl_parser::syntax::ast::{Annotation, AstNode, EnumSymbol, Message, Name, NamedDecl};
use avdl_parser::syntax::ast::{Protocol, Type, Variable};
use avdl_parser::syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange};
use lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
    SemanticTokensParams, SemanticTokensResult,
};

use super::{document, HandlerResult};
use crate::documents::Document;
use crate::state::State;

/// The token types, in the order of the legend (a token's type is its index here).
const TYPES: [SemanticTokenType; 13] = [
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::TYPE,
    SemanticTokenType::STRUCT,
    SemanticTokenType::ENUM,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::METHOD,
    SemanticTokenType::DECORATOR,
    SemanticTokenType::KEYWORD,
    SemanticTokenType::COMMENT,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
];

/// The token modifiers, in the order of the legend (bit `i` is modifier `i`).
const MODIFIERS: [SemanticTokenModifier; 3] = [
    SemanticTokenModifier::DECLARATION,
    SemanticTokenModifier::DOCUMENTATION,
    SemanticTokenModifier::DEFAULT_LIBRARY,
];

const DECLARATION: u32 = 1;
const DOCUMENTATION: u32 = 1 << 1;
const DEFAULT_LIBRARY: u32 = 1 << 2;

/// The legend announced in the capabilities.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: MODIFIERS.to_vec(),
    }
}

/// The index of `kind` in [`TYPES`].
fn index(kind: SemanticTokenType) -> u32 {
    TYPES.iter().position(|t| *t == kind).unwrap_or_default() as u32
}

/// The tokens of the whole document (none for JSON files).
pub fn full(
    state: &mut State,
    params: SemanticTokensParams,
) -> HandlerResult<Option<SemanticTokensResult>> {
    let document = document(state, &params.text_document.uri)?;
    let data = document
        .tree
        .as_ref()
        .map(|tree| encode(document, &tree.syntax()));
    Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
        result_id: None,
        data: data.unwrap_or_default(),
    })))
}

/// A token's type index and modifier bits.
type Class = (u32, u32);

/// The classes of the name tokens, found through the typed view of the tree.
fn names(root: &SyntaxNode) -> HashMap<TextRange, Class> {
    let mut names = HashMap::new();
    let mut add = |name: Option<Name>, kind: SemanticTokenType, modifiers: u32| {
        if let Some(name) = name {
            names.insert(name.token().text_range(), (index(kind), modifiers));
        }
    };
    for node in root.descendants() {
        if let Some(protocol) = Protocol::cast(node.clone()) {
            add(protocol.name(), SemanticTokenType::NAMESPACE, DECLARATION);
        } else if let Some(declaration) = NamedDecl::cast(node.clone()) {
            let kind = match declaration {
                NamedDecl::Enum(_) => SemanticTokenType::ENUM,
                NamedDecl::Record(_) | NamedDecl::Fixed(_) => SemanticTokenType::STRUCT,
            };
            if let NamedDecl::Enum(e) = &declaration {
                add(e.default(), SemanticTokenType::ENUM_MEMBER, 0);
            }
            add(declaration.name(), kind, DECLARATION);
        } else if let Some(variable) = Variable::cast(node.clone()) {
            let in_param = node.parent().is_some_and(|p| p.kind() == SyntaxKind::Param);
            let kind = if in_param {
                SemanticTokenType::PARAMETER
            } else {
                SemanticTokenType::PROPERTY
            };
            add(variable.name(), kind, DECLARATION);
        } else if let Some(symbol) = EnumSymbol::cast(node.clone()) {
            add(symbol.name(), SemanticTokenType::ENUM_MEMBER, DECLARATION);
        } else if let Some(message) = Message::cast(node.clone()) {
            add(message.name(), SemanticTokenType::METHOD, DECLARATION);
            for error in message.throws() {
                add(Some(error), SemanticTokenType::TYPE, 0);
            }
        } else if let Some(Type::Ref(reference)) = Type::cast(node.clone()) {
            add(reference.name(), SemanticTokenType::TYPE, 0);
        } else if let Some(annotation) = Annotation::cast(node) {
            add(annotation.name(), SemanticTokenType::DECORATOR, 0);
        }
    }
    names
}

/// The class of a token that is not a name of [`names`]; `None` for those left uncoloured
/// (punctuation, spaces, unknown text).
fn class(token: &SyntaxToken) -> Option<Class> {
    let kind = token.kind();
    let in_node = |node: SyntaxKind| token.parent().is_some_and(|p| p.kind() == node);
    let class = match kind {
        SyntaxKind::DocComment => (SemanticTokenType::COMMENT, DOCUMENTATION),
        SyntaxKind::LineComment | SyntaxKind::BlockComment => (SemanticTokenType::COMMENT, 0),
        SyntaxKind::String => (SemanticTokenType::STRING, 0),
        SyntaxKind::Int | SyntaxKind::Float => (SemanticTokenType::NUMBER, 0),
        SyntaxKind::At if in_node(SyntaxKind::Annotation) => (SemanticTokenType::DECORATOR, 0),
        _ if kind.is_type_keyword() && in_node(SyntaxKind::PrimitiveType) => {
            (SemanticTokenType::TYPE, DEFAULT_LIBRARY)
        }
        _ if kind.is_keyword() => (SemanticTokenType::KEYWORD, 0),
        _ => return None,
    };
    Some((index(class.0), class.1))
}

/// The tokens of the tree under `root`, encoded as LSP wants: each relative to the one
/// before, in UTF-16 units, a token over several lines split into one per line.
fn encode(document: &Document, root: &SyntaxNode) -> Vec<SemanticToken> {
    let names = names(root);
    let mut encoder = Encoder::default();
    let tokens = root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token());
    for token in tokens {
        let range = token.text_range();
        let Some((kind, modifiers)) = names.get(&range).copied().or_else(|| class(&token)) else {
            continue;
        };
        let mut start = usize::from(range.start());
        for line in token.text().split_inclusive('\n') {
            let piece = line.trim_end_matches(['\n', '\r']);
            if !piece.is_empty() {
                let at = document.position(start);
                let length = piece.encode_utf16().count() as u32;
                encoder.push(at, length, kind, modifiers);
            }
            start += line.len();
        }
    }
    encoder.data
}

/// Builds the relative encoding.
#[derive(Default)]
struct Encoder {
    data: Vec<SemanticToken>,
    line: u32,
    character: u32,
}

impl Encoder {
    fn push(&mut self, at: lsp_types::Position, length: u32, kind: u32, modifiers: u32) {
        let delta_line = at.line - self.line;
        let delta_start = if delta_line == 0 {
            at.character - self.character
        } else {
            at.character
        };
        self.data.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: kind,
            token_modifiers_bitset: modifiers,
        });
        (self.line, self.character) = (at.line, at.character);
    }
}
