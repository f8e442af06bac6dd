//! A chain of records, each holding the one before in an optional field
//! ([`avdl2rs_tests::record_chain`]): the generated code grows linearly with the chain (each
//! record's schema text written once, in its node, not again in every schema that embeds
//! it), and a chain deeper than rustc's default recursion limit is reported with the limit
//! the including crate needs. `build.rs` compiles such a chain as one more differential case
//! (`codegen_roundtrip.rs`, `generated_differential.rs`), under the limit asked for here.

use avdl2rs_codegen::{DeepNesting, Generator, Options};
use avdl2rs_tests::{on_big_stack, record_chain, COMPILED_CHAIN};

fn chain(records: usize) -> Generator {
    let mut generator = Generator::new(Options::default());
    generator
        .add_schema_value(&record_chain(records), "chain.avpr")
        .unwrap();
    generator
}

#[test]
fn each_schema_text_of_a_long_chain_is_written_once() {
    on_big_stack(|| {
        let code = chain(300).generate().unwrap();
        // The JSON definition of a record names it without namespace (inside its own); the
        // canonical form with it.
        for n in 0..300 {
            let definition = format!(r#""name":"Rec{n}""#);
            assert_eq!(code.matches(&definition).count(), 1, "Rec{n}");
            let canonical = format!(r#""name":"chain.Rec{n}""#);
            assert_eq!(code.matches(&canonical).count(), 1, "chain.Rec{n}");
        }
    });
}

#[test]
fn a_chain_deeper_than_the_default_recursion_limit_names_the_limit_it_needs() {
    on_big_stack(|| {
        // Records 12 and up are boxed in their optional field (a large type behind a union):
        // `Option<Box<_>>` is two steps of rustc's drop-check walk, `Option<_>` one.
        let deep = chain(300).deep_nesting().unwrap();
        let expected = (11 + 288 * 2, 2048);
        assert!(
            matches!(&deep, Some(DeepNesting { rust_path, steps, recursion_limit, .. })
                if rust_path == "chain::Rec299" && (*steps, *recursion_limit) == expected),
            "{deep:?}"
        );
        let message = deep.unwrap().to_string();
        assert!(message.contains("`chain::Rec299`"), "{message}");
        assert!(
            message.contains(r#"#![recursion_limit = "2048"]"#),
            "{message}"
        );
        assert_eq!(chain(40).deep_nesting().unwrap(), None);
    });
}

#[test]
fn the_compiled_chain_builds_under_the_limit_the_generator_asks_for() {
    let deep = chain(COMPILED_CHAIN).deep_nesting().unwrap();
    // `main.rs` sets `#![recursion_limit = "512"]`; with the default the chain fails with
    // E0320 (overflow while adding drop-check rules) from record 70 on.
    assert_eq!(deep.map(|d| d.recursion_limit), Some(512));
}
