//! Reads one IDL file: runs the grammar and turns the parse tree into the syntax tree,
//! registering named types and messages as they appear (imports at the import statement).
//!
//! This file holds the reader's state and the file level (protocol or schema file, imports);
//! the pieces of a file are read by the submodules, one per kind of piece.

mod declarations;
mod literals;
mod messages;
mod types;

use std::collections::HashSet;
use std::sync::Arc;

use pest::iterators::Pair;

use crate::annotations::{AnnotationError, Place, Split};
use crate::ast::{ProtocolHeader, TypeExpr};
use crate::error::{Error, ErrorKind};
use crate::grammar::{self, FilePieces, Rule};
use crate::lexical::{self, Scan};
use crate::loader::{ImportKind, Loader};
use crate::source::Span;
use crate::{doc, full_name, literal, names, syntax_error};

/// What a file amounts to once read: a protocol header, or a schema file's main schema.
#[derive(Debug, Default)]
pub(crate) struct FileOutcome {
    pub protocol: Option<ProtocolHeader>,
    pub main_schema: Option<TypeExpr>,
}

/// A type as written, before `T?` is turned into a union (which depends on the default).
#[derive(Clone)]
struct Written {
    ty: TypeExpr,
    optional: bool,
    span: Span,
}

/// Reader state for one file.
pub(crate) struct FileReader<'l, 'o, 'g> {
    loader: &'l mut Loader<'o>,
    file: u32,
    text: Arc<str>,
    /// The text the grammar reads; every pair's text lies in it, which gives its offset.
    grammar_text: &'g str,
    scan: Scan,
    /// Whether messages of this file (and of protocols it imports) join the result.
    keep_messages: bool,
}

type Result<T> = std::result::Result<T, Error>;

/// A declaration of the file, or the syntax error of the whole file.
type ParsedPiece<'i> = std::result::Result<Pair<'i, Rule>, pest::error::Error<Rule>>;

impl<'l, 'o, 'g> FileReader<'l, 'o, 'g> {
    /// Parses file `file` of the loader's sources.
    pub fn read(loader: &'l mut Loader<'o>, file: u32, keep_messages: bool) -> Result<FileOutcome> {
        let text = loader.sources.get(file).text.clone();
        let (scan, grammar_text) =
            lexical::scan(&text).map_err(|e| e.into_error(&loader.sources, file))?;
        let mut reader = FileReader {
            loader,
            file,
            text: text.clone(),
            grammar_text: &grammar_text,
            scan,
            keep_messages,
        };
        match grammar::file_pieces(&grammar_text) {
            FilePieces::Protocol(head, pieces) => reader.protocol(head, pieces),
            FilePieces::Schema(pieces) => reader.schema_file(pieces),
        }
    }

    fn syntax_error(&self, error: &pest::error::Error<Rule>) -> Error {
        syntax_error::from_pest(error, self.grammar_text, &self.loader.sources, self.file)
    }

