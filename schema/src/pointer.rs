//! Where the parser is in schema JSON: a chain of segments on the parser's own stack. The
//! JSON Pointer's text is written only when an error reports it, so reading a valid schema
//! of many thousands of nodes builds none of their pointers.

use std::fmt::{self, Write as _};

/// The place of a node: the document's root, or a key or index inside another place.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pointer<'a> {
    Root,
    Key(&'a Pointer<'a>, &'a str),
    Index(&'a Pointer<'a>, usize),
}

impl<'a> Pointer<'a> {
    /// The member `key` of the object here.
    pub fn key(&'a self, key: &'a str) -> Pointer<'a> {
        Pointer::Key(self, key)
    }

    /// The element `index` of the array here.
    pub fn index(&'a self, index: usize) -> Pointer<'a> {
        Pointer::Index(self, index)
    }
}

/// The RFC 6901 text. The chain is as deep as the schema nests, so it is walked in a loop
/// rather than by recursion, which could exhaust the stack an error is reported on.
impl fmt::Display for Pointer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut segments = Vec::new();
        let mut at = self;
        loop {
            match at {
                Pointer::Root => break,
                Pointer::Key(parent, _) | Pointer::Index(parent, _) => {
                    segments.push(at);
                    at = parent;
                }
            }
        }
        for segment in segments.into_iter().rev() {
            f.write_char('/')?;
            match segment {
                Pointer::Key(_, key) => write_escaped(f, key)?,
                Pointer::Index(_, index) => write!(f, "{index}")?,
                Pointer::Root => {}
            }
        }
        Ok(())
    }
}

/// `key` with `~` and `/` escaped as `~0` and `~1`.
fn write_escaped(f: &mut fmt::Formatter<'_>, key: &str) -> fmt::Result {
    for c in key.chars() {
        match c {
            '~' => f.write_str("~0")?,
            '/' => f.write_str("~1")?,
            c => f.write_char(c)?,
        }
    }
    Ok(())
}

impl From<Pointer<'_>> for String {
    fn from(pointer: Pointer<'_>) -> String {
        pointer.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_rfc_6901_text() {
        let root = Pointer::Root;
        assert_eq!(root.to_string(), "");
        let types = root.key("types");
        let third = types.index(3);
        let odd = third.key("a/b~c");
        assert_eq!(odd.to_string(), "/types/3/a~1b~0c");
    }
}
