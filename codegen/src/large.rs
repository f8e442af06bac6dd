//! Boxing large values behind a union: an `Option<T>` or a union enum is as large as its
//! largest branch, and its `null` (or small) branch takes one byte of input, so in an array a
//! few input bytes would each commit the whole size of `T`. Generated code boxes a reference to
//! a generated type in a union branch (an `Option` field or a union enum variant) when the type
//! takes more than [`LARGE`] bytes, so the branch costs a pointer until it holds a value. The
//! runtime's memory budget bounds what remains.
//!
//! Sizes are estimates from the schema (the `size_of` of the Rust types on 64-bit targets,
//! without padding), enough to find the extreme ratios.

use avdl2rs_emit::Logical;

use crate::space::{DefKind, TypeDef, TypeId, TypeRef};

/// Types estimated larger than this many bytes are boxed in union branches: twice the
/// runtime's default memory budget per input byte (64), so an array of `null`s of a boxed
/// type stays well inside the budget, while the common small records (a few strings and
/// numbers) keep their plain `Option<T>`.
pub(crate) const LARGE: usize = 128;

/// Boxes references to large types in union branches (after cycles were boxed).
pub(crate) fn box_large_branches(defs: &mut [TypeDef]) {
    let mut sizes = vec![None; defs.len()];
    for id in 0..defs.len() {
        def_size(id, defs, &mut sizes);
    }
    for def in defs.iter_mut() {
        let in_union = matches!(def.kind, DefKind::Union { .. });
        for member in def.members_mut() {
            mark(member, in_union, &sizes);
        }
    }
}

/// Boxes `ty` if it is a large type in a union branch; `in_union` says whether `ty` is one.
fn mark(ty: &mut TypeRef, in_union: bool, sizes: &[Option<usize>]) {
    match ty {
        TypeRef::Named { ty: id, boxed } if in_union && sizes[*id].unwrap_or(0) > LARGE => {
            *boxed = true
        }
        TypeRef::Optional { some, .. } => mark(some, true, sizes),
        TypeRef::Array(inner) | TypeRef::Map(inner) => mark(inner, false, sizes),
        _ => {}
    }
}

/// The estimated size of the type `id`, memoized in `sizes`.
fn def_size(id: TypeId, defs: &[TypeDef], sizes: &mut Vec<Option<usize>>) -> usize {
    if let Some(size) = sizes[id] {
        return size;
    }
    // Cycles are boxed already, so the walk ends; the mark guards against a loop anyway.
    sizes[id] = Some(0);
    let size = match &defs[id].kind {
        DefKind::Record { fields, .. } => fields.iter().map(|f| ref_size(&f.ty, defs, sizes)).sum(),
        DefKind::Enum { .. } => 1,
        DefKind::Fixed { size, .. } => *size,
        DefKind::Union { variants, .. } => {
            8 + variants
                .iter()
                .map(|v| ref_size(&v.ty, defs, sizes))
                .max()
                .unwrap_or(0)
        }
    };
    sizes[id] = Some(size);
    size
}

fn ref_size(ty: &TypeRef, defs: &[TypeDef], sizes: &mut Vec<Option<usize>>) -> usize {
    match ty {
        TypeRef::Null => 0,
        TypeRef::Boolean => 1,
        TypeRef::Int | TypeRef::Float => 4,
        TypeRef::Long | TypeRef::Double => 8,
        TypeRef::Bytes | TypeRef::String | TypeRef::Array(_) => 24,
        TypeRef::Map(_) => 48,
        TypeRef::Optional { some, .. } => 8 + ref_size(some, defs, sizes),
        TypeRef::OptionalUnion { ty: id, .. } => def_size(*id, defs, sizes),
        TypeRef::Named { boxed: true, .. } => 8,
        TypeRef::Named { ty: id, .. } => def_size(*id, defs, sizes),
        TypeRef::Logical(Logical::DecimalBytes { .. } | Logical::DecimalFixed { .. }) => 32,
        TypeRef::Logical(_) => 16,
    }
}
