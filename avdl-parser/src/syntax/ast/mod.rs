//! A thin typed layer over the syntax tree: one type per kind of node, with accessors for
//! the parts the formatter and the linter need (`Record::name()`, `Field::variables()`, …).
//!
//! Every accessor returns an `Option` or an iterator: in a broken file any part may be
//! missing, and the tree still has the rest.

mod decls;
pub(super) mod support;
mod types;
mod values;

pub use decls::*;
pub use support::{AstNode, DocComment, Documented, Name};
pub use types::*;
pub use values::{Annotation, HasAnnotations, JsonMember, JsonValue};
