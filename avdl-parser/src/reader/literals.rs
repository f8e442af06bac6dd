//! Annotations and JSON values: defaults, annotation values, string and number literals.

use std::iter::Peekable;

use pest::iterators::{Pair, Pairs};
use serde_json::{Map, Value};

use super::{identifier, FileReader, Result};
use crate::annotations::Annotation;
use crate::error::ErrorKind;
use crate::grammar::Rule;
use crate::literal;

impl FileReader<'_, '_, '_> {
    /// Consumes the leading `annotation` pairs of `inner`.
    pub(super) fn annotations_from<'i>(
        &self,
        inner: &mut Peekable<Pairs<'i, Rule>>,
    ) -> Result<Vec<Annotation>> {
        let mut annotations = Vec::new();
        while let Some(pair) = inner.next_if(|p| p.as_rule() == Rule::annotation) {
            let mut parts = pair.into_inner();
            let name = identifier(&parts.next().expect("grammar: annotation name"));
            let value_pair = parts.next().expect("grammar: annotation value");
            let value_span = self.span(&value_pair);
            let value = self.json(value_pair)?;
            annotations.push(Annotation {
                name,
                value,
                value_span,
            });
        }
        Ok(annotations)
    }

    pub(super) fn int_literal(&self, pair: &Pair<'_, Rule>) -> Result<i64> {
        literal::integer(pair.as_str())
            .map_err(|m| self.error(ErrorKind::InvalidNumber, self.span(pair), m))
    }

    /// A JSON value written in IDL (numbers keep their kind: integers stay integers).
    pub(super) fn json(&self, pair: Pair<'_, Rule>) -> Result<Value> {
        Ok(match pair.as_rule() {
            Rule::json_object => {
                let mut map = Map::new();
                for member in pair.into_inner() {
                    let mut kv = member.into_inner();
                    let key = self.string(&kv.next().expect("grammar: key"))?;
                    let value = self.json(kv.next().expect("grammar: value"))?;
                    map.insert(key, value);
                }
                Value::Object(map)
            }
            Rule::json_array => Value::Array(
                pair.into_inner()
                    .map(|p| self.json(p))
                    .collect::<Result<_>>()?,
            ),
            Rule::string_lit => Value::String(self.string(&pair)?),
            Rule::int_lit => Value::from(self.int_literal(&pair)?),
            Rule::float_lit => literal::float(pair.as_str())
                .map_err(|m| self.error(ErrorKind::InvalidNumber, self.span(&pair), m))?,
            Rule::kw_true => Value::Bool(true),
            Rule::kw_false => Value::Bool(false),
            _ => Value::Null,
        })
    }

    fn string(&self, pair: &Pair<'_, Rule>) -> Result<String> {
        literal::unescape(pair.as_str())
            .map_err(|m| self.error(ErrorKind::Syntax, self.span(pair), m))
    }
}
