//! What goes between two tokens: the break the layout asks for, and the comments and blank
//! lines the author wrote there.
//!
//! Comments keep their place in the token stream (a doc comment still precedes the token the
//! compiler gives its doc to) and their relation to the line: one written at the end of a
//! line stays at the end of that line, one written on a line of its own gets a line of its
//! own, indented as the token after it (one level deeper before a closing bracket). A doc
//! comment always gets a line of its own where the layout breaks the line, since it belongs to
//! what follows. Where the layout keeps tokens on one line, comments stay between them; a line
//! comment there ends the line, and the rest continues one level deeper. A block comment
//! written right before a token, on its line, describes that token: where the layout breaks
//! the line before the token, the comment goes to the new line with it (`/* id */ int b`),
//! not to the end of the line before. A token the layout glues to the one before (`,`, `;`,
//! `>`) is glued to a comment before it too.
//!
//! Blank lines: one where the author wrote one or more, wherever the layout breaks the line,
//! except right after an opening and right before a closing bracket; and always one where the
//! layout asks for it (around declarations), before the comments that open what follows.

use crate::syntax::{SyntaxKind, Token};

use super::comments::comment_text;
use super::Printer;

/// How the layout separates a token from the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Break {
    /// Nothing between them (`array<`, `x;`).
    Glue,
    /// One space.
    Space,
    /// A new line `depth` levels deep, after a blank line as `blank` says.
    Line { depth: usize, blank: Blank },
    /// A new line `depth` levels deep for a closing bracket: no blank line right before it,
    /// and comments before it one level deeper, with what they close.
    Close { depth: usize },
}

/// Whether a line break of the layout comes after a blank line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Blank {
    /// Never (right after an opening bracket, between annotations).
    Never,
    /// Where the author left one or more.
    Kept,
    /// Always (around declarations).
    Always,
}

/// A line break `depth` levels deep.
pub(super) fn line(depth: usize, blank: Blank) -> Break {
    Break::Line { depth, blank }
}

impl Printer<'_> {
    /// Writes the next significant token after the gap before it, separated as `brk` says.
    pub(super) fn emit(&mut self, brk: Break) {
        self.gap(brk);
        let text = self.tokens.next_text();
        self.out.push(text);
        self.tokens.pos += 1;
    }

    /// Writes the trivia before the next significant token (or the end of the file) and the
    /// separation `brk`, leaving the output where that token goes.
    pub(super) fn gap(&mut self, brk: Break) {
        let mut newlines = 0;
        let mut state = GapState {
            first_break: true,
            continuation: self.out.line_depth + 1,
        };
        let gap = self.tokens.gap();
        let leading = match brk {
            Break::Line { .. } => self.leading_comments(gap.clone()),
            _ => gap.end,
        };
        for i in gap.start..leading {
            let token = self.tokens.token(i);
            match token.kind {
                SyntaxKind::Newline => newlines += 1,
                kind if kind.is_comment() => {
                    self.comment(&token, newlines, brk, &mut state);
                    newlines = 0;
                }
                _ => {}
            }
        }
        match brk {
            Break::Glue => {
                if self.out.at_line_start() {
                    self.out.continue_line(state.continuation);
                }
            }
            Break::Space => {
                if self.out.at_line_start() {
                    self.out.continue_line(state.continuation);
                } else {
                    self.out.push(" ");
                }
            }
            Break::Line { depth, blank } => {
                self.out.newline(state.blank(blank, newlines));
                self.out.indent(depth);
                self.write_leading(leading..gap.end);
            }
            Break::Close { depth } => {
                self.out.newline(false);
                self.out.indent(depth);
            }
        }
    }

    /// Where the block comments written on the next token's line, right before it, start in
    /// `gap` (its end when there are none): they go with the token to its line.
    fn leading_comments(&self, gap: std::ops::Range<usize>) -> usize {
        let mut start = gap.end;
        for i in gap.clone().rev() {
            match self.tokens.token(i).kind {
                SyntaxKind::BlockComment => start = i,
                SyntaxKind::Whitespace => {}
                _ => break,
            }
        }
        start
    }

    /// Writes the block comments `leading` of a gap on the line of the token after them.
    fn write_leading(&mut self, leading: std::ops::Range<usize>) {
        for i in leading {
            let token = self.tokens.token(i);
            if token.kind == SyntaxKind::BlockComment {
                self.write_comment(&token);
                self.out.push(" ");
            }
        }
    }

    /// Writes one comment of a gap, `newlines` line breaks after what came before it.
    fn comment(&mut self, token: &Token, newlines: usize, brk: Break, state: &mut GapState) {
        let own_line = newlines > 0 || token.kind == SyntaxKind::DocComment;
        let at_line_start = self.out.at_line_start();
        let own_place = match brk {
            Break::Line { depth, blank } => Some((depth, state.blank(blank, newlines))),
            Break::Close { depth } => Some((depth + 1, newlines >= 2)),
            Break::Glue | Break::Space => None,
        };
        match own_place {
            Some((depth, blank)) if own_line || at_line_start => {
                self.out.newline(blank);
                self.out.indent(depth);
                state.first_break = false;
            }
            None if at_line_start => self.out.continue_line(state.continuation),
            _ => self.out.push(" "),
        }
        self.write_comment(token);
        if token.kind == SyntaxKind::LineComment {
            self.out.newline(false);
        }
    }

    /// Writes a comment's text, moved from its column in the source to the output's.
    fn write_comment(&mut self, token: &Token) {
        let text = self.tokens.token_text(token);
        // Only the later lines of a comment move with it; the columns are measured only then,
        // so that many comments on one long line cost no more than the line.
        let (old_column, new_column) = match text.contains('\n') {
            true => {
                let source = &self.tokens.text[..usize::from(token.range.start())];
                let line_start = source.rfind(['\n', '\r']).map_or(0, |i| i + 1);
                (source[line_start..].chars().count(), self.out.column())
            }
            false => (0, 0),
        };
        let text = comment_text(token.kind, text, old_column, new_column);
        self.out.push(&text);
    }
}

/// Where a gap's printing is.
struct GapState {
    /// Whether no line break has been written in this gap yet (the one the layout's blank
    /// line applies to).
    first_break: bool,
    /// The depth of lines that continue one the layout keeps whole, after a line comment.
    continuation: usize,
}

impl GapState {
    /// Whether a line break, after `newlines` line breaks of the author's, comes after a
    /// blank line: as the layout says for the gap's first break, as the author did after it.
    fn blank(&self, layout: Blank, newlines: usize) -> bool {
        match (self.first_break, layout) {
            (true, Blank::Never) => false,
            (true, Blank::Always) => true,
            _ => newlines >= 2,
        }
    }
}
