//! The layout of a file's items, as Java's IDL writer lays them out: a protocol's head and
//! body, a schema file's `namespace` and `schema` lines, imports, named type declarations with
//! their fields or symbols, and messages.

use crate::syntax::SyntaxKind::{self, *};

use super::gap::{line, Blank, Break};
use super::Printer;

/// What a protocol or schema file item is, told from its first tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    Namespace,
    Schema,
    Import,
    /// A named type declaration: `record`, `error`, `enum` or `fixed`.
    Declaration,
    Message,
}

impl Item {
    /// Whether the layout sets this item apart by blank lines, as Java's writer does
    /// declarations and a schema file's head.
    fn stands_apart(self) -> bool {
        matches!(self, Item::Namespace | Item::Schema | Item::Declaration)
    }
}

impl Printer<'_> {
    /// The whole file.
    pub(super) fn file(&mut self) {
        let head = self.tokens.after_annotations(0);
        if self.tokens.kind_at(head) == Some(ProtocolKw) {
            self.protocol();
        } else {
            self.items(0, false);
        }
        // Comments after the last token, then one final line break.
        self.gap(line(0, Blank::Kept));
        let end = self.out.text.trim_end().len();
        self.out.text.truncate(end);
        if !self.out.text.is_empty() {
            self.out.push("\n");
        }
    }

    /// `@…(…)` lines, `protocol Name {`, the items, `}`.
    fn protocol(&mut self) {
        let blank = self.own_line_annotations(0, Blank::Kept);
        self.emit(line(0, blank));
        self.emit(Break::Space);
        self.emit(Break::Space);
        self.items(1, true);
        self.emit(Break::Close { depth: 0 });
    }

    /// The items of a protocol's body (up to its `}`) or of a schema file, `depth` deep.
    fn items(&mut self, depth: usize, in_protocol: bool) {
        let mut previous: Option<Item> = None;
        while !self.tokens.done() && (!in_protocol || !self.tokens.at(RBrace)) {
            let item = self.item_kind(in_protocol);
            let blank = match previous {
                None if in_protocol => Blank::Never,
                None => Blank::Kept,
                Some(p) if p.stands_apart() || item.stands_apart() => Blank::Always,
                Some(_) => Blank::Kept,
            };
            let brk = line(depth, blank);
            match item {
                Item::Namespace | Item::Import => self.until_semicolon(brk),
                Item::Schema => {
                    self.emit(brk);
                    self.full_type(Break::Space);
                    self.emit(Break::Glue);
                }
                Item::Declaration => self.declaration(depth, blank),
                Item::Message => self.message(depth, blank),
            }
            previous = Some(item);
        }
    }

    /// What the next item is. A keyword can also be a message's result type (`error e();`),
    /// so a declaration is recognized by its whole start.
    fn item_kind(&self, in_protocol: bool) -> Item {
        let at = self.tokens.after_annotations(0);
        let kind = |ahead: usize| self.tokens.kind_at(at + ahead);
        let is = |ahead: usize, wanted: SyntaxKind| kind(ahead) == Some(wanted);
        match kind(0) {
            Some(NamespaceKw) if !in_protocol => Item::Namespace,
            Some(SchemaKw) if !in_protocol => Item::Schema,
            Some(ImportKw) if is(2, String) => Item::Import,
            Some(RecordKw | ErrorKw | EnumKw) if is(2, LBrace) => Item::Declaration,
            Some(FixedKw) if is(2, LParen) && is(3, Int) => Item::Declaration,
            _ if in_protocol => Item::Message,
            _ => Item::Declaration,
        }
    }

    /// The tokens of a one-line item up to its `;`, one space apart.
    fn until_semicolon(&mut self, brk: Break) {
        self.emit(brk);
        while self.tokens.before(Semicolon) {
            self.emit(Break::Space);
        }
        self.emit(Break::Glue);
    }

    /// Annotations each on a line of its own, `depth` deep, the first after a blank line as
    /// `blank` says.
    fn own_line_annotations(&mut self, depth: usize, blank: Blank) -> Blank {
        let mut blank = blank;
        while self.tokens.at(At) {
            self.annotation(line(depth, blank));
            blank = Blank::Never;
        }
        blank
    }

    /// A named type declaration, its annotations on lines of their own.
    fn declaration(&mut self, depth: usize, blank: Blank) {
        let blank = self.own_line_annotations(depth, blank);
        let keyword = self.tokens.kind_at(0);
        self.emit(line(depth, blank));
        self.emit(Break::Space);
        match keyword {
            Some(EnumKw) => self.enum_body(depth),
            Some(FixedKw) => {
                for _ in 0..4 {
                    self.emit(Break::Glue);
                }
            }
            _ => self.record_body(depth),
        }
    }

    /// `{`, the fields each on a line of its own, `}`.
    fn record_body(&mut self, depth: usize) {
        self.emit(Break::Space);
        let mut blank = Blank::Never;
        while self.tokens.before(RBrace) {
            self.field(line(depth + 1, blank));
            blank = Blank::Kept;
        }
        self.emit(Break::Close { depth });
    }

    /// A field: its type, its variables (`a = 1, b`) and `;`.
    fn field(&mut self, brk: Break) {
        self.full_type(brk);
        self.variable(Break::Space);
        while self.tokens.at(Comma) {
            self.emit(Break::Glue);
            self.variable(Break::Space);
        }
        self.emit(Break::Glue);
    }

    /// `{`, the symbols on one line (each on its own when a comment is among them), `}`, and
    /// the default (`= S;`).
    fn enum_body(&mut self, depth: usize) {
        let close = self.tokens.closing(0);
        let one_per_line = self.tokens.comment_within(close);
        self.emit(Break::Space);
        let mut first = true;
        while self.tokens.before(RBrace) {
            let brk = match (first, one_per_line) {
                (true, _) => line(depth + 1, Blank::Never),
                (false, true) => line(depth + 1, Blank::Kept),
                (false, false) => Break::Space,
            };
            self.annotated_name(brk);
            if self.tokens.at(Comma) {
                self.emit(Break::Glue);
            }
            first = false;
        }
        self.emit(Break::Close { depth });
        if self.tokens.at(Eq) {
            self.emit(Break::Space);
            self.emit(Break::Space);
            self.emit(Break::Glue);
        }
    }

    /// A message: its annotations on lines of their own, result type, name, parameters (on
    /// one line, or each on its own when a comment is among them, as Java's writer does for
    /// documented parameters), then `oneway` or `throws …`, and `;`.
    fn message(&mut self, depth: usize, blank: Blank) {
        let blank = self.own_line_annotations(depth, blank);
        if self.tokens.at(VoidKw) {
            self.emit(line(depth, blank));
        } else {
            self.plain_type(line(depth, blank));
        }
        self.emit(Break::Space);
        let close = self.tokens.closing(0);
        let one_per_line = self.tokens.comment_within(close);
        self.emit(Break::Glue);
        let mut first = true;
        while self.tokens.before(RParen) {
            let brk = match (first, one_per_line) {
                (true, true) => line(depth + 1, Blank::Never),
                (false, true) => line(depth + 1, Blank::Kept),
                (true, false) => Break::Glue,
                (false, false) => Break::Space,
            };
            self.full_type(brk);
            self.variable(Break::Space);
            if self.tokens.at(Comma) {
                self.emit(Break::Glue);
            }
            first = false;
        }
        match one_per_line {
            true => self.emit(Break::Close { depth }),
            false => self.emit(Break::Glue),
        }
        while self.tokens.before(Semicolon) {
            let glued = self.tokens.at(Comma);
            self.emit(if glued { Break::Glue } else { Break::Space });
        }
        self.emit(Break::Glue);
    }
}
