//! The pest grammar (`grammar.pest`) and how its rules are named in error messages.
#![allow(missing_docs)]

use pest::iterators::{Pair, Pairs};
use pest::Parser as _;
use pest_derive::Parser;

/// The Avro IDL grammar.
#[derive(Parser)]
#[grammar = "grammar.pest"]
pub(crate) struct IdlGrammar;

/// Stack the grammar is sure to have. pest is built without its `std` feature, which leaves
/// out its stack probe (a check on every rule call, a fifth of the parse); the recursion is
/// bounded instead by the scan's nesting limit ([`crate::lexical::MAX_NESTING`]), at which a
/// debug build needs under 512 KiB, and this much is provided on the heap when the calling
/// thread has less left.
const GRAMMAR_STACK: usize = 2 * 1024 * 1024;

/// Runs the grammar over a whole (comment-blanked) file at once. Files are read with
/// [`file_pieces`]; this gives the syntax errors, in the context of the whole file.
pub(crate) fn parse_file(text: &str) -> Result<Pairs<'_, Rule>, pest::error::Error<Rule>> {
    stacker::maybe_grow(GRAMMAR_STACK / 2, GRAMMAR_STACK, || {
        IdlGrammar::parse(Rule::idl_file, text)
    })
}

/// A file read one declaration at a time.
///
/// This gives the same parse tree as [`parse_file`] and much less of it at once: pest keeps
/// every token of a parse in one queue, which for a whole large file is tens of megabytes of
/// memory that is touched once.
pub(crate) enum FilePieces<'i> {
    /// A protocol: its head (`@…(…) protocol P {`) and its declarations.
    Protocol(Pair<'i, Rule>, Pieces<'i>),
    /// A schema file's declarations (`namespace`, `schema`, imports and named types).
    Schema(Pieces<'i>),
}

/// Starts reading the (comment-blanked) file `text` piece by piece.
pub(crate) fn file_pieces(text: &str) -> FilePieces<'_> {
    let start = text.len() - text.trim_start_matches(' ').len();
    match parse_prefix(Rule::protocol_head, &text[start..]) {
        Ok(head) => {
            let pos = start + head.as_str().len();
            FilePieces::Protocol(head, Pieces::new(text, pos, Stage::Protocol))
        }
        // Not a protocol, or a broken one: the first piece that fails reports it.
        Err(_) => FilePieces::Schema(Pieces::new(text, start, Stage::SchemaStart)),
    }
}

/// Which declarations may come next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Protocol,
    /// A schema file's start: its namespace, main schema or first declaration.
    SchemaStart,
    /// After the namespace: the main schema or a declaration.
    SchemaNamespaced,
    /// After the main schema or a declaration: declarations only.
    SchemaBody,
    Done,
}

/// The declarations of a file, each parsed on its own, then its end.
pub(crate) struct Pieces<'i> {
    text: &'i str,
    pos: usize,
    stage: Stage,
}

