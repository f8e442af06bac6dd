//! How deeply generated types nest, as the compiler counts it.
//!
//! rustc walks a type's drop-check rules breadth-first through the generic types it holds:
//! a record holding `Option<Box<Previous>>` reaches `Box<Previous>` in one step and
//! `Previous` in a second, and the walk fails ("overflow while adding drop-check rules",
//! E0320) after `#![recursion_limit]` steps (128 by default) — in every function that may
//! drop the value. Boxing does not help: `Box` is one more step. A chain of 64 such records
//! is the most the default limit takes; only the crate that includes the code can raise it,
//! so the generator computes the steps and the builder and command line say which limit the
//! crate needs.
//!
//! The other walks over nested types (auto traits, trait impls of `Option<Box<T>>`, drop glue)
//! take up to two steps per generic type on the way, so the advised limit doubles the count.

use crate::space::{TypeDef, TypeId, TypeRef};

/// rustc's default `recursion_limit`.
const DEFAULT_LIMIT: usize = 128;

/// A type whose drop-check walk exceeds rustc's default recursion limit.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeepNesting {
    /// The Rust path of the type, relative to the generated root.
    pub rust_path: String,
    /// The steps of its drop-check walk: generic types (`Option`, `Box`, `Vec`, maps)
    /// on the deepest path through the types it holds.
    pub steps: usize,
    /// The `#![recursion_limit]` the including crate needs.
    pub recursion_limit: usize,
}

impl std::fmt::Display for DeepNesting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` nests {} generic types deep, more than rustc's default recursion limit \
             ({DEFAULT_LIMIT}) allows (error E0320, overflow while adding drop-check rules): \
             add `#![recursion_limit = \"{}\"]` to the root (lib.rs or main.rs) of the crate \
             that includes the generated code",
            self.rust_path, self.steps, self.recursion_limit
        )
    }
}

/// The type with the deepest drop-check walk, if it needs more than the default limit.
pub(crate) fn deepest(defs: &[TypeDef]) -> Option<DeepNesting> {
    let mut steps = vec![None; defs.len()];
    let (id, deepest) = (0..defs.len())
        .map(|id| (id, def_steps(id, defs, &mut steps)))
        .max_by_key(|&(id, s)| (s, std::cmp::Reverse(id)))?;
    // A margin for the count being an estimate (the standard library's types take a step
    // or two more or less across versions).
    if deepest + 8 <= DEFAULT_LIMIT {
        return None;
    }
    let def = &defs[id];
    let mut path = def.module.clone();
    path.push(def.ident.clone());
    Some(DeepNesting {
        rust_path: path.join("::"),
        steps: deepest,
        recursion_limit: (2 * deepest).next_power_of_two(),
    })
}

/// The drop-check steps below type `id`, memoized in `steps`. A type on a cycle counts its
/// way around once: rustc's walk visits each type once.
fn def_steps(id: TypeId, defs: &[TypeDef], steps: &mut Vec<Option<usize>>) -> usize {
    if let Some(known) = steps[id] {
        return known;
    }
    steps[id] = Some(0);
    let deepest = defs[id]
        .members()
        .map(|ty| ref_steps(ty, defs, steps))
        .max()
        .unwrap_or(0);
    // A type held by value adds no step: rustc reads its fields' rules in the same step.
    steps[id] = Some(deepest);
    deepest
}

/// The steps of a member type: one per generic type it goes through.
fn ref_steps(ty: &TypeRef, defs: &[TypeDef], steps: &mut Vec<Option<usize>>) -> usize {
    match ty {
        TypeRef::Named { ty: id, boxed } => usize::from(*boxed) + def_steps(*id, defs, steps),
        TypeRef::OptionalUnion { ty: id, .. } => 1 + def_steps(*id, defs, steps),
        TypeRef::Optional { some: inner, .. } | TypeRef::Array(inner) | TypeRef::Map(inner) => {
            1 + ref_steps(inner, defs, steps)
        }
        _ => 0,
    }
}
