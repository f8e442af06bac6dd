//! Full names of named types (`a.b.C`): Avro's rule that the namespace is everything before
//! the last dot, in one place for the reader, the JSON import, the JSON writer and the IDL
//! writer. Splitting a written name, joining a namespace and a name, and qualifying a
//! reference with the namespace it is written in are each done here only.

use std::borrow::Cow;

/// `a.b.C` as `Some(("a.b", "C"))`; `None` for a name without a dot.
pub(crate) fn split(full: &str) -> Option<(&str, &str)> {
    full.rsplit_once('.')
}

/// The simple name and namespace a written name declares: a dotted name carries its own
/// namespace (`a.b.C` is `C` in `a.b`), any other name is in `enclosing`.
pub(crate) fn name_in<'a>(
    written: &'a str,
    enclosing: Option<&'a str>,
) -> (&'a str, Option<&'a str>) {
    match split(written) {
        Some((namespace, name)) => (name, Some(namespace)),
        None => (written, enclosing),
    }
}

/// The namespace (none when empty) and the simple name of a full name.
pub(crate) fn namespace_and_name(full: &str) -> (Option<&str>, &str) {
    match split(full) {
        Some((namespace, name)) => (Some(namespace).filter(|ns| !ns.is_empty()), name),
        None => (None, full),
    }
}

/// The simple name of a full name (`C` of `a.b.C`).
pub(crate) fn simple(full: &str) -> &str {
    namespace_and_name(full).1
}

/// `namespace.name`, or `name` without a namespace (none, or empty): borrowed then, so that
/// the writer spells such a reference without a copy.
pub(crate) fn join<'n>(namespace: Option<&str>, name: &'n str) -> Cow<'n, str> {
    match namespace {
        Some(ns) if !ns.is_empty() => Cow::Owned([ns, ".", name].concat()),
        _ => Cow::Borrowed(name),
    }
}

/// The full name a reference written in `namespace` means: a dotted name as written, any
/// other in `namespace`.
pub(crate) fn qualify(reference: &str, namespace: Option<&str>) -> String {
    match split(reference) {
        Some(_) => reference.to_owned(),
        None => join(namespace, reference).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_join() {
        assert_eq!(split("a.b.C"), Some(("a.b", "C")));
        assert_eq!(split("C"), None);
        assert_eq!(name_in("a.b.C", Some("x")), ("C", Some("a.b")));
        assert_eq!(name_in("C", Some("x")), ("C", Some("x")));
        assert_eq!(namespace_and_name("a.b.C"), (Some("a.b"), "C"));
        assert_eq!(namespace_and_name(".C"), (None, "C"));
        assert_eq!(simple("a.b.C"), "C");
        assert_eq!(join(Some("a.b"), "C"), "a.b.C");
        assert_eq!(join(Some(""), "C"), "C");
        assert_eq!(join(None, "C"), "C");
        assert_eq!(qualify("x.C", Some("a")), "x.C");
        assert_eq!(qualify("C", Some("a")), "a.C");
        assert_eq!(qualify("C", Some("")), "C");
    }
}
