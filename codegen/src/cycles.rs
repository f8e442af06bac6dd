//! Breaking recursive types: a depth-first walk over the "holds directly" graph boxes exactly
//! the references that close a cycle (back edges). `Vec` and maps already hold their
//! elements on the heap, so edges through them are not followed; `Option` is followed,
//! because `Option<T>` is as large as `T`.
//!
//! A union enum is referred to only by the one field it was made for, so a cycle through it
//! always closes at a named type; only [`TypeRef::Def`] edges are ever boxed.

use crate::space::{TypeDef, TypeId, TypeRef};

/// Sets `boxed` on every reference that closes a cycle.
pub(crate) fn box_cycle_edges(defs: &mut [TypeDef]) {
    let mut state = vec![State::New; defs.len()];
    for root in 0..defs.len() {
        if state[root] == State::New {
            visit(root, defs, &mut state);
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    New,
    OnStack,
    Done,
}

fn visit(id: TypeId, defs: &mut [TypeDef], state: &mut [State]) {
    state[id] = State::OnStack;
    let targets: Vec<TypeId> = defs[id].members().flat_map(direct_targets).collect();
    let mut close = Vec::with_capacity(targets.len());
    for &target in &targets {
        match state[target] {
            State::OnStack => close.push(true),
            State::New => {
                close.push(false);
                visit(target, defs, state);
            }
            State::Done => close.push(false),
        }
    }
    let mut edges = close.into_iter();
    for member in defs[id].members_mut() {
        mark(member, &mut edges);
    }
    state[id] = State::Done;
}

/// The types `ty` holds without heap indirection, in a fixed order.
fn direct_targets(ty: &TypeRef) -> Vec<TypeId> {
    match ty {
        TypeRef::Named { ty: id, .. } | TypeRef::OptionalUnion { ty: id, .. } => vec![*id],
        TypeRef::Optional { some, .. } => direct_targets(some),
        _ => Vec::new(),
    }
}

/// Walks `ty` in the order of [`direct_targets`], boxing the edges `edges` says close a cycle.
fn mark(ty: &mut TypeRef, edges: &mut impl Iterator<Item = bool>) {
    match ty {
        TypeRef::Named { boxed, .. } => *boxed = edges.next().unwrap_or(false),
        TypeRef::OptionalUnion { .. } => {
            edges.next();
        }
        TypeRef::Optional { some, .. } => mark(some, edges),
        _ => {}
    }
}
