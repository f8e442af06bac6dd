//! The kinds of tokens and nodes of the syntax tree, one enum for both as rowan wants.

/// Declares [`SyntaxKind`] and the list of all its values in order, from one list, so that a
/// raw rowan kind maps back to a kind without `unsafe` and without a second list to keep in
/// step.
macro_rules! syntax_kinds {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// What a token or a node of the syntax tree is.
        ///
        /// Tokens come first (trivia, names, punctuation, literals, keywords), then nodes. [`Error`]
        /// is both: a token for bytes the lexer cannot place, a node for what the parser skipped.
        ///
        /// [`Error`]: SyntaxKind::Error
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u16)]
        #[non_exhaustive]
        pub enum SyntaxKind {
            $($(#[$doc])* $name,)*
        }

        /// Every kind, in declaration order (so `ALL[k as usize] == k`).
        const ALL: &[SyntaxKind] = &[$(SyntaxKind::$name,)*];
    };
}

syntax_kinds! {
    // ---- trivia -------------------------------------------------------------------------------
    /// Spaces, tabs and form feeds (never a line break).
    Whitespace,
    /// One line break: `\n`, `\r\n` or a lone `\r`; two in a row make a blank line.
    Newline,
    /// `// …` up to (not including) the line break.
    LineComment,
    /// `/* … */`, including the empty `/**/`.
    BlockComment,
    /// `/** … */`: the documentation of the declaration that follows.
    DocComment,
    /// A Ctrl-Z (U+001A) and everything after it, which the compiler ignores.
    EofTail,
    /// A byte order mark (U+FEFF) at the very start of the text, which the compiler skips.
    Bom,

    // ---- names --------------------------------------------------------------------------------
    /// A name, dotted or dashed as the grammar allows (`a.b.C`, `my-name`).
    Ident,
    /// A name with at least one backticked part (`` `record` ``, `` a.`enum` ``).
    QuotedIdent,

    // ---- punctuation --------------------------------------------------------------------------
    /// `@`
    At,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `<`
    LAngle,
    /// `>`
    RAngle,
    /// `;`
    Semicolon,
    /// `,`
    Comma,
    /// `=`
    Eq,
    /// `:`
    Colon,
    /// `?`
    Question,

    // ---- literals -----------------------------------------------------------------------------
    /// A double-quoted string literal.
    String,
    /// An integer literal (`42`, `-7`, `0x1F`, `10L`).
    Int,
    /// A floating-point literal (`1.5`, `-2e3`, `.5f`, `NaN`, `-Infinity`, `0x1p3`).
    Float,

    // ---- keywords -----------------------------------------------------------------------------
    /// `protocol`
    ProtocolKw,
    /// `namespace`
    NamespaceKw,
    /// `schema`
    SchemaKw,
    /// `import`
    ImportKw,
    /// `idl`
    IdlKw,
    /// `record`
    RecordKw,
    /// `error`
    ErrorKw,
    /// `enum`
    EnumKw,
    /// `fixed`
    FixedKw,
    /// `array`
    ArrayKw,
    /// `map`
    MapKw,
    /// `union`
    UnionKw,
    /// `decimal`
    DecimalKw,
    /// `void`
    VoidKw,
    /// `oneway`
    OnewayKw,
    /// `throws`
    ThrowsKw,
    /// `true`
    TrueKw,
    /// `false`
    FalseKw,
    /// `null` (a JSON value, and the primitive type)
    NullKw,
    /// `boolean`
    BooleanKw,
    /// `int`
    IntKw,
    /// `long`
    LongKw,
    /// `float`
    FloatKw,
    /// `double`
    DoubleKw,
    /// `bytes`
    BytesKw,
    /// `string`
    StringKw,
    /// `date`
    DateKw,
    /// `time_ms`
    TimeMsKw,
    /// `timestamp_ms`
    TimestampMsKw,
    /// `local_timestamp_ms`
    LocalTimestampMsKw,
    /// `uuid`
    UuidKw,

    /// Bytes the lexer cannot place (a token), or what the parser skipped (a node).
    Error,

    // ---- nodes --------------------------------------------------------------------------------
    /// The whole file.
    SourceFile,
    /// `protocol P { … }` with its annotations.
    Protocol,
    /// The braces of a protocol and what they hold.
    ProtocolBody,
    /// `namespace a.b;`
    NamespaceDecl,
    /// `schema T;`
    SchemaDecl,
    /// `import idl|protocol|schema "path";`
    Import,
    /// `record R { … }` or `error E { … }`, with its annotations.
    Record,
    /// `enum E { A, B } = A;`, with its annotations.
    Enum,
    /// The symbols of an enum, between its braces.
    EnumSymbols,
    /// One enum symbol with its annotations.
    EnumSymbol,
    /// `= A;` after an enum's braces.
    EnumDefault,
    /// `fixed F(16);`, with its annotations.
    Fixed,
    /// A record field: type, then one or more variables, then `;`.
    Field,
    /// One name declared by a field or a parameter, with its annotations and default.
    Variable,
    /// A message of a protocol: result type, name, parameters, `throws` or `oneway`.
    Message,
    /// The parentheses of a message and the parameters they hold.
    ParamList,
    /// One parameter: type and variable.
    Param,
    /// `throws E1, E2`
    Throws,
    /// `@name(json)`
    Annotation,
    /// A primitive or logical type keyword, or `void`.
    PrimitiveType,
    /// A reference to a named type.
    TypeRef,
    /// `array<T>`
    ArrayType,
    /// `map<T>`
    MapType,
    /// `union { T, U }`
    UnionType,
    /// `T?`: a type that may also be null.
    NullableType,
    /// `decimal(p, s)`
    DecimalType,
    /// A JSON value: a default or an annotation's value.
    JsonValue,
    /// `{ "key": value, … }` inside a JSON value.
    JsonObject,
    /// `"key": value` inside a JSON object.
    JsonMember,
    /// `[ value, … ]` inside a JSON value.
    JsonArray,
}

