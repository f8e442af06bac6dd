//! The pieces of IDL text every writer of IDL needs, laid out as Java's IDL writer
//! (`IdlUtils`) lays them out: JSON values on one line, annotations, doc comments and names
//! (backticked when they are keywords). Kept apart from the walk over a schema so that a
//! formatter of IDL source can print the same pieces the same way.

use serde_json::Value;

/// The words IDL reads as keywords or built-in types; a name spelt like one is written in
/// backticks so that it stays a name.
const KEYWORDS: [&str; 31] = [
    "array",
    "boolean",
    "bytes",
    "date",
    "decimal",
    "double",
    "enum",
    "error",
    "false",
    "fixed",
    "float",
    "idl",
    "import",
    "int",
    "local_timestamp_ms",
    "long",
    "map",
    "namespace",
    "null",
    "oneway",
    "protocol",
    "record",
    "schema",
    "string",
    "throws",
    "timestamp_ms",
    "time_ms",
    "true",
    "union",
    "uuid",
    "void",
];

/// The indentation of one nesting level, and the text of `depth` levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Indent {
    /// Spaces per level (Avro's own IDL files use 2; Java's writer 4).
    pub width: usize,
}

impl Indent {
    /// The spaces that start a line `depth` levels deep.
    pub fn at(self, depth: usize) -> String {
        " ".repeat(self.width * depth)
    }
}

impl Default for Indent {
    fn default() -> Self {
        Indent { width: 2 }
    }
}

/// A JSON value on one line as the Java writer prints it: `, ` between items and members,
/// `:` without a space between a key and its value.
pub fn json_text(value: &Value) -> String {
    let mut out = String::new();
    push_json(&mut out, value);
    out
}

fn push_json(out: &mut String, value: &Value) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_json(out, item);
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                push_json(out, item);
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// `@name(value)`, the annotation giving property `name` the JSON `value`.
pub fn annotation(name: &str, value: &Value) -> String {
    format!("@{name}({})", json_text(value))
}

/// Whether `word` is an IDL keyword or built-in type name.
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// One part of a name (no dots) as IDL writes it: in backticks when it is a keyword.
pub fn quoted_name(name: &str) -> String {
    if is_keyword(name) {
        format!("`{name}`")
    } else {
        name.to_owned()
    }
}

/// Whether `part` can be written as one part of an IDL identifier (in backticks if need be):
/// a letter or `_`, then letters, digits or `_`.
pub fn is_identifier_part(part: &str) -> bool {
    let mut chars = part.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// Whether `name` can be an annotation's name: identifier parts joined by `.` or `-`.
pub fn is_annotation_name(name: &str) -> bool {
    name.split(['.', '-']).all(is_identifier_part)
}

/// The doc comment for `doc`, each line starting with `indent`, ending with a line break:
/// `/** doc */` for one line, else `/** ` then each line after ` * ` and a closing ` */`.
pub fn doc_comment(indent: &str, doc: &str) -> String {
    let lines: Vec<&str> = doc.lines().collect();
    if lines.len() <= 1 && !doc.ends_with('\n') {
        return format!("{indent}/** {doc} */\n");
    }
    let mut out = format!("{indent}/** ");
    for line in doc.split('\n') {
        out.push_str(&format!("\n{indent} * {line}"));
    }
    out.push_str(&format!("\n{indent} */\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_is_written_on_one_line_with_java_separators() {
        let value = json!({"a": [1, "x"], "b": null});
        assert_eq!(json_text(&value), r#"{"a":[1, "x"], "b":null}"#);
    }

    #[test]
    fn keywords_are_backticked_and_other_names_are_not() {
        assert_eq!(quoted_name("record"), "`record`");
        assert_eq!(quoted_name("records"), "records");
    }

    #[test]
    fn identifiers_exclude_leading_digits_and_spaces() {
        assert!(is_identifier_part("_a1"));
        assert!(!is_identifier_part("1a"));
        assert!(!is_identifier_part("a b"));
        assert!(is_annotation_name("my-key.x"));
        assert!(!is_annotation_name("my key"));
    }

    #[test]
    fn docs_of_several_lines_get_a_star_column() {
        assert_eq!(doc_comment("  ", "one"), "  /** one */\n");
        assert_eq!(doc_comment("", "one\ntwo"), "/** \n * one\n * two\n */\n");
    }
}