impl<'i> Pieces<'i> {
    fn new(text: &'i str, pos: usize, stage: Stage) -> Pieces<'i> {
        Pieces { text, pos, stage }
    }

    /// The rule of the next piece, given what `rest` starts with; `None` at the end.
    fn next_rule(&self, rest: &str) -> Option<Rule> {
        let at_end = match self.stage {
            Stage::Done => return None,
            Stage::Protocol => rest.starts_with('}'),
            _ => rest.is_empty() || rest.starts_with('\u{1A}'),
        };
        Some(match (self.stage, at_end) {
            (Stage::Protocol, true) => Rule::protocol_end,
            (Stage::Protocol, false) => Rule::protocol_piece,
            (_, true) => Rule::schema_end,
            (Stage::SchemaStart, false) => Rule::schema_first_piece,
            (Stage::SchemaNamespaced, false) => Rule::schema_second_piece,
            (_, false) => Rule::schema_piece,
        })
    }

    /// What may follow a schema file's piece whose declaration is `declaration`.
    fn stage_after(&self, declaration: Rule) -> Stage {
        match (self.stage, declaration) {
            (Stage::Protocol, _) => Stage::Protocol,
            (_, Rule::namespace_decl) => Stage::SchemaNamespaced,
            _ => Stage::SchemaBody,
        }
    }

    /// The whole file's syntax error, for a piece that does not parse at `start`.
    fn whole_file_error(&self, start: usize) -> pest::error::Error<Rule> {
        // The whole file fails to parse at the same place (a piece is exactly what the whole
        // grammar would match there); its error says what was expected in the context of the
        // whole file. (Should the whole file parse after all, the piece's position is
        // reported rather than no error.)
        parse_file(self.text).err().unwrap_or_else(|| {
            pest::error::Error::new_from_pos(
                pest::error::ErrorVariant::CustomError {
                    message: "unexpected text".into(),
                },
                pest::Position::new(self.text, start)
                    .unwrap_or(pest::Position::from_start(self.text)),
            )
        })
    }
}

impl<'i> Iterator for Pieces<'i> {
    /// A declaration, or the whole file's syntax error when a piece does not parse.
    type Item = Result<Pair<'i, Rule>, pest::error::Error<Rule>>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.text[self.pos..].trim_start_matches(' ');
        let start = self.text.len() - rest.len();
        let rule = self.next_rule(rest)?;
        let Ok(piece) = parse_prefix(rule, rest) else {
            self.stage = Stage::Done;
            return Some(Err(self.whole_file_error(start)));
        };
        if matches!(rule, Rule::protocol_end | Rule::schema_end) {
            self.stage = Stage::Done;
            return None;
        }
        self.pos = start + piece.as_str().len();
        let declaration = piece.into_inner().next()?;
        self.stage = self.stage_after(declaration.as_rule());
        Some(Ok(declaration))
    }
}

/// Parses a prefix of `text` as `rule`.
fn parse_prefix(rule: Rule, text: &str) -> Result<Pair<'_, Rule>, pest::error::Error<Rule>> {
    stacker::maybe_grow(GRAMMAR_STACK / 2, GRAMMAR_STACK, || {
        IdlGrammar::parse(rule, text)
    })
    .map(|mut pairs| pairs.next().expect("a parsed rule gives its pair"))
}

/// What a rule is called in a syntax error, in words a user knows.
pub(crate) fn describe(rule: Rule) -> &'static str {
    use Rule::*;
    match rule {
        identifier => "a name",
        string_lit => "a string",
        int_lit => "an integer",
        float_lit => "a number",
        json_object | json_array | json_member => "a JSON value",
        annotation => "an annotation `@name(value)`",
        array_type | map_type | union_type | decimal_type => "a type",
        result_type => "a result type",
        optional => "`?`",
        protocol | protocol_head | kw_protocol => "`protocol`",
        schema_file => "a schema declaration",
        namespace_decl | kw_namespace => "`namespace`",
        main_schema | kw_schema => "`schema`",
        import | kw_import => "`import`",
        import_kind => "`idl`, `protocol` or `schema`",
        kw_idl => "`idl`",
        record_decl => "a record, error, enum or fixed declaration",
        kw_record => "`record`",
        kw_error => "`error`",
        enum_decl | kw_enum => "`enum`",
        enum_symbols | enum_symbol => "an enum symbol",
        enum_default => "`=` and the default symbol",
        fixed_decl | kw_fixed => "`fixed`",
        field_decl => "a field",
        variable => "a field name",
        message => "a message",
        parameters | parameter => "a parameter",
        oneway | kw_oneway => "`oneway`",
        throws | kw_throws => "`throws`",
        kw_array => "`array`",
        kw_map => "`map`",
        kw_union => "`union`",
        kw_decimal => "`decimal`",
        kw_void => "`void`",
        kw_true => "`true`",
        kw_false => "`false`",
        kw_null => "`null`",
        EOI => "the end of the file",
        idl_file => "a protocol or schema",
        _ => "valid syntax",
    }
}

#[cfg(test)]
mod tests {
    use pest::iterators::Pair;
    use pest::Parser;

    use super::{FilePieces, IdlGrammar, Rule};

