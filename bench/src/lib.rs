//! Benchmark support: the generated types of the benchmark schemas.

#[allow(clippy::all)]
mod generated {
    include!(concat!(env!("OUT_DIR"), "/shapes.rs"));
}

pub use generated::shapes;
