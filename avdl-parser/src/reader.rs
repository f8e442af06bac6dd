//! Reads one IDL file: runs the grammar and turns the parse tree into the syntax tree,
//! registering named types and messages as they appear (imports at the import statement).

use std::collections::HashSet;
use std::iter::Peekable;
use std::sync::Arc;

use pest::iterators::{Pair, Pairs};
use serde_json::{Map, Value};

use crate::annotations::{self, Annotation, AnnotationError, Place, Split};
use crate::ast::{
    full_name, Field, Message, NamedKind, NamedType, Props, ProtocolHeader, TypeExpr,
};
use crate::error::{Error, ErrorKind};
use crate::grammar::{self, FilePieces, Rule};
use crate::lexical::{self, Scan};
use crate::loader::{ImportKind, Loader};
use crate::source::Span;
use crate::{doc, literal, names, syntax_error};

/// What a file amounts to once read: a protocol header, or a schema file's main schema.
#[derive(Debug, Default)]
pub(crate) struct FileOutcome {
    pub protocol: Option<ProtocolHeader>,
    pub main_schema: Option<TypeExpr>,
}

/// A type as written, before `T?` is turned into a union (which depends on the default).
#[derive(Clone)]
struct Written {
    ty: TypeExpr,
    optional: bool,
    span: Span,
}

/// Reader state for one file.
pub(crate) struct FileReader<'l, 'o, 'g> {
    loader: &'l mut Loader<'o>,
    file: u32,
    text: Arc<str>,
    /// The text the grammar reads; every pair's text lies in it, which gives its offset.
    grammar_text: &'g str,
    scan: Scan,
    /// Whether messages of this file (and of protocols it imports) join the result.
    keep_messages: bool,
}

type Result<T> = std::result::Result<T, Error>;

/// A declaration of the file, or the syntax error of the whole file.
type ParsedPiece<'i> = std::result::Result<Pair<'i, Rule>, pest::error::Error<Rule>>;

impl<'l, 'o, 'g> FileReader<'l, 'o, 'g> {
    /// Parses file `file` of the loader's sources.
    pub fn read(loader: &'l mut Loader<'o>, file: u32, keep_messages: bool) -> Result<FileOutcome> {
        let text = loader.sources.get(file).text.clone();
        let (scan, grammar_text) =
            lexical::scan(&text).map_err(|e| e.into_error(&loader.sources, file))?;
        let mut reader = FileReader {
            loader,
            file,
            text: text.clone(),
            grammar_text: &grammar_text,
            scan,
            keep_messages,
        };
        match grammar::file_pieces(&grammar_text) {
            FilePieces::Protocol(head, pieces) => reader.protocol(head, pieces),
            FilePieces::Schema(pieces) => reader.schema_file(pieces),
        }
    }

    fn syntax_error(&self, error: &pest::error::Error<Rule>) -> Error {
        syntax_error::from_pest(error, self.grammar_text, &self.loader.sources, self.file)
    }

    /// Where `pair` is in the file. A file's declarations are parsed on their own, so a
    /// pair's offsets are relative to its piece, which lies in the whole text.
    fn span(&self, pair: &Pair<'_, Rule>) -> Span {
        let piece = pair.get_input().as_ptr() as usize - self.grammar_text.as_ptr() as usize;
        let span = pair.as_span();
        Span {
            file: self.file,
            start: (piece + span.start()) as u32,
            end: (piece + span.end()) as u32,
        }
    }

    fn error(&self, kind: ErrorKind, span: Span, message: impl Into<String>) -> Error {
        self.loader.sources.error(kind, span, message)
    }

    fn annotation_error(&self, (kind, span, message): AnnotationError) -> Error {
        self.error(kind, span, message)
    }

    /// The doc comment right before the token where `pair` starts.
    fn doc(&self, pair: &Pair<'_, Rule>) -> Option<String> {
        let (from, to) = self.scan.doc_before(self.span(pair).start)?;
        Some(doc::doc_text(&self.text[from as usize..to as usize]))
    }

    // ---- files ---------------------------------------------------------------------------

