//! The pest grammar (`grammar.pest`) and how its rules are named in error messages.
#![allow(missing_docs)]

use pest_derive::Parser;

/// The Avro IDL grammar.
#[derive(Parser)]
#[grammar = "grammar.pest"]
pub(crate) struct IdlGrammar;

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
        full_type | nullable_type | array_type | map_type | union_type | decimal_type => "a type",
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
