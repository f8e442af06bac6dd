//! The syntax tree of every IDL input prints back byte for byte, and has syntax errors
//! exactly when the compiler finds the text ungrammatical.

use avdl_parser::syntax;
use avdl_parser::ErrorKind;

use crate::syntax_inputs;

/// Whether the compiler's error is about the text's syntax (which the tree must see too),
/// rather than about names, types, defaults or imports (which it does not check).
pub fn is_syntax_error(kind: ErrorKind) -> bool {
    matches!(kind, ErrorKind::Syntax | ErrorKind::TooDeep)
}

#[test]
fn every_input_prints_back_and_agrees_with_the_compiler_on_syntax() {
    let mut failures = Vec::new();
    let mut valid = 0;
    for input in syntax_inputs::all() {
        let name = input.path.display();
        let parse = syntax::parse(&input.text);
        if parse.syntax().to_string() != input.text {
            failures.push(format!("{name}: does not print back"));
        }
        match avdl_parser::parse_file(&input.path, &syntax_inputs::options_for(&input.path)) {
            Ok(_) => {
                valid += 1;
                if let Some(e) = parse.errors().first() {
                    failures.push(format!("{name}: valid, yet {e:?}"));
                }
            }
            Err(e) if is_syntax_error(e.kind()) && parse.errors().is_empty() => {
                failures.push(format!("{name}: the compiler says {e}, the tree nothing"));
            }
            Err(_) => {}
        }
    }
    assert!(valid > 15, "only {valid} valid inputs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
