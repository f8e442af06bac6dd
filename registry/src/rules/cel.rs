//! CEL conditions on Avro values, by the `cel` crate (the cel-rust interpreter).
//!
//! The value is seen as Confluent's CEL executor shows it: the variable `message`, a record
//! as a map from its field names to their values, so `message.total > 0` reads the field
//! `total`. Unions are their branch's value, enums their symbol, `fixed` and `bytes` bytes,
//! `int` and `long` CEL ints, `float` and `double` CEL doubles; logical types are their base
//! values (a `date` is its count of days). The parser bounds the nesting of an expression,
//! and the value's nesting is bounded by the decode limits it was read under.

use std::collections::HashMap;
use std::sync::Arc;

use ::cel::common::ast::{EntryExpr, Expr, IdedEntryExpr, IdedExpr};
use ::cel::{Context, Program, Value};
use avdl2rs::generic::GenericValue;
use avdl2rs::schema::NamedKind;

/// The longest expression compiled, in bytes: conditions are short, and the parser's
/// recursion grows with the text.
const MAX_LENGTH: usize = 4096;
/// The deepest expression tree run: evaluation recurses over the tree on the caller's stack
/// (a Kafka client's worker thread, say), so its depth is bounded like a decode's.
const MAX_DEPTH: usize = 32;
/// The stack the parser runs on: it recurses once per level of nesting before its own depth
/// check, past a thread's stack for the longest expressions. The deepest nestings of
/// `MAX_LENGTH` bytes (brackets, calls, maps, conditionals) need 16 MiB in a debug build; this
/// is four times that, address space that is only used as far as the parser goes.
const PARSER_STACK: usize = 64 << 20;

/// A compiled boolean expression.
pub(crate) struct Condition {
    program: Program,
}

impl Condition {
    /// Compiles `expr`; the error is the parser's, with the place in the expression, or says
    /// which bound the expression is beyond.
    pub(crate) fn compile(expr: &str) -> Result<Self, String> {
        if expr.len() > MAX_LENGTH {
            return Err(format!("longer than {MAX_LENGTH} bytes"));
        }
        // The tree is checked, and dropped when too deep, on the parser's stack too.
        stacker::grow(PARSER_STACK, || {
            let program =
                Program::compile(expr).map_err(|e| e.to_string().trim_end().to_owned())?;
            if deeper_than(program.expression(), MAX_DEPTH) {
                return Err(format!("nested deeper than {MAX_DEPTH} levels"));
            }
            Ok(Condition { program })
        })
    }

