//! Building the green tree: a stack of open nodes over a flat list of finished children, as
//! rowan's `GreenNodeBuilder` keeps them, with cheaper sharing of equal tokens and nodes.
//!
//! A file repeats most of its tokens (indentation, line breaks, brackets, keywords, the same
//! field names and comments) and many small nodes (`long`, `null`); sharing them saves an
//! allocation when the tree is built and a free when it is dropped. Rowan's builder shares
//! them through a hash map holding every token and node ever built, which costs a hash of
//! each text and a probe of a growing table. Here each kind of element has a small table
//! indexed by a cheap hash, one entry a slot, a new element replacing the old: a repeat
//! that is near enough to its last use is shared, a rarer one is built anew. Which are
//! shared does not show in the tree, only in its memory.

use rowan::{GreenNode, GreenNodeData, GreenToken, GreenTokenData, NodeOrToken};

use crate::syntax::SyntaxKind;

/// A finished child: a node or a token.
type Element = NodeOrToken<GreenNode, GreenToken>;

/// A point where a node may be started later: the number of finished children then.
#[derive(Clone, Copy, Debug)]
pub(super) struct Checkpoint(usize);

/// Builds one green tree from tokens and the starts and ends of nodes.
pub(super) struct Builder {
    /// The open nodes: kind, and where their children start in `children`.
    parents: Vec<(SyntaxKind, usize)>,
    /// The finished children of all open nodes, in order.
    children: Vec<Element>,
    /// Tokens of one byte (punctuation, a space, a line break, a digit), the commonest, by
    /// their byte: found without hashing.
    bytes: Slots<(SyntaxKind, GreenToken)>,
    /// Tokens of two to sixteen bytes, by the hash of their key.
    tokens: Slots<(TokenKey, GreenToken)>,
    nodes: Slots<GreenNode>,
}

/// Nodes with more children than this are not looked for in the table: a declaration's body
/// is seldom repeated, and hashing it would cost more than it saves. Below it are the nodes
/// that do repeat: types (a whole `union { null, string }`), defaults, fields (`string
/// name;`), whose sharing saves as much as the sharing of tokens (rowan stops at three
/// children, which leaves most of them out).
const MAX_SHARED_CHILDREN: usize = 16;

impl Builder {
    /// A builder for a text of `text_len` bytes, whose tables grow with the text: a small
    /// file (an editor parses it at each change) does not pay for tables it cannot fill.
    pub(super) fn new(text_len: usize) -> Builder {
        let slots = (text_len / 64).next_power_of_two().clamp(256, MAX_SLOTS);
        Builder {
            parents: Vec::new(),
            children: Vec::new(),
            bytes: Slots::new(256),
            tokens: Slots::new(slots),
            nodes: Slots::new(slots),
        }
    }

    /// Adds a token to the current node.
    pub(super) fn token(&mut self, kind: SyntaxKind, text: &str) {
        let token = if let &[byte] = text.as_bytes() {
            shared_token(self.bytes.at(usize::from(byte)), kind, kind, text)
        } else if let Some(key) = TokenKey::of(kind, text) {
            shared_token(self.tokens.slot(key.hash()), key, kind, text)
        } else {
            GreenToken::new(kind.into(), text)
        };
        self.children.push(NodeOrToken::Token(token));
    }

    /// Opens a node; what is added until it is finished goes inside.
    pub(super) fn start_node(&mut self, kind: SyntaxKind) {
        self.parents.push((kind, self.children.len()));
    }

    /// The point before the next child of the current node.
    pub(super) fn checkpoint(&self) -> Checkpoint {
        Checkpoint(self.children.len())
    }

    /// Opens a node that takes in what was added since `checkpoint`.
    pub(super) fn start_node_at(&mut self, checkpoint: Checkpoint, kind: SyntaxKind) {
        debug_assert!(checkpoint.0 <= self.children.len());
        debug_assert!(self
            .parents
            .last()
            .is_none_or(|&(_, start)| checkpoint.0 >= start));
        self.parents.push((kind, checkpoint.0));
    }

    /// Closes the current node.
    pub(super) fn finish_node(&mut self) {
        let Some((kind, start)) = self.parents.pop() else {
            return;
        };
        let node = self.node(kind, start);
        self.children.push(NodeOrToken::Node(node));
    }

