//! A comment's text at its new place: a line comment without trailing blanks, a block
//! comment's later lines moved with its first, and a doc comment of one line as Java's IDL
//! writer writes docs (`/** text */`). A doc comment is only ever rewritten when the compiler
//! reads the same doc from the new text, so formatting never changes a schema's `doc`.

use std::borrow::Cow;

use crate::doc::doc_text;
use crate::idl_writer::layout::doc_comment;
use crate::syntax::SyntaxKind;

/// The text of a comment of `kind` that started at `old_column` and now starts at
/// `new_column`.
pub(super) fn comment_text(
    kind: SyntaxKind,
    text: &str,
    old_column: usize,
    new_column: usize,
) -> Cow<'_, str> {
    match kind {
        SyntaxKind::LineComment => Cow::Borrowed(text.trim_end()),
        SyntaxKind::DocComment => doc(text, old_column, new_column),
        _ => shifted(text, new_column as isize - old_column as isize),
    }
}

/// A doc comment: on one line as Java writes it when its doc is one line, else moved as a
/// block; as written when either would read back as another doc.
fn doc(text: &str, old_column: usize, new_column: usize) -> Cow<'_, str> {
    let Some(doc) = inside(text).map(doc_text) else {
        return Cow::Borrowed(text);
    };
    let reads_back = |comment: &str| inside(comment).map(doc_text).as_deref() == Some(&doc);
    if !doc.contains(['\n', '\r']) {
        let one_line = doc_comment("", &doc);
        let one_line = one_line.trim_end();
        if reads_back(one_line) {
            return Cow::Owned(one_line.to_owned());
        }
    }
    let moved = shifted(text, new_column as isize - old_column as isize);
    if reads_back(&moved) {
        moved
    } else {
        Cow::Borrowed(text)
    }
}

/// What the compiler reads as a doc comment's raw text: between `/**` and `*/`.
fn inside(comment: &str) -> Option<&str> {
    comment.strip_prefix("/**")?.strip_suffix("*/")
}

/// `text` with every line after the first moved right by `by` columns (left when negative,
/// as far as its leading spaces allow); blank lines stay empty.
fn shifted(text: &str, by: isize) -> Cow<'_, str> {
    if by == 0 || !text.contains('\n') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (n, line) in text.split('\n').enumerate() {
        if n == 0 {
            out.push_str(line);
            continue;
        }
        out.push('\n');
        let spaces = line.len() - line.trim_start_matches(' ').len();
        if line.trim().is_empty() {
            out.push_str(line);
        } else if by > 0 {
            out.push_str(&" ".repeat(by.unsigned_abs()));
            out.push_str(line);
        } else {
            out.push_str(&line[spaces.min(by.unsigned_abs())..]);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_docs_take_the_java_layout() {
        let text = "/**\n   * A simple test case.\n   */";
        assert_eq!(
            comment_text(SyntaxKind::DocComment, text, 2, 0),
            "/** A simple test case. */"
        );
        assert_eq!(
            comment_text(SyntaxKind::DocComment, "/**  padded  */", 0, 4),
            "/** padded */"
        );
    }

    #[test]
    fn docs_of_several_lines_move_with_their_first_line() {
        let text = "/**\n   * one\n   * two\n   */";
        assert_eq!(
            comment_text(SyntaxKind::DocComment, text, 2, 4),
            "/**\n     * one\n     * two\n     */"
        );
        assert_eq!(
            comment_text(SyntaxKind::DocComment, text, 2, 0),
            "/**\n * one\n * two\n */"
        );
    }

    #[test]
    fn a_doc_that_would_read_back_differently_stays_as_written() {
        // Indent mode: the lines' common indent is removed; the empty line makes it none,
        // so moving the other lines would add spaces to the doc.
        let text = "/** first\n\n  second */";
        assert_eq!(comment_text(SyntaxKind::DocComment, text, 0, 4), text);
        // A doc starting with a space only reads back from its own star layout.
        let text = "/** *  x */";
        assert_eq!(doc_text(inside(text).unwrap()), " x");
        assert_eq!(comment_text(SyntaxKind::DocComment, text, 0, 0), text);
    }

    #[test]
    fn block_comments_move_as_far_as_their_spaces_allow() {
        let text = "/* a\n  b\nc\n\n */";
        assert_eq!(
            comment_text(SyntaxKind::BlockComment, text, 0, 2),
            "/* a\n    b\n  c\n\n   */"
        );
        assert_eq!(
            comment_text(SyntaxKind::BlockComment, text, 4, 0),
            "/* a\nb\nc\n\n*/"
        );
        assert_eq!(
            comment_text(SyntaxKind::LineComment, "// x  \t", 0, 8),
            "// x"
        );
    }
}
