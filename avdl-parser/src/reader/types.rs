//! Types: primitives and logical types, references, arrays, maps, unions, `T?`, decimals.

use std::iter::Peekable;

use pest::iterators::{Pair, Pairs};
use serde_json::Value;

use super::{first_repeat, identifier, FileReader, Result, Written};
use crate::annotations::{self, Annotation, Place, Split};
use crate::ast::{Props, TypeExpr};
use crate::error::ErrorKind;
use crate::grammar::Rule;
use crate::source::Span;
use crate::{full_name, names};

impl FileReader<'_, '_, '_> {
    /// A type with its annotations, from the next pairs of `inner`.
    pub(super) fn full_type<'i>(
        &mut self,
        inner: &mut Peekable<Pairs<'i, Rule>>,
        namespace: Option<&str>,
    ) -> Result<Written> {
        let annotations = self.annotations_from(inner)?;
        let plain = inner.next().expect("grammar: type");
        let optional = inner.next_if(|p| p.as_rule() == Rule::optional);
        self.plain_type(plain, optional, namespace, annotations)
    }

    /// A type without its annotations: `pair` is the array, map or union type, or the
    /// `decimal(…)` or name of a nullable type, then followed by its `?` (`optional`).
    pub(super) fn plain_type(
        &mut self,
        pair: Pair<'_, Rule>,
        optional: Option<Pair<'_, Rule>>,
        namespace: Option<&str>,
        annotations: Vec<Annotation>,
    ) -> Result<Written> {
        let span = self.span(&pair);
        let ty = match pair.as_rule() {
            Rule::array_type | Rule::map_type => {
                let is_array = pair.as_rule() == Rule::array_type;
                let mut parts = pair.into_inner().peekable();
                parts.next(); // `array` or `map`
                let element = self.full_type(&mut parts, namespace)?;
                let element = Box::new(self.finish(element, false));
                let props = Split::new(annotations, Place::Type)
                    .map_err(|e| self.annotation_error(e))?
                    .props;
                if is_array {
                    TypeExpr::Array {
                        items: element,
                        props,
                    }
                } else {
                    TypeExpr::Map {
                        values: element,
                        props,
                    }
                }
            }
            Rule::union_type => TypeExpr::Union {
                branches: self.union_branches(pair, namespace)?,
            },
            _ => return self.nullable_type(pair, optional, namespace, annotations),
        };
        Ok(Written {
            ty,
            optional: false,
            span,
        })
    }

    fn union_branches(
        &mut self,
        pair: Pair<'_, Rule>,
        namespace: Option<&str>,
    ) -> Result<Vec<TypeExpr>> {
        let mut branches: Vec<TypeExpr> = Vec::new();
        let mut keys: Vec<String> = Vec::new();
        let mut spans: Vec<Span> = Vec::new();
        let mut parts = pair.into_inner().peekable();
        parts.next(); // `union`
        while parts.peek().is_some() {
            let written = self.full_type(&mut parts, namespace)?;
            let span = written.span;
            let branch = self.finish(written, false);
            let key = match &branch {
                TypeExpr::Union { .. } => {
                    return Err(self.error(
                        ErrorKind::InvalidUnion,
                        span,
                        "Nested union: a union may not directly contain another union (or a `T?`)",
                    ));
                }
                TypeExpr::Primitive { name, .. } => (*name).to_owned(),
                TypeExpr::Array { .. } => "array".to_owned(),
                TypeExpr::Map { .. } => "map".to_owned(),
                TypeExpr::Named { name, .. } => name.clone(),
            };
            keys.push(key);
            spans.push(span);
            branches.push(branch);
        }
        if let Some(i) = first_repeat(keys.iter().map(String::as_str)) {
            let message = format!("Duplicate in union: {}", keys[i]);
            return Err(self.error(ErrorKind::InvalidUnion, spans[i], message));
        }
        Ok(branches)
    }

    /// `base` (a name or `decimal(…)`), made nullable when `optional` (`?`) follows it.
    fn nullable_type(
        &mut self,
        base: Pair<'_, Rule>,
        optional: Option<Pair<'_, Rule>>,
        namespace: Option<&str>,
        annotations: Vec<Annotation>,
    ) -> Result<Written> {
        let mut span = self.span(&base);
        if let Some(mark) = &optional {
            span.end = self.span(mark).end;
        }
        let optional = optional.is_some();
        let annotated = !annotations.is_empty();
        let mut props = Split::new(annotations, Place::Type)
            .map_err(|e| self.annotation_error(e))?
            .props;
        let ty = match base.as_rule() {
            Rule::decimal_type => {
                let mut logical = self.decimal(base)?;
                annotations::merge_props(&mut logical, props, span)
                    .map_err(|e| self.annotation_error(e))?;
                TypeExpr::Primitive {
                    name: "bytes",
                    props: logical,
                }
            }
            _ => match primitive_keyword(base.as_str()) {
                Some((name, logical)) => {
                    let mut all = Props::new();
                    if let Some(logical) = logical {
                        all.insert("logicalType".into(), Value::from(logical));
                    }
                    annotations::merge_props(&mut all, std::mem::take(&mut props), span)
                        .map_err(|e| self.annotation_error(e))?;
                    annotations::complete_decimal(&mut all, name, None);
                    if optional && name == "null" {
                        return Err(self.error(
                            ErrorKind::InvalidUnion,
                            span,
                            "`null?` is not a type: null is already nullable",
                        ));
                    }
                    TypeExpr::Primitive { name, props: all }
                }
                None => {
                    let reference = self.reference(&base, namespace);
                    if annotated && matches!(reference, TypeExpr::Named { .. }) {
                        return Err(self.error(
                            ErrorKind::AnnotatedReference,
                            self.span(&base),
                            "Type references may not be annotated",
                        ));
                    }
                    match reference {
                        TypeExpr::Primitive { name, .. } => TypeExpr::Primitive { name, props },
                        named => named,
                    }
                }
            },
        };
        Ok(Written { ty, optional, span })
    }

    /// `decimal(p[, s])` as the properties of its `bytes` schema.
    fn decimal(&mut self, pair: Pair<'_, Rule>) -> Result<Props> {
        let span = self.span(&pair);
        let mut numbers = pair.into_inner().skip(1);
        let precision = self.int_literal(&numbers.next().expect("grammar: precision"))?;
        let scale = match numbers.next() {
            Some(s) => self.int_literal(&s)?,
            None => 0,
        };
        let invalid = |m: String| Err(self.error(ErrorKind::InvalidDecimal, span, m));
        if precision <= 0 || precision > i64::from(i32::MAX) {
            return invalid(format!(
                "Invalid decimal precision: {precision} (must be positive)"
            ));
        }
        if scale < 0 || scale > i64::from(i32::MAX) {
            return invalid(format!("Invalid decimal scale: {scale} (must be positive)"));
        }
        if scale > precision {
            return invalid(format!(
                "Invalid decimal scale: {scale} (greater than precision: {precision})"
            ));
        }
        let mut props = Props::new();
        props.insert("logicalType".into(), Value::from("decimal"));
        props.insert("precision".into(), Value::from(precision));
        props.insert("scale".into(), Value::from(scale));
        Ok(props)
    }

    /// A name in a type position, resolved against `namespace` (no null-namespace fallback).
    pub(super) fn reference(&self, pair: &Pair<'_, Rule>, namespace: Option<&str>) -> TypeExpr {
        let name = full_name::qualify(&identifier(pair), namespace);
        match names::primitive(&name) {
            Some(primitive) => TypeExpr::Primitive {
                name: primitive,
                props: Props::new(),
            },
            None => TypeExpr::Named {
                name,
                fallback: None,
                span: self.span(pair),
            },
        }
    }

    /// Turns `T?` into a union with null: null last when the field's default is not null.
    pub(super) fn finish(&self, written: Written, null_last: bool) -> TypeExpr {
        if !written.optional {
            return written.ty;
        }
        let null = TypeExpr::Primitive {
            name: "null",
            props: Props::new(),
        };
        let branches = if null_last {
            vec![written.ty, null]
        } else {
            vec![null, written.ty]
        };
        TypeExpr::Union { branches }
    }
}

/// The primitive type and logical type of a primitive or logical-type keyword, as written
/// (without backticks).
fn primitive_keyword(keyword: &str) -> Option<(&'static str, Option<&'static str>)> {
    Some(match keyword {
        "date" => ("int", Some("date")),
        "time_ms" => ("int", Some("time-millis")),
        "timestamp_ms" => ("long", Some("timestamp-millis")),
        "local_timestamp_ms" => ("long", Some("local-timestamp-millis")),
        "uuid" => ("string", Some("uuid")),
        other => (names::primitive(other)?, None),
    })
}