    /// The node of `kind` over the children from `start`, shared with an equal one built
    /// before when the table has it.
    fn node(&mut self, kind: SyntaxKind, start: usize) -> GreenNode {
        let count = self.children.len() - start;
        if count == 0 || count > MAX_SHARED_CHILDREN {
            return GreenNode::new(kind.into(), self.children.drain(start..));
        }
        let children = &self.children[start..];
        let slot = self.nodes.slot(node_hash(kind, children));
        match slot {
            Some(shared) if same_node(shared, kind, children) => {
                let shared = shared.clone();
                self.children.truncate(start);
                shared
            }
            _ => slot
                .insert(GreenNode::new(kind.into(), self.children.drain(start..)))
                .clone(),
        }
    }

    /// The root, once every node is closed: the one child left.
    pub(super) fn finish(mut self) -> GreenNode {
        debug_assert!(self.parents.is_empty() && self.children.len() == 1);
        match self.children.pop() {
            Some(NodeOrToken::Node(root)) => root,
            _ => GreenNode::new(SyntaxKind::SourceFile.into(), self.children.drain(..)),
        }
    }
}

/// The token in `slot` if it was built for `key`, else a new token that replaces it there.
fn shared_token<K: PartialEq>(
    slot: &mut Option<(K, GreenToken)>,
    key: K,
    kind: SyntaxKind,
    text: &str,
) -> GreenToken {
    match slot {
        Some((old, shared)) if *old == key => shared.clone(),
        _ => new_token(slot, key, kind, text),
    }
}

/// A new token, put in `slot` for `key`: out of line, as most tokens are found shared.
#[cold]
fn new_token<K>(
    slot: &mut Option<(K, GreenToken)>,
    key: K,
    kind: SyntaxKind,
    text: &str,
) -> GreenToken {
    let token = GreenToken::new(kind.into(), text);
    *slot = Some((key, token.clone()));
    token
}

/// A table of recently built elements, one a slot.
struct Slots<T> {
    slots: Vec<Option<T>>,
}

/// Most slots in a table indexed by a hash: about as many as a big file has different small
/// tokens.
const MAX_SLOTS: usize = 1 << 12;

impl<T> Slots<T> {
    /// A table of `len` empty slots (a power of two).
    fn new(len: usize) -> Slots<T> {
        debug_assert!(len.is_power_of_two());
        Slots {
            slots: std::iter::repeat_with(|| None).take(len).collect(),
        }
    }

    /// The slot at `index` (less than the table's length).
    fn at(&mut self, index: usize) -> &mut Option<T> {
        &mut self.slots[index]
    }

    /// The slot of the elements with hash `hash`.
    fn slot(&mut self, hash: u64) -> &mut Option<T> {
        // The top bits of a multiplicative hash are its best mixed.
        let bits = self.slots.len().trailing_zeros();
        self.at((hash >> (64 - bits)) as usize)
    }
}

/// The odd constant of rustc's own multiplicative hash (`FxHasher`).
const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

fn mix(hash: u64, word: u64) -> u64 {
    (hash.rotate_left(5) ^ word).wrapping_mul(SEED)
}

/// A token of at most sixteen bytes, whole in three words: its kind and length, and its
/// first and last eight bytes (or four, or the three bytes of a shorter text), which
/// together hold every byte. Comparing keys compares tokens, without reading their text.
/// Longer tokens (comments, strings) seldom repeat and are not shared.
#[derive(Clone, Copy, PartialEq, Eq)]
struct TokenKey {
    kind_and_len: u32,
    head: u64,
    tail: u64,
}

impl TokenKey {
    fn of(kind: SyntaxKind, text: &str) -> Option<TokenKey> {
        let bytes = text.as_bytes();
        let len = bytes.len();
        let (head, tail) = match len {
            0 => (0, 0),
            1..=3 => {
                let (first, middle, last) = (bytes[0], bytes[len / 2], bytes[len - 1]);
                (u64::from_le_bytes([first, middle, last, 0, 0, 0, 0, 0]), 0)
            }
            4..=7 => (u64::from(word4(bytes)), u64::from(word4(&bytes[len - 4..]))),
            8..=16 => (word8(bytes), word8(&bytes[len - 8..])),
            _ => return None,
        };
        Some(TokenKey {
            kind_and_len: u32::from(kind as u16) << 8 | len as u32,
            head,
            tail,
        })
    }

