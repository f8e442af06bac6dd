//! The one-line way to use code that `avdl2rs_codegen::Builder` wrote in a build script.

/// Includes the Rust code generated into `OUT_DIR` under `name` by a build script.
///
/// `avdl2rs::include_generated!("orders")` expands to
/// `include!(concat!(env!("OUT_DIR"), "/orders.rs"))`: the file that
/// `avdl2rs_codegen::Builder::new("orders")` writes (the root file, when the builder splits
/// the output into one file per module). Invoke it where the types should live, usually in a
/// module of their own:
///
/// ```ignore
/// // build.rs
/// fn main() {
///     avdl2rs_codegen::Builder::new("orders").input("schemas").build().unwrap();
/// }
///
/// // src/lib.rs
/// pub mod orders {
///     avdl2rs::include_generated!("orders");
/// }
/// ```
///
/// Generated code refers to its sibling modules with relative paths and to everything else
/// with absolute ones, so it may be included in any module.
#[macro_export]
macro_rules! include_generated {
    ($name:literal) => {
        ::core::include!(::core::concat!(::core::env!("OUT_DIR"), "/", $name, ".rs"));
    };
}
