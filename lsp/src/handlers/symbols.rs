//! `textDocument/documentSymbol`: the outline of an IDL file (its protocol, named types with
//! their fields and symbols, and messages), read from the syntax tree, so a file with syntax
//! errors still has one.

use avdl_parser::syntax::ast::{AstNode, Field, Message, Name, NamedDecl};
use avdl_parser::syntax::SyntaxNode;
use lsp_types::{DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse, SymbolKind};

use super::{document, HandlerResult};
use crate::documents::Document;
use crate::state::State;

/// The outline of the document (empty for JSON files).
pub fn document_symbols(
    state: &mut State,
    params: DocumentSymbolParams,
) -> HandlerResult<Option<DocumentSymbolResponse>> {
    let document = document(state, &params.text_document.uri)?;
    Ok(Some(DocumentSymbolResponse::Nested(outline(document))))
}

/// The symbols of `document`, nested as in the text.
pub fn outline(document: &Document) -> Vec<DocumentSymbol> {
    let Some(tree) = &document.tree else {
        return Vec::new();
    };
    let file = tree.tree();
    let outline = Outline { document };
    if let Some(protocol) = file.protocol() {
        let mut children = Vec::new();
        if let Some(body) = protocol.body() {
            children.extend(body.declarations().filter_map(|d| outline.declaration(&d)));
            children.extend(body.messages().filter_map(|m| outline.message(&m)));
        }
        let name = protocol.name();
        return outline
            .symbol(
                protocol.syntax(),
                name,
                SymbolKind::MODULE,
                "protocol",
                children,
            )
            .into_iter()
            .collect();
    }
    file.declarations()
        .filter_map(|d| outline.declaration(&d))
        .collect()
}

/// Builds symbols with the ranges of one document.
struct Outline<'d> {
    document: &'d Document,
}

impl Outline<'_> {
    /// A named type and what it declares.
    fn declaration(&self, declaration: &NamedDecl) -> Option<DocumentSymbol> {
        let (kind, detail, children) = match declaration {
            NamedDecl::Record(record) => {
                let fields = record.fields().flat_map(|f| self.fields(&f)).collect();
                let detail = if record.is_error() { "error" } else { "record" };
                (SymbolKind::STRUCT, detail.to_owned(), fields)
            }
            NamedDecl::Enum(e) => {
                let symbols = e.symbols().filter_map(|s| {
                    self.symbol(
                        s.syntax(),
                        s.name(),
                        SymbolKind::ENUM_MEMBER,
                        "",
                        Vec::new(),
                    )
                });
                (SymbolKind::ENUM, "enum".to_owned(), symbols.collect())
            }
            NamedDecl::Fixed(fixed) => {
                let size = fixed
                    .size()
                    .map(|s| s.text().to_owned())
                    .unwrap_or_default();
                (SymbolKind::STRUCT, format!("fixed({size})"), Vec::new())
            }
        };
        self.symbol(
            declaration.syntax(),
            declaration.name(),
            kind,
            &detail,
            children,
        )
    }

    /// One symbol per name a field declares, its type as detail.
    fn fields(&self, field: &Field) -> Vec<DocumentSymbol> {
        let ty = field.ty().map(|t| text_of(t.syntax())).unwrap_or_default();
        field
            .variables()
            .filter_map(|v| self.symbol(v.syntax(), v.name(), SymbolKind::FIELD, &ty, Vec::new()))
            .collect()
    }

    /// A message, its result type as detail.
    fn message(&self, message: &Message) -> Option<DocumentSymbol> {
        let result = message
            .result()
            .map(|t| text_of(t.syntax()))
            .unwrap_or_default();
        let kind = SymbolKind::METHOD;
        self.symbol(message.syntax(), message.name(), kind, &result, Vec::new())
    }

    /// The symbol of `node` named `name`; `None` for a node without a name yet.
    fn symbol(
        &self,
        node: &SyntaxNode,
        name: Option<Name>,
        kind: SymbolKind,
        detail: &str,
        children: Vec<DocumentSymbol>,
    ) -> Option<DocumentSymbol> {
        let name = name?;
        let selection = name.token().text_range();
        let range = node.text_range().cover(selection);
        #[allow(deprecated)] // `deprecated` must be written; `tags` replaces it
        Some(DocumentSymbol {
            name: name.text(),
            detail: (!detail.is_empty()).then(|| detail.to_owned()),
            kind,
            tags: None,
            deprecated: None,
            range: self.document.range(range.into()),
            selection_range: self.document.range(selection.into()),
            children: (!children.is_empty()).then_some(children),
        })
    }
}

/// The text of a node without the comments and spaces around it, on one line.
fn text_of(node: &SyntaxNode) -> String {
    node.text()
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}