    fn parse(path: &str) -> Pair<'static, Rule> {
        let text =
            std::fs::read_to_string(format!("{}/tests/cases/{path}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        let text: &'static str = Box::leak(text.into_boxed_str());
        let (_, blanked) = crate::lexical::scan(text).unwrap();
        let blanked: &'static str = Box::leak(blanked.into_boxed_str());
        let mut pairs =
            IdlGrammar::parse(Rule::idl_file, blanked).unwrap_or_else(|e| panic!("{e}"));
        pairs.next().unwrap().into_inner().next().unwrap()
    }

    /// Every pair under `pairs`, as rule, offset in `text` and text.
    fn tree<'i>(text: &str, pairs: Vec<Pair<'i, Rule>>) -> Vec<(Rule, usize, &'i str)> {
        pairs
            .into_iter()
            .flat_map(|p| std::iter::once(p.clone()).chain(p.into_inner().flatten()))
            .map(|p| {
                let offset = p.as_str().as_ptr() as usize - text.as_ptr() as usize;
                (p.as_rule(), offset, p.as_str())
            })
            .collect()
    }

    /// The file's pairs read piece by piece: a protocol's head, then each declaration.
    fn piecewise(text: &str) -> Result<Vec<Pair<'_, Rule>>, pest::error::Error<Rule>> {
        match super::file_pieces(text) {
            FilePieces::Protocol(head, pieces) => std::iter::once(Ok(head)).chain(pieces).collect(),
            FilePieces::Schema(pieces) => pieces.collect(),
        }
    }

    /// The same pairs from the whole-file parse: the protocol's or schema file's children.
    fn whole(text: &str) -> Result<Vec<Pair<'_, Rule>>, pest::error::Error<Rule>> {
        let file = super::parse_file(text)?.next().unwrap();
        Ok(file.into_inner().next().unwrap().into_inner().collect())
    }

    #[test]
    fn a_file_read_piece_by_piece_gives_the_whole_file_tree() {
        let dir = format!("{}/tests/cases", env!("CARGO_MANIFEST_DIR"));
        let (mut protocols, mut schemas) = (0, 0);
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "avdl") {
                continue;
            }
            let (_, blanked) =
                crate::lexical::scan(&std::fs::read_to_string(&path).unwrap()).unwrap();
            match super::file_pieces(&blanked) {
                FilePieces::Protocol(..) => protocols += 1,
                FilePieces::Schema(..) => schemas += 1,
            }
            assert_eq!(
                tree(&blanked, piecewise(&blanked).unwrap()),
                tree(&blanked, whole(&blanked).unwrap()),
                "{}",
                path.display()
            );
        }
        assert!(
            protocols >= 10 && schemas >= 3,
            "{protocols} protocols, {schemas} schemas"
        );
    }

    #[test]
    fn a_piece_that_fails_reports_the_whole_file_error() {
        for text in [
            "protocol P { record R { int x } }",
            "protocol P { record R {} ; }",
            "protocol P { record R {} } extra",
            "protocol P { record R {}",
            "protocol P { enum E { A } = ; }",
            "protocl P { }",
            "namespace a; record R { int x; } schema int;",
            "namespace a; namespace b;",
            "schema int; record R {} }",
        ] {
            let piece = piecewise(text).expect_err(text);
            let whole = super::parse_file(text).unwrap_err();
            assert_eq!(piece.to_string(), whole.to_string(), "{text}");
        }
    }

    /// Damages `text` in place: a few insertions of grammar fragments, deletions and cuts,
    /// chosen by the xorshift generator `seed`.
    fn damage(text: &mut String, seed: &mut u64) {
        const FRAGMENTS: [&str; 16] = [
            "{",
            "}",
            ";",
            ",",
            "@a(1)",
            "record X {}",
            "int",
            "?",
            "=",
            "\"s\"",
            "<",
            ">",
            "enum E { A } = A;",
            ")",
            "oneway",
            "\u{1A}",
        ];
        let mut next = || {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed as usize
        };
        for _ in 0..next() % 3 + 1 {
            let at = crate::offsets::floor_char_boundary(text, next() % (text.len() + 1));
            match next() % 3 {
                0 => text.insert_str(at, FRAGMENTS[next() % FRAGMENTS.len()]),
                1 => {
                    let end = crate::offsets::ceil_char_boundary(text, at + next() % 8);
                    text.replace_range(at..end.min(text.len()), "");
                }
                _ => text.truncate(at),
            }
        }
    }

    /// On damaged files, the piecewise parse and the whole-file parse agree: the same tree
    /// when the text parses, the same error when it does not.
    #[test]
    fn damaged_files_parse_the_same_piece_by_piece() {
        let dir = format!("{}/tests/cases", env!("CARGO_MANIFEST_DIR"));
        let mut seed = 0x2545_f491_4f6c_dd1d;
        let (mut parsed, mut failed) = (0, 0);
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "avdl") {
                continue;
            }
            let original = std::fs::read_to_string(&path).unwrap();
            for _ in 0..100 {
                let mut text = original.clone();
                damage(&mut text, &mut seed);
                let Ok((_, blanked)) = crate::lexical::scan(&text) else {
                    continue;
                };
                match (whole(&blanked), piecewise(&blanked)) {
                    (Ok(whole), Ok(pieces)) => {
                        parsed += 1;
                        assert_eq!(tree(&blanked, pieces), tree(&blanked, whole), "{text}");
                    }
                    (Err(whole), Err(piece)) => {
                        failed += 1;
                        assert_eq!(piece.to_string(), whole.to_string(), "{text}");
                    }
                    (whole, _) => {
                        panic!("only one parse succeeds (whole: {}): {text}", whole.is_ok())
                    }
                }
            }
        }
        assert!(
            parsed > 100 && failed > 100,
            "{parsed} parsed, {failed} failed"
        );
    }

    fn rules(pair: &Pair<'_, Rule>) -> Vec<Rule> {
        pair.clone().into_inner().map(|p| p.as_rule()).collect()
    }

    #[test]
    fn complete_example_schema_file() {
        let file = parse("spec_schema.avdl");
        assert_eq!(file.as_rule(), Rule::schema_file);
        assert_eq!(
            rules(&file),
            [
                Rule::namespace_decl,
                Rule::main_schema,
                Rule::enum_decl,
                Rule::fixed_decl,
                Rule::record_decl
            ]
        );
        let record = file.into_inner().last().unwrap();
        let fields = record
            .into_inner()
            .filter(|p| p.as_rule() == Rule::field_decl)
            .count();
        assert_eq!(fields, 6);
    }

    #[test]
    fn complete_example_protocol_file() {
        let file = parse("spec_protocol.avdl");
        assert_eq!(file.as_rule(), Rule::protocol);
        let items = rules(&file);
        let head = file.clone().into_inner().next().unwrap();
        assert_eq!(
            rules(&head),
            [Rule::annotation, Rule::kw_protocol, Rule::identifier]
        );
        assert_eq!(
            items[1..],
            [
                Rule::import,
                Rule::record_decl,
                Rule::message,
                Rule::message,
                Rule::message,
                Rule::message,
                Rule::message,
                Rule::message
            ]
        );
    }

    /// Every kind of bracket nested as deep as the scan allows parses even on a thread with
    /// little stack: the grammar runs on a stack of its own then.
    #[test]
    fn deepest_allowed_nesting_parses_on_a_small_stack() {
        let depth = crate::lexical::MAX_NESTING - 3;
        let nest = |open: &str, inner: &str, close: &str| {
            format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
        };
        let types = [
            nest("array<", "int", ">"),
            nest("map<@a(1) ", "int", ">"),
            nest("union { null, ", "int", "}"),
        ];
        let defaults = [nest("[", "1", "]"), nest("{\"a\": ", "1", "}")];
        let files: Vec<String> = types
            .iter()
            .map(|t| format!("protocol P {{ record R {{ {t} x; }} }}"))
            .chain(
                defaults
                    .iter()
                    .map(|d| format!("protocol P {{ record R {{ int x = {d}; }} }}")),
            )
            .collect();
        std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                for file in &files {
                    assert!(crate::lexical::scan(file).is_ok(), "{file}");
                    assert!(super::parse_file(file).is_ok(), "{file}");
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn keywords_end_at_name_characters() {
        for (text, rule) in [("record", Rule::kw_record), ("error", Rule::kw_error)] {
            assert!(IdlGrammar::parse(rule, text).is_ok());
            for longer in [
                format!("{text}s"),
                format!("{text}.x"),
                format!("{text}-x"),
                format!("{text}_"),
            ] {
                let parsed =
                    IdlGrammar::parse(rule, &longer).map(|mut p| p.next().unwrap().as_str().len());
                assert_ne!(parsed, Ok(longer.len()), "{longer}");
                assert!(parsed.is_err(), "{longer} is a name, not the keyword");
            }
        }
        let id = IdlGrammar::parse(Rule::identifier, "a.`enum`.B-c rest")
            .unwrap()
            .next()
            .unwrap();
        assert_eq!(id.as_str(), "a.`enum`.B-c");
    }
}
