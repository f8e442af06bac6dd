use super::*;
use SyntaxKind::*;

/// The kinds and texts of the tokens of `text`, after checking they cover it exactly.
fn tokens(text: &str) -> Vec<(SyntaxKind, &str)> {
    let tokens = lex(text);
    let mut end = 0;
    for t in &tokens {
        assert_eq!(
            usize::from(t.range.start()),
            end,
            "gap or overlap in {text:?}"
        );
        end = usize::from(t.range.end());
    }
    assert_eq!(end, text.len());
    tokens.iter().map(|t| (t.kind, &text[t.range])).collect()
}

fn kinds(text: &str) -> Vec<SyntaxKind> {
    tokens(text).into_iter().map(|(k, _)| k).collect()
}

fn errors(text: &str) -> Vec<Option<LexError>> {
    lex(text).into_iter().map(|t| t.error).collect()
}

#[test]
fn trivia_keeps_line_breaks_apart() {
    assert_eq!(
        tokens(" \t\r\n\n\r\u{0C}x"),
        [
            (Whitespace, " \t"),
            (Newline, "\r\n"),
            (Newline, "\n"),
            (Newline, "\r"),
            (Whitespace, "\u{0C}"),
            (Ident, "x"),
        ]
    );
}

#[test]
fn comments_as_the_compiler_reads_them() {
    assert_eq!(
        tokens("// a\r\n/**/ /***/ /** d */ /* b */"),
        [
            (LineComment, "// a"),
            (Newline, "\r\n"),
            (BlockComment, "/**/"),
            (Whitespace, " "),
            (DocComment, "/***/"),
            (Whitespace, " "),
            (DocComment, "/** d */"),
            (Whitespace, " "),
            (BlockComment, "/* b */"),
        ]
    );
    assert_eq!(tokens("/** x"), [(DocComment, "/** x")]);
    assert_eq!(errors("/* x\n y"), [Some(LexError::UnterminatedComment)]);
    assert_eq!(
        tokens("a\u{1A}/* \"b"),
        [(Ident, "a"), (EofTail, "\u{1A}/* \"b")]
    );
}

#[test]
fn names_keywords_and_backticks() {
    assert_eq!(
        tokens("record records record.x a.b-c `enum` a.`b`.c int? NaN Infinity.x"),
        [
            (RecordKw, "record"),
            (Whitespace, " "),
            (Ident, "records"),
            (Whitespace, " "),
            (Ident, "record.x"),
            (Whitespace, " "),
            (Ident, "a.b-c"),
            (Whitespace, " "),
            (QuotedIdent, "`enum`"),
            (Whitespace, " "),
            (QuotedIdent, "a.`b`.c"),
            (Whitespace, " "),
            (IntKw, "int"),
            (Question, "?"),
            (Whitespace, " "),
            (Float, "NaN"),
            (Whitespace, " "),
            (Ident, "Infinity.x"),
        ]
    );
    // A separator with no name part after it is not part of the name.
    assert_eq!(kinds("a. a-1"), [Ident, Error, Whitespace, Ident, Int]);
    assert_eq!(tokens("é_x9"), [(Ident, "é_x9")]);
    assert_eq!(tokens("`1`"), [(Error, "`1`")]);
    assert_eq!(tokens("`ab"), [(Error, "`ab")]);
    assert_eq!(errors("`ab"), [Some(LexError::InvalidQuotedName)]);
}

#[test]
fn a_byte_order_mark_only_at_the_start() {
    assert_eq!(
        tokens("\u{FEFF}a\u{FEFF}"),
        [(Bom, "\u{FEFF}"), (Ident, "a"), (Error, "\u{FEFF}")]
    );
}

#[test]
fn punctuation() {
    assert_eq!(
        kinds("@{}()[]<>;,=:?"),
        [
            At, LBrace, RBrace, LParen, RParen, LBracket, RBracket, LAngle, RAngle, Semicolon,
            Comma, Eq, Colon, Question
        ]
    );
}

#[test]
fn numbers() {
    for int in ["0", "42", "-7", "0x1F", "0X1fL", "10l"] {
        assert_eq!(tokens(int), [(Int, int)], "{int}");
    }
    for float in [
        "1.5",
        "-2e3",
        "1.",
        ".5f",
        "+1.0",
        "1E+9d",
        "NaN",
        "-NaN",
        "+Infinity",
        "0x1p3",
        "0x.8P-1",
        "0x1.p0f",
        "3f",
    ] {
        assert_eq!(tokens(float), [(Float, float)], "{float}");
    }
    for bad in [
        "1x", "12ab", "+1", "0x", "1e", "1.0L", "0x1.8", "1`", "0x1Fz",
    ] {
        assert_eq!(tokens(bad), [(Error, bad)], "{bad}");
        assert_eq!(errors(bad), [Some(LexError::InvalidNumber)], "{bad}");
    }
    assert_eq!(kinds("-x"), [Error, Ident]);
    assert_eq!(kinds("1,2]"), [Int, Comma, Int, RBracket]);
}

#[test]
fn strings() {
    assert_eq!(tokens(r#""a\"b\\" x"#)[0], (String, r#""a\"b\\""#));
    assert_eq!(errors(r#""\u0041\101\7\n\'""#), [None]);
    assert_eq!(errors(r#""\q""#), [Some(LexError::InvalidEscape)]);
    assert_eq!(errors(r#""\u12""#), [Some(LexError::InvalidEscape)]);
    assert_eq!(errors(r#""\uD83D\uDE00""#), [None]);
    assert_eq!(errors(r#""\uD83D x""#), [Some(LexError::InvalidEscape)]);
    assert_eq!(
        errors("\"a\tb\""),
        [Some(LexError::ControlCharacterInString)]
    );
    assert_eq!(errors("\"é😀\""), [None]);
    // An unterminated string stops before the line break.
    assert_eq!(
        tokens("\"ab\\\n}"),
        [(String, "\"ab\\"), (Newline, "\n"), (RBrace, "}")]
    );
    assert_eq!(errors("\"ab"), [Some(LexError::UnterminatedString)]);
}

#[test]
fn unknown_characters_are_error_tokens_one_character_each() {
    assert_eq!(
        tokens("a\u{A0}#😀\u{0B}"),
        [
            (Ident, "a"),
            (Error, "\u{A0}"),
            (Error, "#"),
            (Error, "😀"),
            (Error, "\u{0B}")
        ]
    );
}
