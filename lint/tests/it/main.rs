//! Integration tests of the lint rules, one module per topic.

mod fixtures;
mod support;
