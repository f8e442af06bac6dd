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

/// Runs the grammar over a whole (comment-blanked) file.
pub(crate) fn parse_file(text: &str) -> Result<Pairs<'_, Rule>, pest::error::Error<Rule>> {
    stacker::maybe_grow(GRAMMAR_STACK / 2, GRAMMAR_STACK, || {
        IdlGrammar::parse(Rule::idl_file, text)
    })
}

/// A protocol file read one declaration at a time: the protocol's head, then the pieces.
///
/// This gives the same parse tree as [`parse_file`] and much less of it at once: pest keeps
/// every token of a parse in one queue, which for a whole large protocol is tens of
/// megabytes of memory that is touched once. `None` when the file does not begin with a
/// protocol head (a schema file, or a syntax error for [`parse_file`] to report).
pub(crate) fn protocol_pieces(text: &str) -> Option<(Pair<'_, Rule>, Pieces<'_>)> {
    let start = text.len() - text.trim_start_matches(' ').len();
    let head = parse_prefix(Rule::protocol_head, &text[start..]).ok()?;
    let pos = start + head.as_str().len();
    Some((head, Pieces { text, pos }))
}

/// The declarations of a protocol after its head, each parsed on its own, then the closing
/// brace and the end of the file.
pub(crate) struct Pieces<'i> {
    text: &'i str,
    pos: usize,
}

impl<'i> Iterator for Pieces<'i> {
    /// A declaration, or the whole file's syntax error when a piece does not parse.
    type Item = Result<Pair<'i, Rule>, pest::error::Error<Rule>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos > self.text.len() {
            return None;
        }
        let rest = self.text[self.pos..].trim_start_matches(' ');
        let start = self.text.len() - rest.len();
        let rule = if rest.starts_with('}') {
            Rule::protocol_end
        } else {
            Rule::protocol_piece
        };
        let Ok(piece) = parse_prefix(rule, rest) else {
            // The whole file fails to parse at the same place (a piece is exactly what the
            // whole grammar's `protocol_item*` or closing brace would match there); its error
            // says what was expected in the context of the whole file. (Should the whole file
            // parse after all, the piece's own position is reported rather than no error.)
            self.pos = usize::MAX;
            return Some(Err(parse_file(self.text).err().unwrap_or_else(|| {
                pest::error::Error::new_from_pos(
                    pest::error::ErrorVariant::CustomError {
                        message: "unexpected text".into(),
                    },
                    pest::Position::new(self.text, start)
                        .unwrap_or(pest::Position::from_start(self.text)),
                )
            })));
        };
        if rule == Rule::protocol_end {
            self.pos = usize::MAX;
            return None;
        }
        self.pos = start + piece.as_str().len();
        piece.into_inner().next().map(Ok)
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
        protocol_piece => "a record, error, enum or fixed declaration, a message or an import",
        protocol_end => "`}`",
        _ => "valid syntax",
    }
}

#[cfg(test)]
mod tests {
    use pest::iterators::Pair;
    use pest::Parser;

    use super::{IdlGrammar, Rule};

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

    #[test]
    fn a_protocol_read_piece_by_piece_gives_the_whole_file_tree() {
        let dir = format!("{}/tests/cases", env!("CARGO_MANIFEST_DIR"));
        let mut protocols = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "avdl") {
                continue;
            }
            let (_, blanked) =
                crate::lexical::scan(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let Some((head, pieces)) = super::protocol_pieces(&blanked) else {
                continue;
            };
            protocols += 1;
            let piecewise: Vec<Pair<'_, Rule>> = std::iter::once(Ok(head))
                .chain(pieces)
                .collect::<Result<_, _>>()
                .unwrap();
            let whole = super::parse_file(&blanked).unwrap().next().unwrap();
            let protocol = whole.into_inner().next().unwrap();
            assert_eq!(protocol.as_rule(), Rule::protocol, "{}", path.display());
            assert_eq!(
                tree(&blanked, piecewise),
                tree(&blanked, protocol.into_inner().collect()),
                "{}",
                path.display()
            );
        }
        assert!(protocols >= 10, "only {protocols} protocols");
    }

    #[test]
    fn a_piece_that_fails_reports_the_whole_file_error() {
        for text in [
            "protocol P { record R { int x } }",
            "protocol P { record R {} ; }",
            "protocol P { record R {} } extra",
            "protocol P { record R {}",
            "protocol P { enum E { A } = ; }",
        ] {
            let (_, pieces) = super::protocol_pieces(text).unwrap();
            let error = pieces.filter_map(Result::err).next().expect(text);
            let whole = super::parse_file(text).unwrap_err();
            assert_eq!(error.to_string(), whole.to_string(), "{text}");
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
            let at = crate::source::floor_char_boundary(text, next() % (text.len() + 1));
            match next() % 3 {
                0 => text.insert_str(at, FRAGMENTS[next() % FRAGMENTS.len()]),
                1 => {
                    let end = crate::source::ceil_char_boundary(text, at + next() % 8);
                    text.replace_range(at..end.min(text.len()), "");
                }
                _ => text.truncate(at),
            }
        }
    }

    /// On damaged protocols, the piecewise parse and the whole-file parse agree: the same
    /// tree when the text parses, the same error when it does not.
    #[test]
    fn damaged_protocols_parse_the_same_piece_by_piece() {
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
                let Some((head, pieces)) = super::protocol_pieces(&blanked) else {
                    continue;
                };
                let piecewise: Result<Vec<_>, _> =
                    std::iter::once(Ok(head)).chain(pieces).collect();
                match (super::parse_file(&blanked), piecewise) {
                    (Ok(mut whole), Ok(pieces)) => {
                        parsed += 1;
                        let protocol = whole.next().unwrap().into_inner().next().unwrap();
                        let whole = tree(&blanked, protocol.into_inner().collect());
                        assert_eq!(tree(&blanked, pieces), whole, "{text}");
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
