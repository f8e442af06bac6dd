//! The names union branches are known by in the JSON encoding: a named type's full name,
//! any other type's type name.

use crate::schema::{Name, Schema, SchemaKind};

/// The key a value of `branch` is wrapped in.
pub(super) fn branch_name(branch: &Schema) -> String {
    match &branch.kind {
        SchemaKind::Named(name) => name.full_name(),
        kind => type_name(kind).to_owned(),
    }
}

/// Whether `label`, the key of a union value, names `branch`. Compares without building the
/// branch's name, as it runs for every branch of every union value read.
pub(super) fn names(branch: &Schema, label: &str) -> bool {
    match &branch.kind {
        SchemaKind::Named(name) => is_full_name(name, label),
        kind => type_name(kind) == label,
    }
}

/// The type name of an anonymous kind (callers name named types themselves). A union directly
/// inside a union, which the schema model refuses, is named `union` here rather than refused
/// a second time.
pub(super) fn type_name(kind: &SchemaKind) -> &'static str {
    match kind {
        SchemaKind::Array(_) => "array",
        SchemaKind::Map(_) => "map",
        SchemaKind::Union(_) => "union",
        other => other.primitive_name().unwrap_or_default(),
    }
}

/// Whether `label` is `name`'s full name, `namespace.name` or `name`.
fn is_full_name(name: &Name, label: &str) -> bool {
    match &name.namespace {
        Some(namespace) => label
            .strip_prefix(namespace.as_str())
            .and_then(|rest| rest.strip_prefix('.'))
            .is_some_and(|simple| simple == name.name),
        None => label == name.name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_branches_go_by_full_name_others_by_type_name() {
        let nested = Schema::named(Name::new("Line", Some("shop.orders")));
        assert_eq!(branch_name(&nested), "shop.orders.Line");
        assert!(names(&nested, "shop.orders.Line"));
        assert!(!names(&nested, "Line"));
        assert!(!names(&nested, "shop.ordersXLine"));
        assert!(!names(&nested, "shop.orders.Lines"));
        let plain = Schema::named(Name::new("Line", None));
        assert!(names(&plain, "Line"));
        let items = Schema::new(SchemaKind::Array(Box::new(Schema::new(SchemaKind::Int))));
        assert_eq!(branch_name(&items), "array");
        assert!(names(&Schema::new(SchemaKind::Long), "long"));
    }
}
