//! Named types (records, errors, enums, fixed) and the fields of records.

use std::iter::Peekable;

use pest::iterators::{Pair, Pairs};

use super::{first_repeat, identifier, FileReader, Result, Written};
use crate::annotations::{self, Place, Split};
use crate::ast::{Field, NamedKind, NamedType, Props};
use crate::error::ErrorKind;
use crate::grammar::Rule;
use crate::source::Span;
use crate::{full_name, names};

impl FileReader<'_, '_, '_> {
    pub(super) fn named_decl(
        &mut self,
        pair: Pair<'_, Rule>,
        namespace: Option<&str>,
    ) -> Result<()> {
        let named = match pair.as_rule() {
            Rule::record_decl => self.record(pair, namespace)?,
            Rule::enum_decl => self.enumeration(pair, namespace)?,
            _ => self.fixed(pair, namespace)?,
        };
        self.loader.register(named)
    }

    /// Doc, annotations and name of a named declaration; leaves `inner` at the body.
    fn named_header<'i>(
        &mut self,
        pair: &Pair<'i, Rule>,
        inner: &mut Peekable<Pairs<'i, Rule>>,
        namespace: Option<&str>,
        is_enum: bool,
    ) -> Result<(NamedType, Split)> {
        let doc = self.doc(pair);
        let annotations = self.annotations_from(inner)?;
        let keyword = inner.next().expect("grammar: declaration keyword");
        let name_pair = inner.next().expect("grammar: declaration name");
        let name_span = self.span(&name_pair);
        let written = identifier(&name_pair);
        let mut split = Split::new(annotations, Place::NamedType { is_enum })
            .map_err(|e| self.annotation_error(e))?;
        let annotated_ns = split.namespace().map_err(|e| self.annotation_error(e))?;
        let aliases = split.aliases().map_err(|e| self.annotation_error(e))?;
        let enclosing = annotated_ns.unwrap_or_else(|| namespace.map(str::to_owned));
        let (name, namespace) = full_name::name_in(&written, enclosing.as_deref());
        let (name, namespace) = (name.to_owned(), namespace.map(str::to_owned));
        names::check_type_name(&name, namespace.as_deref())
            .map_err(|m| self.error(ErrorKind::InvalidName, name_span, m))?;
        let is_error = keyword.as_rule() == Rule::kw_error;
        let kind = NamedKind::Record {
            is_error,
            fields: Vec::new(),
        };
        let named = NamedType {
            name,
            namespace,
            doc,
            aliases,
            props: Props::new(),
            kind,
            span: name_span,
        };
        Ok((named, split))
    }

    fn record(&mut self, pair: Pair<'_, Rule>, namespace: Option<&str>) -> Result<NamedType> {
        let mut inner = pair.clone().into_inner().peekable();
        let (mut named, split) = self.named_header(&pair, &mut inner, namespace, false)?;
        named.props = split.props;
        // One field per declaration is the rule (`int a, b;` declares more).
        let mut fields: Vec<Field> = Vec::with_capacity(inner.len());
        for decl in inner {
            fields.extend(self.field_decl(decl, named.namespace.as_deref())?);
        }
        if let Some(i) = first_repeat(fields.iter().map(|f| f.name.as_str())) {
            let message = format!(
                "Duplicate field {} in record {}",
                fields[i].name,
                named.full_name()
            );
            return Err(self.error(ErrorKind::Duplicate, fields[i].span, message));
        }
        if let NamedKind::Record { fields: slot, .. } = &mut named.kind {
            *slot = fields;
        }
        Ok(named)
    }

    fn enumeration(&mut self, pair: Pair<'_, Rule>, namespace: Option<&str>) -> Result<NamedType> {
        let mut inner = pair.clone().into_inner().peekable();
        let (mut named, split) = self.named_header(&pair, &mut inner, namespace, true)?;
        named.props = split.props;
        let mut symbols: Vec<String> = Vec::new();
        let mut spans: Vec<Span> = Vec::new();
        for symbol in inner.next().expect("grammar: enum symbols").into_inner() {
            let id = symbol
                .into_inner()
                .last()
                .expect("grammar: enum symbol name");
            let span = self.span(&id);
            let name = identifier(&id);
            names::check_name(&name).map_err(|m| self.error(ErrorKind::InvalidName, span, m))?;
            symbols.push(name);
            spans.push(span);
        }
        if let Some(i) = first_repeat(symbols.iter().map(String::as_str)) {
            let message = format!("Duplicate enum symbol: {}", symbols[i]);
            return Err(self.error(ErrorKind::Duplicate, spans[i], message));
        }
        let default = match inner.next() {
            Some(d) => {
                let id = d.into_inner().next().expect("grammar: enum default");
                let symbol = identifier(&id);
                if !symbols.contains(&symbol) {
                    let message = format!(
                        "The Enum Default: {symbol} is not in the enum symbol set: [{}]",
                        symbols.join(", ")
                    );
                    return Err(self.error(ErrorKind::Duplicate, self.span(&id), message));
                }
                Some(symbol)
            }
            None => None,
        };
        named.kind = NamedKind::Enum { symbols, default };
        Ok(named)
    }

    fn fixed(&mut self, pair: Pair<'_, Rule>, namespace: Option<&str>) -> Result<NamedType> {
        let mut inner = pair.clone().into_inner().peekable();
        let (mut named, split) = self.named_header(&pair, &mut inner, namespace, false)?;
        let size_pair = inner.next().expect("grammar: fixed size");
        let size = self.int_literal(&size_pair)?;
        let span = self.span(&size_pair);
        if size_pair.as_str().ends_with(['l', 'L']) || size > i64::from(i32::MAX) {
            return Err(self.error(
                ErrorKind::InvalidNumber,
                span,
                format!("invalid fixed size: {}", size_pair.as_str()),
            ));
        }
        let size = u64::try_from(size).map_err(|_| {
            self.error(
                ErrorKind::InvalidNumber,
                span,
                format!("Malformed data. Length is negative: {size}"),
            )
        })?;
        named.props = split.props;
        annotations::complete_decimal(&mut named.props, "fixed", Some(size));
        named.kind = NamedKind::Fixed { size };
        Ok(named)
    }

    fn field_decl(&mut self, pair: Pair<'_, Rule>, namespace: Option<&str>) -> Result<Vec<Field>> {
        let default_doc = self.doc(&pair);
        let mut inner = pair.into_inner().peekable();
        let written = self.full_type(&mut inner, namespace)?;
        // Every variable of the declaration has the type; the last one takes it.
        let mut variables: Vec<Pair<'_, Rule>> = inner.collect();
        let last = variables.pop().expect("grammar: a variable");
        let mut fields = variables
            .into_iter()
            .map(|var| self.variable(var, written.clone(), default_doc.clone()))
            .collect::<Result<Vec<Field>>>()?;
        fields.push(self.variable(last, written, default_doc)?);
        Ok(fields)
    }

    /// A field or parameter name with its annotations and default, of type `written`.
    pub(super) fn variable(
        &mut self,
        pair: Pair<'_, Rule>,
        written: Written,
        default_doc: Option<String>,
    ) -> Result<Field> {
        let doc = self.doc(&pair).or(default_doc);
        let mut inner = pair.into_inner().peekable();
        let annotations = self.annotations_from(&mut inner)?;
        let name_pair = inner.next().expect("grammar: variable name");
        let span = self.span(&name_pair);
        let name = identifier(&name_pair);
        names::check_name(&name).map_err(|m| self.error(ErrorKind::InvalidName, span, m))?;
        let (default, default_span) = match inner.next() {
            Some(value) => (Some(self.json(value.clone())?), self.span(&value)),
            None => (None, span),
        };
        let null_last = default.as_ref().is_some_and(|d| !d.is_null());
        let ty = self.finish(written, null_last);
        let mut split =
            Split::new(annotations, Place::Field).map_err(|e| self.annotation_error(e))?;
        let order = split.order().map_err(|e| self.annotation_error(e))?;
        let aliases = split.aliases().map_err(|e| self.annotation_error(e))?;
        Ok(Field {
            name,
            ty,
            doc,
            default,
            order,
            aliases,
            props: split.props,
            span,
            default_span,
        })
    }
}
