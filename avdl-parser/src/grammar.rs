//! The pest grammar (`grammar.pest`) and how its rules are named in error messages.
#![allow(missing_docs)]

use pest::iterators::Pairs;
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
        protocol | kw_protocol => "`protocol`",
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
        assert_eq!(
            items[..3],
            [Rule::annotation, Rule::kw_protocol, Rule::identifier]
        );
        assert_eq!(
            items[3..],
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
