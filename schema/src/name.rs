//! Full names: splitting, joining and validating them (Avro specification, "Names").

use super::Name;

/// Type names that are written in full even inside their own namespace, because a bare
/// `record` or `int` would read as a type keyword.
const AVRO_TYPE_NAMES: [&str; 14] = [
    "record", "enum", "array", "map", "union", "fixed", "string", "bytes", "int", "long", "float",
    "double", "boolean", "null",
];

impl Name {
    /// A name from its parts; an empty namespace is the null namespace.
    pub fn new(name: impl Into<String>, namespace: Option<&str>) -> Self {
        Name {
            name: name.into(),
            namespace: namespace.filter(|ns| !ns.is_empty()).map(str::to_owned),
        }
    }

    /// Reads `name` as written in a schema: a dotted name is a full name (the namespace is what
    /// comes before the last dot, the null namespace for a leading dot), an undotted name takes
    /// `enclosing_namespace` (`None` or `""` for the null namespace).
    pub fn parse(name: &str, enclosing_namespace: Option<&str>) -> Self {
        match name.rsplit_once('.') {
            Some((namespace, simple)) => Name::new(simple, Some(namespace)),
            None => Name::new(name, enclosing_namespace),
        }
    }

    /// `namespace.name`, or just `name` in the null namespace.
    pub fn full_name(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{ns}.{}", self.name),
            None => self.name.clone(),
        }
    }

    /// How the Java tools spell a reference to this name from inside `enclosing_namespace`:
    /// the simple name when the namespaces agree (and the name is not a type keyword), else the
    /// full name.
    pub fn relative_to(&self, enclosing_namespace: Option<&str>) -> String {
        let same = self.namespace.is_some() && self.namespace.as_deref() == enclosing_namespace;
        if same && !AVRO_TYPE_NAMES.contains(&self.name.as_str()) {
            self.name.clone()
        } else {
            self.full_name()
        }
    }

    /// Why this name is not a valid type name, if it is not.
    pub(crate) fn invalid_reason(&self) -> Option<String> {
        if let Some(ns) = &self.namespace {
            for part in ns.split('.') {
                if let Some(reason) = invalid_simple_name(part) {
                    return Some(format!("namespace part {part:?}: {reason}"));
                }
            }
        }
        if let Some(reason) = invalid_simple_name(&self.name) {
            return Some(reason);
        }
        if super::SchemaKind::primitive(&self.name).is_some() {
            return Some(format!("{:?} is a primitive type name", self.name));
        }
        None
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{ns}.{}", self.name),
            None => f.write_str(&self.name),
        }
    }
}

/// Why `name` is not a valid simple name (type name, namespace part, field name or enum
/// symbol), if it is not. Letters and digits beyond ASCII are accepted, as the Java reference
/// does.
pub(crate) fn invalid_simple_name(name: &str) -> Option<String> {
    let mut chars = name.chars();
    match chars.next() {
        None => Some("a name may not be empty".to_owned()),
        Some(first) if !(first.is_alphabetic() || first == '_') => {
            Some(format!("{name:?} must start with a letter or '_'"))
        }
        Some(_) => chars
            .find(|c| !(c.is_alphanumeric() || *c == '_'))
            .map(|c| format!("{name:?} may contain only letters, digits and '_', not {c:?}")),
    }
}
