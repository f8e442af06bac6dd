//! The text being written: lines, their indent, and where on its line the text ends.

use crate::idl_writer::Indent;

/// The formatted text so far.
pub(super) struct Out {
    pub text: String,
    indent: Indent,
    /// Nesting depth of the line being written (what a continuation line adds one to).
    pub line_depth: usize,
}

impl Out {
    pub fn new(indent: Indent, capacity: usize) -> Out {
        Out {
            text: String::with_capacity(capacity),
            indent,
            line_depth: 0,
        }
    }

    /// Whether nothing is written on the current line yet.
    pub fn at_line_start(&self) -> bool {
        self.text.is_empty() || self.text.ends_with('\n')
    }

    /// Ends the current line unless it is ended already, dropping spaces at its end, and
    /// leaves a blank line after it when `blank`; at the very start of the file nothing is
    /// written.
    pub fn newline(&mut self, blank: bool) {
        if self.text.is_empty() {
            return;
        }
        if !self.text.ends_with('\n') {
            let kept = self.text.trim_end_matches(' ').len();
            self.text.truncate(kept);
            self.text.push('\n');
        }
        if blank && !self.text.ends_with("\n\n") {
            self.text.push('\n');
        }
    }

    /// Starts a line `depth` levels deep.
    pub fn indent(&mut self, depth: usize) {
        self.line_depth = depth;
        self.continue_line(depth);
    }

    /// Starts a line `depth` levels deep that continues the line before it, whose depth stays
    /// the one later continuations are measured from.
    pub fn continue_line(&mut self, depth: usize) {
        for _ in 0..self.indent.width * depth {
            self.text.push(' ');
        }
    }

    /// The column (in characters) where the next character goes.
    pub fn column(&self) -> usize {
        let line = self.text.rfind('\n').map_or(0, |i| i + 1);
        self.text[line..].chars().count()
    }

    pub fn push(&mut self, s: &str) {
        self.text.push_str(s);
    }
}