    /// Where `pair` is in the file. A file's declarations are parsed on their own, so a
    /// pair's offsets are relative to its piece, which lies in the whole text.
    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let piece = pair.get_input().as_ptr() as usize - self.grammar_text.as_ptr() as usize;
        let span = pair.as_span();
        Span {
            file: self.file,
            start: (piece + span.start()) as u32,
            end: (piece + span.end()) as u32,
        }
    }

    fn error(&self, kind: ErrorKind, span: Span, message: impl Into<String>) -> Error {
        self.loader.sources.error(kind, span, message)
    }

    fn annotation_error(&self, (kind, span, message): AnnotationError) -> Error {
        self.error(kind, span, message)
    }

    /// The doc comment right before the token where `pair` starts.
    fn doc(&self, pair: &Pair<'_, Rule>) -> Option<String> {
        let (from, to) = self.scan.doc_before(self.span(pair).start)?;
        Some(doc::doc_text(&self.text[from as usize..to as usize]))
    }

    // ---- files ---------------------------------------------------------------------------

    /// A protocol: its head (`@…(…) protocol P {`), then its declarations.
    fn protocol<'i>(
        &mut self,
        head: Pair<'i, Rule>,
        items: impl Iterator<Item = ParsedPiece<'i>>,
    ) -> Result<FileOutcome> {
        let doc = self.doc(&head);
        let mut inner = head.into_inner().peekable();
        let annotations = self.annotations_from(&mut inner)?;
        inner.next(); // `protocol`
        let name_pair = inner.next().expect("grammar: protocol name");
        let written = identifier(&name_pair);
        names::check_protocol_name(&written)
            .map_err(|m| self.error(ErrorKind::InvalidName, self.span(&name_pair), m))?;
        let mut split =
            Split::new(annotations, Place::Protocol).map_err(|e| self.annotation_error(e))?;
        let annotated_ns = split.namespace().map_err(|e| self.annotation_error(e))?;
        let enclosing = annotated_ns.flatten();
        let (name, namespace) = full_name::name_in(&written, enclosing.as_deref());
        let (name, namespace) = (name.to_owned(), namespace.map(str::to_owned));
        let header = ProtocolHeader {
            name,
            namespace,
            doc,
            props: split.props,
        };
        for item in items {
            let item = item.map_err(|e| self.syntax_error(&e))?;
            self.protocol_item(item, header.namespace.as_deref())?;
        }
        Ok(FileOutcome {
            protocol: Some(header),
            main_schema: None,
        })
    }

    fn protocol_item(&mut self, item: Pair<'_, Rule>, namespace: Option<&str>) -> Result<()> {
        match item.as_rule() {
            Rule::import => self.import(item, true),
            Rule::message => {
                let (name, message) = self.message(item, namespace)?;
                if self.keep_messages {
                    self.loader.defs.add_message(name, message);
                }
                Ok(())
            }
            _ => self.named_decl(item, namespace),
        }
    }

    fn schema_file<'i>(
        &mut self,
        items: impl Iterator<Item = ParsedPiece<'i>>,
    ) -> Result<FileOutcome> {
        let mut namespace = None;
        let mut outcome = FileOutcome::default();
        for item in items {
            let item = item.map_err(|e| self.syntax_error(&e))?;
            match item.as_rule() {
                Rule::namespace_decl => {
                    let id = item.into_inner().nth(1).expect("grammar: namespace name");
                    let ns = identifier(&id);
                    names::check_namespace(&ns)
                        .map_err(|m| self.error(ErrorKind::InvalidName, self.span(&id), m))?;
                    namespace = Some(ns).filter(|ns| !ns.is_empty());
                }
                Rule::main_schema => {
                    let mut parts = item.into_inner().peekable();
                    parts.next(); // `schema`
                    let written = self.full_type(&mut parts, namespace.as_deref())?;
                    outcome.main_schema = Some(self.finish(written, false));
                }
                Rule::import => self.import(item, false)?,
                _ => self.named_decl(item, namespace.as_deref())?,
            }
        }
        Ok(outcome)
    }

    fn import(&mut self, pair: Pair<'_, Rule>, importer_is_protocol: bool) -> Result<()> {
        let mut inner = pair.into_inner();
        inner.next(); // `import`
        let kind_pair = inner.next().expect("grammar: import kind");
        let kind = match kind_pair.into_inner().next().map(|p| p.as_rule()) {
            Some(Rule::kw_idl) => ImportKind::Idl,
            Some(Rule::kw_protocol) => ImportKind::Protocol,
            _ => ImportKind::Schema,
        };
        let path_pair = inner.next().expect("grammar: import path");
        let span = self.span(&path_pair);
        let path = literal::unescape(path_pair.as_str())
            .map_err(|m| self.error(ErrorKind::Syntax, span, m))?;
        let keep = self.keep_messages && importer_is_protocol;
        self.loader.import(kind, &path, span, keep)
    }
}

/// The index of the first name that repeats an earlier one. Short lists (the usual record,
/// enum or union) are compared pairwise, which is faster than hashing; long ones go through
/// a hash set, which keeps the check linear.
fn first_repeat<'a>(names: impl ExactSizeIterator<Item = &'a str> + Clone) -> Option<usize> {
    if names.len() <= 32 {
        let earlier = names.clone();
        names
            .enumerate()
            .position(|(i, name)| earlier.clone().take(i).any(|e| e == name))
    } else {
        let mut seen = HashSet::with_capacity(names.len());
        names.into_iter().position(|name| !seen.insert(name))
    }
}

/// The text of an identifier with its backticks removed.
fn identifier(pair: &Pair<'_, Rule>) -> String {
    let text = pair.as_str();
    if text.contains('`') {
        text.replace('`', "")
    } else {
        text.to_owned()
    }
}
