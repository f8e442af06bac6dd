//! The reader's nesting limits on generated code: a recursive generated type enters one
//! nesting level per value, so hostile data stops at the depth limit, while a type that cannot
//! hold itself enters none (its depth is fixed by the schema, and skipping the bookkeeping is
//! what keeps the limits free for the common, non-recursive message).

use avdl2rs::codec::{DecodeLimits, Reader};
use avdl2rs::{Avro, AvroDecode, DecodeErrorKind};

use crate::snapshot_types as generated;
use generated::namespaces::com::example::common::Money;
use generated::recursion::{LinkedList, Tree};

/// `LinkedList` of `links` values, each 0: value 0, then union branch 1 (the next list), and
/// branch 0 (null) at the end.
fn chain(links: usize) -> Vec<u8> {
    let mut bytes = [0u8, 2].repeat(links - 1);
    bytes.extend([0, 0]);
    bytes
}

fn with_depth(bytes: &[u8], max_depth: usize) -> Reader<'_> {
    let limits = DecodeLimits {
        max_depth,
        ..DecodeLimits::for_input_len(bytes.len())
    };
    Reader::with_limits(bytes, limits)
}

#[test]
fn a_recursive_generated_type_stops_at_the_depth_limit() {
    let five = chain(5);
    assert!(LinkedList::decode(&mut with_depth(&five, 5)).is_ok());
    let six = chain(6);
    let error = LinkedList::decode(&mut with_depth(&six, 5)).unwrap_err();
    assert_eq!(error.kind(), &DecodeErrorKind::TooDeep { limit: 5 });
    // An empty tree (no children, no entries) is still one level.
    assert!(Tree::decode(&mut with_depth(&[0, 0], 0)).is_err());
    assert!(Tree::decode(&mut with_depth(&[0, 0], 1)).is_ok());
}

#[test]
fn hostile_recursion_is_an_error_on_a_small_stack() {
    let outcome = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| LinkedList::from_avro_bytes(&chain(100_000)))
        .unwrap()
        .join()
        .expect("no stack overflow");
    let kind = outcome.unwrap_err().kind().clone();
    assert!(
        matches!(
            kind,
            DecodeErrorKind::TooDeep { .. } | DecodeErrorKind::TooMuchStack { .. }
        ),
        "{kind:?}"
    );
}

#[test]
fn a_type_that_cannot_hold_itself_enters_no_nesting_level() {
    // `Money { cents: 21 }`: even a depth limit of 0 reads it.
    let money = Money::decode(&mut with_depth(&[42], 0)).unwrap();
    assert_eq!(money.cents, 21);
}
