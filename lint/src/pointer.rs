//! The JSON Pointers of the walk's nodes, kept as a tree of segments and written out only for
//! what a finding is about: the walk passes every node of the schema, and most have none.

use std::fmt;

use crate::json_text::push_segment;

/// One step of a pointer: an object member or an array element.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Segment<'v> {
    Key(&'v str),
    Index(usize),
}

impl fmt::Display for Segment<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Segment::Key(key) => f.write_str(key),
            Segment::Index(index) => write!(f, "{index}"),
        }
    }
}

/// A pointer recorded in [`Pointers`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pointer(usize);

/// Every pointer of one walk, each as its parent and last segment.
#[derive(Debug)]
pub(crate) struct Pointers<'v> {
    /// The parent and last segment of each pointer but the root (pointer `i` is `links[i - 1]`).
    links: Vec<(Pointer, Segment<'v>)>,
}

impl<'v> Pointers<'v> {
    /// The whole document, `""`.
    pub const ROOT: Pointer = Pointer(0);

    pub fn new() -> Self {
        Pointers { links: Vec::new() }
    }

    /// The pointer `parent` extended by `segment`.
    pub fn child(&mut self, parent: Pointer, segment: Segment<'v>) -> Pointer {
        self.links.push((parent, segment));
        Pointer(self.links.len())
    }

    /// The pointer as text.
    pub fn text(&self, pointer: Pointer) -> String {
        let mut segments = Vec::new();
        let mut at = pointer;
        while at != Self::ROOT {
            let (parent, segment) = self.links[at.0 - 1];
            segments.push(segment);
            at = parent;
        }
        let mut out = String::new();
        for segment in segments.iter().rev() {
            push_segment(&mut out, segment);
        }
        out
    }

    /// The pointer extended by `segment`, as text.
    pub fn child_text(&self, pointer: Pointer, segment: impl fmt::Display) -> String {
        let mut out = self.text(pointer);
        push_segment(&mut out, segment);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_are_written_with_escapes() {
        let mut pointers = Pointers::new();
        let messages = pointers.child(Pointers::ROOT, Segment::Key("messages"));
        let message = pointers.child(messages, Segment::Key("a/b~c"));
        let request = pointers.child(message, Segment::Key("request"));
        let first = pointers.child(request, Segment::Index(0));
        assert_eq!(pointers.text(Pointers::ROOT), "");
        assert_eq!(pointers.text(first), "/messages/a~1b~0c/request/0");
        assert_eq!(
            pointers.child_text(first, "type"),
            "/messages/a~1b~0c/request/0/type"
        );
    }
}
