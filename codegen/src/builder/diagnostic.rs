//! A build failure as the compiler writes errors (the parser's renderer, shared with the
//! command line): `error: …`, and for an IDL error ` --> file:line:col`, the source line with
//! the place underlined and the help, each related error of the file in turn; so that a
//! failing build script shows the mistake without a debug dump.

use avdl_parser::render::{render, Style};

use super::BuildError;

/// `error` rendered in `style`.
pub(super) fn rendered(error: &BuildError, style: Style) -> String {
    match parser_error(error) {
        Some(parser_error) => parser_error.render(style),
        None => render(&error.summary(), None, None, style),
    }
}

/// The parser's own error, when the generator kept it as the cause.
fn parser_error(error: &BuildError) -> Option<&avdl_parser::Error> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(error);
    while let Some(current) = cause {
        if let Some(found) = current.downcast_ref::<avdl_parser::Error>() {
            return Some(found);
        }
        cause = current.source();
    }
    None
}
