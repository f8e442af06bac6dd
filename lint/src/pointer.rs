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

    /// `pointer`, followed by `last` if given, as text: its segments gathered from the end
    /// (on the stack for a pointer of usual depth) and written forward into one string,
    /// without formatting machinery.
    fn text_ending(&self, pointer: Pointer, last: Option<Segment<'_>>) -> String {
        const NEAR: usize = 16;
        let mut near = [Segment::Index(0); NEAR];
        let mut far = Vec::new();
        let (mut depth, mut len) = (0, 0);
        for segment in last.into_iter().chain(self.segments_back(pointer)) {
            match near.get_mut(depth) {
                Some(slot) => *slot = segment,
                None => far.push(segment),
            }
            depth += 1;
            len += 1 + segment.len_hint();
        }
        let mut out = String::with_capacity(len);
        let near = near[..depth.min(NEAR)].iter().rev();
        for segment in far.iter().rev().chain(near) {
            out.push('/');
            segment.push_to(&mut out);
        }
        out
    }
}

impl Segment<'_> {
    /// About the length the segment takes written out (exact unless escaped or a long index).
    fn len_hint(self) -> usize {
        match self {
            Segment::Key(key) => key.len(),
            Segment::Index(_) => 4,
        }
    }

    /// Appends the segment to `out`, escaped as RFC 6901 asks (`~` as `~0`, `/` as `~1`).
    fn push_to(self, out: &mut String) {
        match self {
            Segment::Key(key) if !key.contains(['~', '/']) => out.push_str(key),
            Segment::Key(key) => {
                for c in key.chars() {
                    match c {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        c => out.push(c),
                    }
                }
            }
            Segment::Index(index) => {
                let mut digits = [0; 20];
                let mut start = digits.len();
                let mut rest = index;
                loop {
                    start -= 1;
                    digits[start] = b'0' + (rest % 10) as u8;
                    rest /= 10;
                    if rest == 0 {
                        break;
                    }
                }
                out.extend(digits[start..].iter().map(|&digit| char::from(digit)));
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
        // Deeper than the segments gathered on the stack.
        let mut at = Pointers::ROOT;
        for index in 0..40 {
            at = pointers.child(at, Segment::Index(index));
        }
        let all: String = (0..40).map(|index| format!("/{index}")).collect();
        assert_eq!(pointers.child_text(at, "a"), all + "/a");
    }
}
