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

/// Sets `recursive` on every type that can reach itself through any reference, heap ones
/// included: the members of a strongly connected component of more than one type, and the
/// types that refer to themselves (Tarjan's algorithm, one walk over the graph).
pub(crate) fn mark_recursive(defs: &mut [TypeDef]) {
    let edges = all_edges(defs);
    let mut walk = Components {
        edges: &edges,
        index: vec![None; defs.len()],
        low: vec![0; defs.len()],
        stack: Vec::new(),
        on_stack: vec![false; defs.len()],
        next: 0,
        recursive: vec![false; defs.len()],
    };
    for root in 0..defs.len() {
        if walk.index[root].is_none() {
            walk.visit(root);
        }
    }
    for (def, recursive) in defs.iter_mut().zip(walk.recursive) {
        def.recursive = recursive;
    }
}

/// By type: whether it reaches a type that `marked` holds `true` for (itself included),
/// through any reference. One walk back along the references from the marked types.
pub(crate) fn reaching(defs: &[TypeDef], marked: &[bool]) -> Vec<bool> {
    let mut holders: Vec<Vec<TypeId>> = vec![Vec::new(); defs.len()];
    for (id, targets) in all_edges(defs).into_iter().enumerate() {
        for target in targets {
            holders[target].push(id);
        }
    }
    let mut reaching = marked.to_vec();
    let mut pending: Vec<TypeId> = (0..defs.len()).filter(|&id| marked[id]).collect();
    while let Some(id) = pending.pop() {
        for &holder in &holders[id] {
            if !std::mem::replace(&mut reaching[holder], true) {
                pending.push(holder);
            }
        }
    }
    reaching
}

/// By type: every type it refers to, through any reference.
fn all_edges(defs: &[TypeDef]) -> Vec<Vec<TypeId>> {
    defs.iter()
        .map(|def| {
            let mut targets = Vec::new();
            def.members().for_each(|ty| all_targets(ty, &mut targets));
            targets
        })
        .collect()
}

/// Every generated type `ty` refers to, through arrays, maps and unions too.
pub(crate) fn all_targets(ty: &TypeRef, out: &mut Vec<TypeId>) {
    match ty {
        TypeRef::Named { ty: id, .. } | TypeRef::OptionalUnion { ty: id, .. } => out.push(*id),
        TypeRef::Optional { some: inner, .. } | TypeRef::Array(inner) | TypeRef::Map(inner) => {
            all_targets(inner, out)
        }
        _ => {}
    }
}

/// The state of Tarjan's strongly-connected-components walk.
struct Components<'a> {
    edges: &'a [Vec<TypeId>],
    /// The order in which each type was first visited.
    index: Vec<Option<usize>>,
    /// The smallest visit order reachable from each type's subtree.
    low: Vec<usize>,
    stack: Vec<TypeId>,
    on_stack: Vec<bool>,
    next: usize,
    recursive: Vec<bool>,
}

impl Components<'_> {
    fn visit(&mut self, id: TypeId) {
        self.index[id] = Some(self.next);
        self.low[id] = self.next;
        self.next += 1;
        self.stack.push(id);
        self.on_stack[id] = true;
        for &target in &self.edges[id] {
            match self.index[target] {
                None => {
                    self.visit(target);
                    self.low[id] = self.low[id].min(self.low[target]);
                }
                Some(order) if self.on_stack[target] => self.low[id] = self.low[id].min(order),
                Some(_) => {}
            }
        }
        if Some(self.low[id]) == self.index[id] {
            let start = self.stack.iter().rposition(|&t| t == id).unwrap_or(0);
            let component = self.stack.split_off(start);
            let cyclic = component.len() > 1 || self.edges[id].contains(&id);
            for member in component {
                self.on_stack[member] = false;
                self.recursive[member] = cyclic;
            }
        }
    }
}