use SyntaxKind::*;

/// Keywords and their kinds. A keyword is a whole name token: `records`, `record.x` and
/// `` `record` `` are names.
const KEYWORDS: [(&str, SyntaxKind); 31] = [
    ("protocol", ProtocolKw),
    ("namespace", NamespaceKw),
    ("schema", SchemaKw),
    ("import", ImportKw),
    ("idl", IdlKw),
    ("record", RecordKw),
    ("error", ErrorKw),
    ("enum", EnumKw),
    ("fixed", FixedKw),
    ("array", ArrayKw),
    ("map", MapKw),
    ("union", UnionKw),
    ("decimal", DecimalKw),
    ("void", VoidKw),
    ("oneway", OnewayKw),
    ("throws", ThrowsKw),
    ("true", TrueKw),
    ("false", FalseKw),
    ("null", NullKw),
    ("boolean", BooleanKw),
    ("int", IntKw),
    ("long", LongKw),
    ("float", FloatKw),
    ("double", DoubleKw),
    ("bytes", BytesKw),
    ("string", StringKw),
    ("date", DateKw),
    ("time_ms", TimeMsKw),
    ("timestamp_ms", TimestampMsKw),
    ("local_timestamp_ms", LocalTimestampMsKw),
    ("uuid", UuidKw),
];

/// The slot in [`KEYWORD_SLOTS`] of a word of `len` bytes starting with `first` and
/// `second`: a multiplicative hash whose multiplier was chosen so that no two keywords share a
/// slot (building the table checks it).
const fn keyword_slot(first: u8, second: u8, len: usize) -> usize {
    let key = first as u32 | (second as u32) << 8 | (len as u32) << 16;
    (key.wrapping_mul(964_809) >> (32 - 6)) as usize
}

/// For each slot, the index in [`KEYWORDS`] of the keyword there, or `u8::MAX` for none.
const KEYWORD_SLOTS: [u8; 1 << 6] = {
    let mut table = [u8::MAX; 1 << 6];
    let mut i = 0;
    while i < KEYWORDS.len() {
        let word = KEYWORDS[i].0.as_bytes();
        let slot = keyword_slot(word[0], word[1], word.len());
        assert!(table[slot] == u8::MAX, "two keywords share a slot");
        table[slot] = i as u8;
        i += 1;
    }
    table
};