    /// Whether the condition holds for `message`; an error when the expression cannot be
    /// evaluated on it (a missing field, a type mismatch) or does not give a boolean.
    pub(crate) fn holds(&self, message: &GenericValue) -> Result<bool, String> {
        let mut context = Context::default();
        context.add_variable_from_value("message", to_cel(message));
        match self.program.execute(&context) {
            Ok(Value::Bool(held)) => Ok(held),
            Ok(other) => Err(format!(
                "the expression gave a {}, not a bool",
                other.type_of()
            )),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// Whether the tree of `expr` is more than `room` levels deep; it looks no deeper than that.
fn deeper_than(expr: &IdedExpr, room: usize) -> bool {
    let Some(room) = room.checked_sub(1) else {
        return true;
    };
    let entry = |entry: &IdedEntryExpr| match &entry.expr {
        EntryExpr::StructField(field) => deeper_than(&field.value, room),
        EntryExpr::MapEntry(entry) => {
            deeper_than(&entry.key, room) || deeper_than(&entry.value, room)
        }
    };
    match &expr.expr {
        Expr::Call(call) => {
            call.target.iter().any(|t| deeper_than(t, room))
                || call.args.iter().any(|a| deeper_than(a, room))
        }
        Expr::Comprehension(c) => [
            &c.iter_range,
            &c.accu_init,
            &c.loop_cond,
            &c.loop_step,
            &c.result,
        ]
        .into_iter()
        .any(|e| deeper_than(e, room)),
        Expr::List(list) => list.elements.iter().any(|e| deeper_than(e, room)),
        Expr::Map(map) => map.entries.iter().any(entry),
        Expr::Struct(object) => object.entries.iter().any(entry),
        Expr::Select(select) => deeper_than(&select.operand, room),
        Expr::Unspecified | Expr::Ident(_) | Expr::Literal(_) => false,
    }
}

/// The CEL value of an Avro value.
fn to_cel(value: &GenericValue) -> Value {
    match value {
        GenericValue::Null => Value::Null,
        GenericValue::Boolean(b) => Value::Bool(*b),
        GenericValue::Int(n) => Value::Int(i64::from(*n)),
        GenericValue::Long(n) => Value::Int(*n),
        GenericValue::Float(x) => Value::Float(f64::from(*x)),
        GenericValue::Double(x) => Value::Float(*x),
        GenericValue::Bytes(bytes) | GenericValue::Fixed(bytes) => {
            Value::Bytes(Arc::new(bytes.clone()))
        }
        GenericValue::String(text) => Value::String(Arc::new(text.clone())),
        GenericValue::Enum(symbol) => Value::String(Arc::new(symbol.symbol().to_owned())),
        GenericValue::Array(items) => Value::List(Arc::new(items.iter().map(to_cel).collect())),
        GenericValue::Map(entries) => map(entries.iter().map(|(k, v)| (k.as_str(), v))),
        GenericValue::Record(record) => {
            let NamedKind::Record { fields, .. } = &record.schema().kind else {
                return Value::Null;
            };
            map(fields.iter().map(|f| f.name.as_str()).zip(record.fields()))
        }
        GenericValue::Union(_, branch) => to_cel(branch),
    }
}

fn map<'a>(entries: impl Iterator<Item = (&'a str, &'a GenericValue)>) -> Value {
    let map: HashMap<String, Value> = entries.map(|(k, v)| (k.to_owned(), to_cel(v))).collect();
    Value::from(map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use avdl2rs::generic::GenericSchema;

    /// An order with a string, a long, an optional int, an enum and an array, as Avro
    /// binary, read into a generic value.
    fn order() -> GenericValue {
        let schema = GenericSchema::new(
            r#"{"type":"record","name":"Order","namespace":"shop","fields":[
                {"name":"sku","type":"string"},
                {"name":"cents","type":"long"},
                {"name":"qty","type":["null","int"]},
                {"name":"state","type":{"type":"enum","name":"State","symbols":["NEW","PAID"]}},
                {"name":"tags","type":{"type":"array","items":"string"}}]}"#,
        )
        .unwrap();
        // "tea", 1999, branch 1: 3, PAID, ["a"]
        let body = [6, b't', b'e', b'a', 0x9e, 0x1f, 2, 6, 2, 2, 2, b'a', 0];
        schema.decode(&body).unwrap()
    }

    fn holds(expr: &str) -> Result<bool, String> {
        Condition::compile(expr)?.holds(&order())
    }

    #[test]
    fn fields_are_seen_by_their_names() {
        assert_eq!(holds("message.sku == 'tea'"), Ok(true));
        assert_eq!(holds("message.cents > 2000"), Ok(false));
        assert_eq!(
            holds("message.qty == 3 && message.state == 'PAID'"),
            Ok(true)
        );
        assert_eq!(
            holds("size(message.tags) == 1 && 'a' in message.tags"),
            Ok(true)
        );
        assert_eq!(holds("message.sku.matches('^t')"), Ok(true));
    }

    #[test]
    fn what_cannot_be_evaluated_is_an_error() {
        let e = holds("message.missing == 1").unwrap_err();
        assert!(e.contains("missing"), "{e}");
        let e = holds("message.cents + 1").unwrap_err();
        assert!(e.contains("not a bool"), "{e}");
        assert!(Condition::compile("message.cents >").is_err());
    }

    #[test]
    fn expressions_are_bounded_in_length_and_depth() {
        let error = |expr: &str| Condition::compile(expr).err().unwrap();
        let long = format!("message.sku == '{}'", "x".repeat(MAX_LENGTH));
        assert!(error(&long).contains("longer than 4096 bytes"));
        // Within the length, on the parser's own stack: refused by the parser's bound.
        let n = MAX_LENGTH / 2 - 1;
        let deepest = [
            format!("{}1{}", "(".repeat(n), ")".repeat(n)),
            format!("{}1{}", "[".repeat(n), "]".repeat(n)),
            format!("{}1{}", "f(".repeat(n * 2 / 3), ")".repeat(n * 2 / 3)),
            format!("true{}", "?1:1".repeat((MAX_LENGTH - 4) / 4)),
        ];
        for expr in deepest {
            assert!(expr.len() <= MAX_LENGTH);
            assert!(Condition::compile(&expr).is_err(), "{}", &expr[..8]);
        }
        let sum = format!("message.cents{} > 0", " + 1".repeat(MAX_DEPTH));
        assert!(error(&sum).contains("nested deeper than 32 levels"));
        let sum = format!("message.cents{} > 0", " + 1".repeat(MAX_DEPTH - 3));
        assert_eq!(holds(&sum), Ok(true), "the deepest tree allowed runs");
    }
}
