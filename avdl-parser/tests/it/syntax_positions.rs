//! Positions of syntax errors in UTF-16 (what a language server sends), on text with
//! non-ASCII characters and `\r\n` line breaks, checked against a count made here from the
//! text itself.

use avdl_parser::syntax::{self, LineIndex, Position};

/// The line and UTF-16 column of `offset`, counted directly: lines end at `\n`.
fn expected_position(text: &str, offset: usize) -> Position {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Position {
        line: before.matches('\n').count() as u32,
        column: before[line_start..].encode_utf16().count() as u32,
    }
}

#[test]
fn error_positions_in_utf16() {
    let text = "/** Prix en € 😀 */\r\nprotocol Café {\r\n  record Crème { string s = \"é😀\"; int 😀; }\r\n  enum É { A, }\r\n}\r\n";
    let parse = syntax::parse(text);
    let index = LineIndex::new(text);
    assert_eq!(parse.errors().len(), 2, "{:?}", parse.errors());
    for error in parse.errors() {
        let offset = usize::from(error.range.start());
        let found = index
            .position_utf16(error.range.start())
            .expect("a position");
        assert_eq!(found, expected_position(text, offset), "{error:?}");
        assert_eq!(index.offset_utf16(found), Some(error.range.start()));
    }
    // The `😀` that is not a name: after `int `, on line 2; `  record Crème { string s =
    // "é😀"; int ` is 39 UTF-16 units (`è` and `é` are one each, `😀` two) and 43 bytes.
    let emoji = parse.errors()[0].range.start();
    let at = |line, column| Some(Position { line, column });
    assert_eq!(index.position_utf16(emoji), at(2, 39));
    assert_eq!(index.position(emoji), at(2, 43));
}
