//! The lexer's tokens of a file as the printer walks them: the significant tokens in order,
//! each with the trivia (blanks, line breaks, comments) before it.

use crate::syntax::{lex, SyntaxKind, Token};

/// The tokens of one text and the printer's place among its significant tokens.
pub(super) struct Tokens<'a> {
    pub text: &'a str,
    all: Vec<Token>,
    /// Indexes into `all` of the tokens that are not trivia.
    significant: Vec<usize>,
    /// How many significant tokens have been printed.
    pub pos: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Tokens<'a> {
        let all = lex(text);
        let significant = (0..all.len())
            .filter(|&i| !all[i].kind.is_trivia())
            .collect();
        Tokens {
            text,
            all,
            significant,
            pos: 0,
        }
    }

    /// The kind of the significant token `ahead` places after the next one (`0`: the next);
    /// `None` past the end.
    pub fn kind_at(&self, ahead: usize) -> Option<SyntaxKind> {
        let i = *self.significant.get(self.pos + ahead)?;
        Some(self.all[i].kind)
    }

    /// Whether the next significant token is of `kind`.
    pub fn at(&self, kind: SyntaxKind) -> bool {
        self.kind_at(0) == Some(kind)
    }

    /// The text of the next significant token.
    pub fn next_text(&self) -> &'a str {
        self.significant
            .get(self.pos)
            .map_or("", |&i| self.token_text(&self.all[i]))
    }

    /// Whether tokens are left before the next one of `kind` (the end of a list).
    pub fn before(&self, kind: SyntaxKind) -> bool {
        !self.done() && !self.at(kind)
    }

    /// Whether every significant token has been printed.
    pub fn done(&self) -> bool {
        self.pos >= self.significant.len()
    }

    /// The indexes of the trivia before the next significant token (after the last one, once
    /// all are printed), for [`Tokens::token`].
    pub fn gap(&self) -> std::ops::Range<usize> {
        let start = match self.pos {
            0 => 0,
            n => self.significant[n - 1] + 1,
        };
        let end = self
            .significant
            .get(self.pos)
            .copied()
            .unwrap_or(self.all.len());
        start..end
    }

    /// The token at index `i` of the whole list.
    pub fn token(&self, i: usize) -> Token {
        self.all[i]
    }

    /// The text of a token.
    pub fn token_text(&self, token: &Token) -> &'a str {
        &self.text[usize::from(token.range.start())..usize::from(token.range.end())]
    }

    /// The text from a Ctrl-Z to the end, which the compiler ignores, if there is one.
    pub fn eof_tail(&self) -> Option<&'a str> {
        let last = self.all.last()?;
        (last.kind == SyntaxKind::EofTail).then(|| self.token_text(last))
    }

    /// How many places ahead the bracket closing the one `open` places ahead is.
    pub fn closing(&self, open: usize) -> usize {
        let mut depth = 0usize;
        let mut ahead = open;
        while let Some(kind) = self.kind_at(ahead) {
            match kind {
                SyntaxKind::LBrace
                | SyntaxKind::LParen
                | SyntaxKind::LBracket
                | SyntaxKind::LAngle => depth += 1,
                SyntaxKind::RBrace
                | SyntaxKind::RParen
                | SyntaxKind::RBracket
                | SyntaxKind::RAngle => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return ahead;
                    }
                }
                _ => {}
            }
            ahead += 1;
        }
        ahead
    }

    /// Whether a comment lies anywhere between the next significant token and the one
    /// `last` places ahead (a list laid out on one line unless it holds a comment).
    pub fn comment_within(&self, last: usize) -> bool {
        let from = self
            .significant
            .get(self.pos)
            .copied()
            .unwrap_or(self.all.len());
        let to = self
            .significant
            .get(self.pos + last)
            .copied()
            .unwrap_or(self.all.len());
        self.all[from..to].iter().any(|t| t.kind.is_comment())
    }

    /// How many places ahead the first token after the annotations starting `ahead` places
    /// ahead is.
    pub fn after_annotations(&self, mut ahead: usize) -> usize {
        while self.kind_at(ahead) == Some(SyntaxKind::At) {
            ahead = self.closing(ahead + 2) + 1;
        }
        ahead
    }
}
