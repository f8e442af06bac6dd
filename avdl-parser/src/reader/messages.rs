//! The messages of a protocol.

use pest::iterators::Pair;

use super::{first_repeat, identifier, FileReader, Result};
use crate::annotations::{Place, Split};
use crate::ast::{Field, Message, Props, TypeExpr};
use crate::error::ErrorKind;
use crate::grammar::Rule;

impl FileReader<'_, '_, '_> {
    pub(super) fn message(
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
}