    /// A protocol: its head (`@…(…) protocol P {`), then its declarations.
    fn protocol<'i>(
        &mut self,
        head: Pair<'i, Rule>,
        items: impl Iterator<Item = ParsedPiece<'i>>,
    ) -> Result<FileOutcome> {
        let doc = self.doc(&head);
        let mut inner = head.into_inner().peekable();
        let annotations = self.annotations_from(&mut inner)?;
        inner.next(); // `protocol`
        let name_pair = inner.next().expect("grammar: protocol name");
        let written = identifier(&name_pair);
        names::check_protocol_name(&written)
            .map_err(|m| self.error(ErrorKind::InvalidName, self.span(&name_pair), m))?;
        let mut split =
            Split::new(annotations, Place::Protocol).map_err(|e| self.annotation_error(e))?;
        let annotated_ns = split.namespace().map_err(|e| self.annotation_error(e))?;
        let (name, namespace) = match written.rfind('.') {
            Some(dot) => (
                written[dot + 1..].to_owned(),
                Some(written[..dot].to_owned()),
            ),
            None => (written, annotated_ns.flatten()),
        };
        let header = ProtocolHeader {
            name,
            namespace,
            doc,
            props: split.props,
        };
        for item in items {
            let item = item.map_err(|e| self.syntax_error(&e))?;
            self.protocol_item(item, header.namespace.as_deref())?;
        }
        Ok(FileOutcome {
            protocol: Some(header),
            main_schema: None,
        })
    }

    fn protocol_item(&mut self, item: Pair<'_, Rule>, namespace: Option<&str>) -> Result<()> {
        match item.as_rule() {
            Rule::import => self.import(item, true),
            Rule::message => {
                let (name, message) = self.message(item, namespace)?;
                if self.keep_messages {
                    self.loader.defs.add_message(name, message);
                }
                Ok(())
            }
            _ => self.named_decl(item, namespace),
        }
    }

    fn schema_file<'i>(
        &mut self,
        items: impl Iterator<Item = ParsedPiece<'i>>,
    ) -> Result<FileOutcome> {
        let mut namespace = None;
        let mut outcome = FileOutcome::default();
        for item in items {
            let item = item.map_err(|e| self.syntax_error(&e))?;
            match item.as_rule() {
                Rule::namespace_decl => {
                    let id = item.into_inner().nth(1).expect("grammar: namespace name");
                    let ns = identifier(&id);
                    names::check_namespace(&ns)
                        .map_err(|m| self.error(ErrorKind::InvalidName, self.span(&id), m))?;
                    namespace = Some(ns).filter(|ns| !ns.is_empty());
                }
                Rule::main_schema => {
                    let mut parts = item.into_inner().peekable();
                    parts.next(); // `schema`
                    let written = self.full_type(&mut parts, namespace.as_deref())?;
                    outcome.main_schema = Some(self.finish(written, false));
                }
                Rule::import => self.import(item, false)?,
                _ => self.named_decl(item, namespace.as_deref())?,
            }
        }
        Ok(outcome)
    }

    fn import(&mut self, pair: Pair<'_, Rule>, importer_is_protocol: bool) -> Result<()> {
        let mut inner = pair.into_inner();
        inner.next(); // `import`
        let kind_pair = inner.next().expect("grammar: import kind");
        let kind = match kind_pair.into_inner().next().map(|p| p.as_rule()) {
            Some(Rule::kw_idl) => ImportKind::Idl,
            Some(Rule::kw_protocol) => ImportKind::Protocol,
            _ => ImportKind::Schema,
        };
        let path_pair = inner.next().expect("grammar: import path");
        let span = self.span(&path_pair);
        let path = literal::unescape(path_pair.as_str())
            .map_err(|m| self.error(ErrorKind::Syntax, span, m))?;
        let keep = self.keep_messages && importer_is_protocol;
        self.loader.import(kind, &path, span, keep)
    }

    // ---- named types ---------------------------------------------------------------------

    fn named_decl(&mut self, pair: Pair<'_, Rule>, namespace: Option<&str>) -> Result<()> {
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
        let (name, namespace) = match written.rfind('.') {
            Some(dot) => (
                written[dot + 1..].to_owned(),
                Some(written[..dot].to_owned()),
            ),
            None => (
                written,
                annotated_ns.unwrap_or_else(|| namespace.map(str::to_owned)),
            ),
        };
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

    // ---- fields and messages -------------------------------------------------------------

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
    fn variable(
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

    fn message(
        &mut self,
        pair: Pair<'_, Rule>,
        namespace: Option<&str>,
    ) -> Result<(String, Message)> {
        let doc = self.doc(&pair);
        let mut inner = pair.into_inner().peekable();
        let annotations = self.annotations_from(&mut inner)?;
        let props = Split::new(annotations, Place::Message)
            .map_err(|e| self.annotation_error(e))?
            .props;
        let result = inner.next().expect("grammar: result type");
        let result_span = self.span(&result);
        let mut result_parts = result.into_inner();
        let result_inner = result_parts.next().expect("grammar: result type");
        let response = if result_inner.as_rule() == Rule::kw_void {
            TypeExpr::Primitive {
                name: "null",
                props: Props::new(),
            }
        } else {
            let written =
                self.plain_type(result_inner, result_parts.next(), namespace, Vec::new())?;
            self.finish(written, false)
        };
        let name_pair = inner.next().expect("grammar: message name");
        let name = identifier(&name_pair);
        let mut request: Vec<Field> = Vec::new();
        for param in inner.next().expect("grammar: parameters").into_inner() {
            let default_doc = self.doc(&param);
            let mut parts = param.into_inner().peekable();
            let written = self.full_type(&mut parts, namespace)?;
            let field = self.variable(
                parts.next().expect("grammar: parameter name"),
                written,
                default_doc,
            )?;
            request.push(field);
        }
        if let Some(i) = first_repeat(request.iter().map(|f| f.name.as_str())) {
            let message = format!("Duplicate parameter {} in message {name}", request[i].name);
            return Err(self.error(ErrorKind::Duplicate, request[i].span, message));
        }
        let mut message = Message {
            doc,
            props,
            request,
            response,
            errors: None,
            one_way: false,
        };
        match inner.next() {
            Some(p) if p.as_rule() == Rule::oneway => {
                if !matches!(&message.response, TypeExpr::Primitive { name: "null", .. }) {
                    let text = format!("one-way message '{name}' must return void");
                    return Err(self.error(ErrorKind::OnewayNotVoid, result_span, text));
                }
                message.one_way = true;
            }
            Some(p) => {
                let errors = p
                    .into_inner()
                    .skip(1)
                    .map(|id| self.reference(&id, namespace))
                    .collect();
                message.errors = Some(errors);
            }
            None => {}
        }
        Ok((name, message))
    }

    // ---- types ---------------------------------------------------------------------------

    /// A type with its annotations, from the next pairs of `inner`.
    fn full_type<'i>(
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
    fn plain_type(
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
    fn reference(&self, pair: &Pair<'_, Rule>, namespace: Option<&str>) -> TypeExpr {
        let written = identifier(pair);
        let name = if written.contains('.') {
            written
        } else {
            full_name(namespace, &written)
        };
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
    fn finish(&self, written: Written, null_last: bool) -> TypeExpr {
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

    // ---- annotations and values ----------------------------------------------------------

    /// Consumes the leading `annotation` pairs of `inner`.
    fn annotations_from<'i>(
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

    fn int_literal(&self, pair: &Pair<'_, Rule>) -> Result<i64> {
        literal::integer(pair.as_str())
            .map_err(|m| self.error(ErrorKind::InvalidNumber, self.span(pair), m))
    }

    /// A JSON value written in IDL (numbers keep their kind: integers stay integers).
    fn json(&self, pair: Pair<'_, Rule>) -> Result<Value> {
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

/// The index of the first name that repeats an earlier one. Short lists (the usual record,
/// enum or union) are compared pairwise, which is faster than hashing; long ones go through
/// a hash set, which keeps the check linear.
fn first_repeat<'a>(names: impl ExactSizeIterator<Item = &'a str> + Clone) -> Option<usize> {
    if names.len() <= 32 {
        let earlier = names.clone();
        names
            .enumerate()
            .position(|(i, name)| earlier.clone().take(i).any(|e| e == name))
    } else {
        let mut seen = HashSet::with_capacity(names.len());
        names.into_iter().position(|name| !seen.insert(name))
    }
}

/// The text of an identifier with its backticks removed.
fn identifier(pair: &Pair<'_, Rule>) -> String {
    let text = pair.as_str();
    if text.contains('`') {
        text.replace('`', "")
    } else {
        text.to_owned()
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
