//! The JSON Pointers of the walk's nodes, kept as a tree of segments and written out only for
//! what a finding is about: the walk passes every node of the schema, and most have none.

/// One step of a pointer: an object member or an array element.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Segment<'v> {
    Key(&'v str),
    Index(usize),
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
        self.text_ending(pointer, None)
    }

    /// The pointer extended by member `key`, as text.
    pub fn child_text(&self, pointer: Pointer, key: &str) -> String {
        self.text_ending(pointer, Some(Segment::Key(key)))
    }

    /// The segments of `pointer`, from its last to its first.
    pub fn segments_back(&self, pointer: Pointer) -> impl Iterator<Item = Segment<'v>> + '_ {
        let mut at = pointer;
        std::iter::from_fn(move || {
            let (parent, segment) = *self.links.get(at.0.checked_sub(1)?)?;
            at = parent;
            Some(segment)
        })
    }

    /// `pointer`, followed by `last` if given, written from its end back into a buffer
    /// of the exact length: one allocation, and no formatting machinery.
    fn text_ending(&self, pointer: Pointer, last: Option<Segment<'_>>) -> String {
        let back = || last.into_iter().chain(self.segments_back(pointer));
        let len = back().map(|segment| 1 + segment.written_len()).sum();
        let mut out = vec![0; len];
        let mut end = len;
        for segment in back() {
            let start = end - segment.written_len();
            segment.write(&mut out[start..end]);
            out[start - 1] = b'/';
            end = start - 1;
        }
        String::from_utf8(out).expect("a pointer is written from whole UTF-8 segments")
    }
}

impl Segment<'_> {
    /// The length of the segment escaped as RFC 6901 asks (`~` as `~0`, `/` as `~1`).
    fn written_len(self) -> usize {
        match self {
            Segment::Key(key) => {
                key.len() + key.bytes().filter(|b| matches!(b, b'~' | b'/')).count()
            }
            Segment::Index(index) => index.checked_ilog10().unwrap_or(0) as usize + 1,
        }
    }

    /// Writes the escaped segment into `out`, which is [`Segment::written_len`] long (as long
    /// as the key when there is nothing to escape).
    fn write(self, out: &mut [u8]) {
        match self {
            Segment::Key(key) if out.len() == key.len() => out.copy_from_slice(key.as_bytes()),
            Segment::Key(key) => {
                let mut at = 0;
                for byte in key.bytes() {
                    let escaped: &[u8] = match byte {
                        b'~' => b"~0",
                        b'/' => b"~1",
                        _ => std::slice::from_ref(&byte),
                    };
                    out[at..at + escaped.len()].copy_from_slice(escaped);
                    at += escaped.len();
                }
            }
            Segment::Index(mut index) => {
                for digit in out.iter_mut().rev() {
                    *digit = b'0' + (index % 10) as u8;
                    index /= 10;
                }
            }
        }
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
        let mut at = Pointers::ROOT;
        for index in [0, 9, 10, 99, 100, 12345, usize::MAX] {
            at = pointers.child(at, Segment::Index(index));
        }
        let deep = format!("/0/9/10/99/100/12345/{}", usize::MAX);
        assert_eq!(pointers.text(at), deep);
        let empty = pointers.child(at, Segment::Key(""));
        assert_eq!(
            pointers.child_text(empty, "\u{e9}~/"),
            deep + "//\u{e9}~0~1"
        );
    }
}