impl SyntaxKind {
    /// The keyword kind of the word `text`, if it is one. The lexer asks this of every name,
    /// so it looks in one slot of a table rather than through the list.
    pub fn keyword(text: &str) -> Option<SyntaxKind> {
        let &[first, second, ..] = text.as_bytes() else {
            return None;
        };
        let index = KEYWORD_SLOTS[keyword_slot(first, second, text.len())];
        let &(word, kind) = KEYWORDS.get(usize::from(index))?;
        (word == text).then_some(kind)
    }

    /// Whether this is a keyword.
    pub fn is_keyword(self) -> bool {
        (ProtocolKw as u16..=UuidKw as u16).contains(&(self as u16))
    }

    /// Whether this is a keyword naming a primitive or logical type (`int`, `date`, `null`…),
    /// which the compiler reads as that type where a type is expected.
    pub fn is_type_keyword(self) -> bool {
        self == NullKw || (BooleanKw as u16..=UuidKw as u16).contains(&(self as u16))
    }

    /// Whether this is whitespace, a line break or a comment: tokens that the grammar skips
    /// but the tree keeps, so that it prints back the text it was built from.
    pub fn is_trivia(self) -> bool {
        matches!(
            self,
            Whitespace | Newline | LineComment | BlockComment | DocComment | EofTail | Bom
        )
    }

    /// Whether this is a comment of any kind.
    pub fn is_comment(self) -> bool {
        matches!(self, LineComment | BlockComment | DocComment)
    }

    /// Whether a token of this kind may stand where the grammar wants a name: any name, and
    /// every keyword (`void error();` and `string record;` are valid IDL).
    pub fn is_name(self) -> bool {
        matches!(self, Ident | QuotedIdent) || self.is_keyword()
    }

    /// Whether this is a node kind rather than a token kind ([`Error`](SyntaxKind::Error) is
    /// both).
    pub fn is_node(self) -> bool {
        self as u16 >= SourceFile as u16
    }

    /// The kind of a raw rowan kind; raw kinds only ever come from [`SyntaxKind`] itself.
    fn from_raw(raw: u16) -> SyntaxKind {
        ALL[usize::from(raw)]
    }
}

/// The rowan language of IDL files: maps [`SyntaxKind`] to and from rowan's raw kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AvdlLanguage {}

impl rowan::Language for AvdlLanguage {
    type Kind = SyntaxKind;

    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0)
    }

    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind as u16)
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_kinds_round_trip() {
        assert_eq!(ALL.len(), JsonArray as usize + 1);
        for (raw, &kind) in ALL.iter().enumerate() {
            assert_eq!(kind as usize, raw);
            assert_eq!(SyntaxKind::from_raw(kind as u16), kind);
        }
    }

    #[test]
    fn keyword_classes() {
        assert_eq!(SyntaxKind::keyword("record"), Some(RecordKw));
        assert_eq!(SyntaxKind::keyword("records"), None);
        for (word, kind) in KEYWORDS {
            assert_eq!(SyntaxKind::keyword(word), Some(kind), "{word}");
            assert_eq!(SyntaxKind::keyword(&word[1..]), None, "{word}");
            assert_eq!(SyntaxKind::keyword(&word.to_uppercase()), None, "{word}");
        }
        for word in ["", "i", "in", "ints", "Record", "recorD", "uuids", "é"] {
            assert_eq!(SyntaxKind::keyword(word), None, "{word}");
        }
        assert!(RecordKw.is_keyword() && UuidKw.is_keyword() && !Ident.is_keyword());
        assert!(NullKw.is_type_keyword() && IntKw.is_type_keyword());
        assert!(!RecordKw.is_type_keyword() && !VoidKw.is_type_keyword());
        assert!(QuotedIdent.is_name() && ErrorKw.is_name() && !String.is_name());
        assert!(!Error.is_node() && SourceFile.is_node() && JsonArray.is_node());
    }
}
