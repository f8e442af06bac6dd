//! The rules over schema JSON, one module per concern, all reporting through [`Context`].

mod defaults;
mod docs;
mod logical;
mod money;
mod naming;
mod unions;
mod unused;

pub(crate) use unused::Declared;

use avdl2rs_schema::{Schema, SchemaSet};

use crate::document::{Document, FieldSite, Node, Origin};
use crate::finding::{Finding, Subject};
use crate::model::Model;
use crate::pointer::Segment;
use crate::rule::{Level, Rule};
use crate::settings::Settings;

/// What every rule reads, and where findings go.
pub(crate) struct Context<'a, 'v> {
    pub doc: &'a Document<'v>,
    /// The schema model of the document, with field defaults left out (so that a wrong
    /// default does not stop the other rules), built when first asked for.
    model: &'a Model<'a, 'v>,
    /// Where the document comes from: compiled IDL has had its defaults checked already.
    pub origin: Origin,
    pub settings: &'a Settings,
    pub findings: Vec<Finding>,
}

impl<'a, 'v> Context<'a, 'v> {
    /// A context without findings yet.
    pub fn new(
        doc: &'a Document<'v>,
        model: &'a Model<'a, 'v>,
        origin: Origin,
        settings: &'a Settings,
    ) -> Self {
        Context {
            doc,
            model,
            origin,
            settings,
            findings: Vec::new(),
        }
    }

    /// The schema model; `None` only for compiled IDL the model does not take.
    pub fn set(&self) -> Option<&'a SchemaSet> {
        self.model.set()
    }

    /// Whether `rule` runs at all.
    pub fn runs(&self, rule: Rule) -> bool {
        self.settings.level(rule) != Level::Allow
    }

    /// Reports a finding of `rule` unless the settings allow it.
    pub fn report(&mut self, rule: Rule, path: String, subject: Subject, message: String) {
        self.report_with_help(rule, path, subject, message, None);
    }

    /// [`Context::report`] with a help line.
    pub fn report_with_help(
        &mut self,
        rule: Rule,
        path: String,
        subject: Subject,
        message: String,
        help: Option<String>,
    ) {
        if !self.runs(rule) {
            return;
        }
        self.findings.push(Finding {
            rule,
            level: self.settings.level(rule),
            message,
            help,
            path,
            subject,
            span: 0..0,
            line: 1,
            column: 1,
        });
    }

    /// The model's schema of a field.
    pub fn field_schema(&self, field: &FieldSite<'_>) -> Option<&'a Schema> {
        self.model.field_schema(field)
    }

    /// What a type expression is about: the type of the innermost field it is in, else
    /// the message it is in, else only the expression.
    pub fn node_subject(&self, node: &Node<'_>) -> Subject {
        if let Some(field) = node.field {
            let field = &self.doc.fields[field];
            return Subject::FieldType(self.record_name(field), field.name.to_owned());
        }
        // The first two segments of the pointer, read from its end: `/messages/{name}/…`.
        let (mut first, mut second) = (None, None);
        for segment in self.doc.pointers.segments_back(node.path) {
            (first, second) = (Some(segment), first);
        }
        match (first, second) {
            (Some(Segment::Key("messages")), Some(Segment::Key(name))) => {
                Subject::Message(name.to_owned())
            }
            _ => Subject::Node,
        }
    }

    /// The full name of a field's record.
    pub fn record_name(&self, field: &FieldSite<'_>) -> String {
        self.doc.definitions[field.record].full_name.clone()
    }
}

/// Runs every rule over the document; `declared` lists the named types an IDL source
/// defines, which its JSON may leave out.
pub(crate) fn run(context: &mut Context<'_, '_>, declared: &Declared<'_>) {
    defaults::check(context);
    docs::check(context);
    naming::check(context);
    logical::check(context);
    money::check(context);
    unions::check(context);
    unused::check(context, declared);
}