    fn hash(self) -> u64 {
        mix(mix(u64::from(self.kind_and_len), self.head), self.tail)
    }
}

/// The first four bytes of `bytes` (which has at least four) as a number.
fn word4(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

/// The first eight bytes of `bytes` (which has at least eight) as a number.
fn word8(bytes: &[u8]) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(word)
}

/// A hash of a node's kind and the identity of its children: equal children are the same
/// shared elements, so a node is equal to another exactly when its children are the same.
fn node_hash(kind: SyntaxKind, children: &[Element]) -> u64 {
    children.iter().fold(kind as u64, |hash, child| {
        mix(hash, element_address(borrowed(child)) as u64)
    })
}

/// Whether `node` is of `kind` with exactly `children`, the same elements.
fn same_node(node: &GreenNode, kind: SyntaxKind, children: &[Element]) -> bool {
    node.kind() == kind.into()
        && node.children().len() == children.len()
        && node
            .children()
            .zip(children)
            .all(|(old, new)| element_address(old) == element_address(borrowed(new)))
}

/// The data of an element, as a node's children are listed.
fn borrowed(element: &Element) -> NodeOrToken<&GreenNodeData, &GreenTokenData> {
    match element {
        NodeOrToken::Node(node) => NodeOrToken::Node(node),
        NodeOrToken::Token(token) => NodeOrToken::Token(token),
    }
}

/// Where the data of an element is, which tells shared elements apart.
fn element_address(element: NodeOrToken<&GreenNodeData, &GreenTokenData>) -> *const () {
    match element {
        NodeOrToken::Node(node) => std::ptr::from_ref(node).cast(),
        NodeOrToken::Token(token) => std::ptr::from_ref(token).cast(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{parse, SyntaxNode};

    /// Every text over `a` and `b` of one to `max` bytes.
    fn words(max: usize) -> Vec<std::string::String> {
        let mut all = vec![std::string::String::new()];
        let mut last = all.clone();
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|w| [format!("{w}a"), format!("{w}b")])
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    #[test]
    fn token_keys_are_equal_exactly_when_the_tokens_are() {
        let mut texts = words(9);
        // Longer texts that differ in one byte only, in the middle included.
        for len in 10..=17 {
            texts.extend((0..len).map(|at| {
                let mut text = "a".repeat(len);
                text.replace_range(at..=at, "b");
                text
            }));
        }
        for a in &texts {
            let key_a = TokenKey::of(SyntaxKind::Ident, a);
            assert_eq!(key_a.is_some(), a.len() <= 16, "{a}");
            assert!(key_a != TokenKey::of(SyntaxKind::String, a) || key_a.is_none());
            for b in &texts {
                let key_b = TokenKey::of(SyntaxKind::Ident, b);
                if key_a.is_some() && key_b.is_some() {
                    assert_eq!(key_a == key_b, a == b, "{a:?} {b:?}");
                }
            }
        }
    }

    /// The fields of the first record of `text`.
    fn fields(text: &str) -> Vec<SyntaxNode> {
        let root = parse(text).syntax();
        let record = root
            .descendants()
            .find(|n| n.kind() == SyntaxKind::Record)
            .unwrap();
        record
            .children()
            .filter(|n| n.kind() == SyntaxKind::Field)
            .collect()
    }

    fn same_green(a: &SyntaxNode, b: &SyntaxNode) -> bool {
        std::ptr::eq::<GreenNodeData>(&*a.green(), &*b.green())
    }

    #[test]
    fn equal_small_nodes_are_shared_and_different_ones_are_not() {
        let text = "protocol P { record R {\n  string memo;\n  string memo;\n  string memos;\n  \
                    /** Doc. */ string memo;\n} }";
        let fields = fields(text);
        assert_eq!(fields.len(), 4);
        assert!(same_green(&fields[0], &fields[1]));
        assert!(!same_green(&fields[0], &fields[2]));
        assert!(!same_green(&fields[0], &fields[3]));
        assert_eq!(fields[3].to_string(), "/** Doc. */ string memo;");
        assert_eq!(parse(text).syntax().to_string(), text);
    }
}
