//! Name rules: which names Avro accepts, and the names the reference rejects for types.

use crate::full_name;

/// Names the reference refuses for a declared type or protocol (`Illegal name: X`). The list
/// is the reference's, typo included: `localtimestamp_ms` is refused, `local_timestamp_ms` not.
const ILLEGAL_TYPE_NAMES: [&str; 13] = [
    "boolean",
    "int",
    "long",
    "float",
    "double",
    "bytes",
    "string",
    "null",
    "date",
    "time_ms",
    "timestamp_ms",
    "localtimestamp_ms",
    "uuid",
];

/// Avro's own type names; a reference to a named type with one of these simple names is always
/// written fully qualified so that it cannot be read as the built-in type.
const AVRO_TYPE_NAMES: [&str; 14] = [
    "record", "enum", "array", "map", "union", "fixed", "string", "bytes", "int", "long", "float",
    "double", "boolean", "null",
];

/// The primitive type names, which an unqualified name in the null namespace may also mean.
pub(crate) const PRIMITIVES: [&str; 8] = [
    "null", "boolean", "int", "long", "float", "double", "bytes", "string",
];

/// The words the IDL reads as a built-in type where a type is expected: the primitive types
/// and the logical-type keywords.
pub(crate) const TYPE_WORDS: [&str; 13] = [
    "null",
    "boolean",
    "int",
    "long",
    "float",
    "double",
    "bytes",
    "string",
    "date",
    "time_ms",
    "timestamp_ms",
    "local_timestamp_ms",
    "uuid",
];

/// Whether `name` is one of Avro's type names (see [`AVRO_TYPE_NAMES`]).
pub(crate) fn is_avro_type_name(name: &str) -> bool {
    AVRO_TYPE_NAMES.contains(&name)
}

/// The `&'static` name of a primitive type, if `name` is one.
pub(crate) fn primitive(name: &str) -> Option<&'static str> {
    PRIMITIVES.iter().find(|p| **p == name).copied()
}

/// Checks a protocol name: only the reference's list of refused names applies.
pub(crate) fn check_protocol_name(name: &str) -> Result<(), String> {
    if ILLEGAL_TYPE_NAMES.contains(&name) {
        return Err(format!("Illegal name: {name}"));
    }
    Ok(())
}

/// Checks the simple name and namespace of a declared named type.
pub(crate) fn check_type_name(name: &str, namespace: Option<&str>) -> Result<(), String> {
    check_protocol_name(name)?;
    check_name(name)?;
    if let Some(ns) = namespace {
        check_namespace(ns)?;
    }
    Ok(())
}

/// Checks every dot-separated part of a namespace.
pub(crate) fn check_namespace(ns: &str) -> Result<(), String> {
    for part in ns.split('.') {
        check_name(part).map_err(|e| format!("Namespace part \"{part}\" is invalid: {e}"))?;
    }
    Ok(())
}

/// Avro's name rule for names, fields and symbols: a letter or `_`, then letters, digits, `_`.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return Err(format!("Illegal initial character: {name}")),
    }
    if chars.any(|c| !(c.is_alphanumeric() || c == '_')) {
        return Err(format!("Illegal character in: {name}"));
    }
    Ok(())
}

/// The defined name closest to `wanted` by edit distance, if any is reasonably close.
pub(crate) fn closest<'a>(
    wanted: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = wanted.chars().count() / 3 + 2;
    nearest(wanted, candidates)
        .filter(|(d, _)| *d <= limit)
        .map(|(_, c)| c)
}

/// The defined name or built-in type ([`TYPE_WORDS`]) closest to the type name `wanted`. A
/// built-in type must be closer (a third of the name's letters) than a defined name, so that a
/// short name is not taken for whichever primitive has as many letters.
pub(crate) fn closest_type<'a>(
    wanted: &str,
    defined: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = full_name::simple(wanted).chars().count() / 3;
    let built_in = nearest(wanted, TYPE_WORDS.into_iter()).filter(|(d, _)| *d <= limit);
    let defined = closest(wanted, defined).and_then(|c| nearest(wanted, std::iter::once(c)));
    [built_in, defined]
        .into_iter()
        .flatten()
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The candidate closest to `wanted`, by full or simple name, with its distance.
fn nearest<'a>(
    wanted: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<(usize, &'a str)> {
    candidates
        .map(|c| {
            (
                edit_distance(wanted, c).min(edit_distance(
                    full_name::simple(wanted),
                    full_name::simple(c),
                )),
                c,
            )
        })
        .min_by_key(|(d, _)| *d)
}

/// Levenshtein distance over chars.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avro_name_rule() {
        assert!(check_name("_x1").is_ok());
        assert!(check_name("Été").is_ok());
        assert_eq!(
            check_name("9x"),
            Err("Illegal initial character: 9x".into())
        );
        assert_eq!(check_name("a-b"), Err("Illegal character in: a-b".into()));
        assert_eq!(
            check_namespace("a.1b"),
            Err("Namespace part \"1b\" is invalid: Illegal initial character: 1b".into())
        );
        assert_eq!(
            check_type_name("int", None),
            Err("Illegal name: int".into())
        );
        assert!(check_type_name("local_timestamp_ms", None).is_ok());
    }

    #[test]
    fn suggestions_pick_the_closest_name() {
        let names = ["org.a.Customer", "org.a.Order"];
        assert_eq!(
            closest("org.a.Custmer", names.into_iter()),
            Some("org.a.Customer")
        );
        assert_eq!(closest("org.a.Zzzzzzzzzz", names.into_iter()), None);
    }
}
