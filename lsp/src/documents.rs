//! The files the editor has open: their text as the editor has it (saved or not), version,
//! line index and, for IDL, syntax tree, kept up to date through `didChange`.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;

use avdl_parser::syntax::{self, LineIndex, Parse};
use avdl_parser::{FileSystem, SourceFiles};
use lsp_types::{Position, Range as LspRange, TextDocumentContentChangeEvent, Uri};

use crate::position;
use crate::workspace::uri_to_path;

/// What a document holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// Avro IDL (`.avdl`).
    Idl,
    /// A JSON schema (`.avsc`) or protocol (`.avpr`).
    Json,
}

impl Language {
    /// The language of the document at `uri`, by its extension, else by the editor's
    /// language id (`json` in it means JSON; IDL otherwise).
    fn of(uri: &Uri, language_id: &str) -> Language {
        let path = uri.as_str().to_ascii_lowercase();
        if path.ends_with(".avdl") {
            Language::Idl
        } else if path.ends_with(".avsc") || path.ends_with(".avpr") || language_id.contains("json")
        {
            Language::Json
        } else {
            Language::Idl
        }
    }
}

/// One open file.
#[derive(Clone, Debug)]
pub struct Document {
    /// Where the editor has it.
    pub uri: Uri,
    /// Its path, for a file on disk (imports are relative to it), canonical when it exists.
    pub path: Option<PathBuf>,
    /// What it holds.
    pub language: Language,
    /// The editor's version number of the text.
    pub version: i32,
    /// The text.
    pub text: String,
    /// Line starts of the text, for positions.
    pub line_index: LineIndex,
    /// The syntax tree of an IDL document (`None` for JSON).
    pub tree: Option<Parse>,
    /// The files its last check read (itself and its imports), by identity.
    pub reads: Vec<PathBuf>,
}

impl Document {
    /// The document at `uri` holding `text`.
    pub fn new(uri: Uri, language_id: &str, version: i32, text: String) -> Document {
        let language = Language::of(&uri, language_id);
        let mut document = Document {
            path: uri_to_path(&uri).map(|path| FileSystem.identity(&path)),
            uri,
            language,
            version,
            line_index: LineIndex::new(""),
            tree: None,
            reads: Vec::new(),
            text,
        };
        document.reindex();
        document
    }

    /// Applies the changes of one `didChange`, in order: each replaces the text (no range)
    /// or the range it names, in the text as the changes before it left it.
    pub fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) {
        for change in changes {
            match change.range {
                Some(range) => {
                    let bytes = self.offsets(range);
                    self.text.replace_range(bytes, &change.text);
                    self.line_index = LineIndex::new(&self.text);
                }
                None => {
                    self.text = change.text;
                    self.line_index = LineIndex::new(&self.text);
                }
            }
        }
        self.version = version;
        self.reindex();
    }

    /// The byte offset of an LSP position.
    pub fn offset(&self, at: Position) -> usize {
        position::offset(&self.line_index, &self.text, at)
    }

    /// The byte range of an LSP range.
    pub fn offsets(&self, range: LspRange) -> Range<usize> {
        position::offsets(&self.line_index, &self.text, range)
    }

    /// The LSP position of a byte offset.
    pub fn position(&self, offset: usize) -> Position {
        position::position(&self.line_index, &self.text, offset)
    }

    /// The LSP range of a byte range.
    pub fn range(&self, span: Range<usize>) -> LspRange {
        position::range(&self.line_index, &self.text, span)
    }

    /// Builds the line index and the tree of the text again.
    fn reindex(&mut self) {
        self.line_index = LineIndex::new(&self.text);
        self.tree = (self.language == Language::Idl).then(|| syntax::parse(&self.text));
    }
}

/// The open documents, by URI.
#[derive(Debug, Default)]
pub struct Documents {
    open: HashMap<Uri, Document>,
}

impl Documents {
    /// Opens (or reopens) a document.
    pub fn open(&mut self, document: Document) {
        self.open.insert(document.uri.clone(), document);
    }

    /// The open document at `uri`.
    pub fn get(&self, uri: &Uri) -> Option<&Document> {
        self.open.get(uri)
    }

    /// The open document at `uri`, to change it.
    pub fn get_mut(&mut self, uri: &Uri) -> Option<&mut Document> {
        self.open.get_mut(uri)
    }

    /// Closes the document at `uri`.
    pub fn close(&mut self, uri: &Uri) -> Option<Document> {
        self.open.remove(uri)
    }

    /// Every open document, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &Document> {
        self.open.values()
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn change(range: Option<LspRange>, text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range,
            range_length: None,
            text: text.to_owned(),
        }
    }

    #[test]
    fn incremental_changes_apply_in_order_in_utf16_columns() {
        let uri = Uri::from_str("file:///w/a.avdl").unwrap();
        let text = "/** é😀 */\nrecord R {}\n";
        let mut document = Document::new(uri, "avro-idl", 1, text.to_owned());
        let r = LspRange::new(Position::new(1, 7), Position::new(1, 8));
        // After "😀" (2 units), insert; then rename R, in the text the first change left.
        let after_smile = LspRange::new(Position::new(0, 7), Position::new(0, 7));
        document.apply(
            2,
            vec![change(Some(after_smile), "!"), change(Some(r), "Order")],
        );
        assert_eq!(document.text, "/** é😀! */\nrecord Order {}\n");
        assert_eq!(document.version, 2);
        let tree = document.tree.as_ref().unwrap();
        assert!(tree.errors().is_empty(), "{:?}", tree.errors());
        document.apply(3, vec![change(None, "protocol {")]);
        assert_eq!(document.text, "protocol {");
        assert!(!document.tree.as_ref().unwrap().errors().is_empty());
    }

    #[test]
    fn the_language_comes_from_the_extension_then_the_language_id() {
        let language = |uri: &str, id: &str| Language::of(&Uri::from_str(uri).unwrap(), id);
        assert_eq!(language("file:///a.avsc", "plaintext"), Language::Json);
        assert_eq!(language("file:///a.AVPR", ""), Language::Json);
        assert_eq!(language("file:///a.avdl", "json"), Language::Idl);
        assert_eq!(language("untitled:1", "json"), Language::Json);
        assert_eq!(language("untitled:1", "avro-idl"), Language::Idl);
    }
}
