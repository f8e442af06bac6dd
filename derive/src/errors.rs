//! Error accumulation: every problem found in one derive input is reported at once, each at
//! its own span.

use std::fmt::Display;

use quote::ToTokens;

/// The errors found so far.
#[derive(Default)]
pub(crate) struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    /// Records an error at the span of `tokens`.
    pub fn at(&mut self, tokens: impl ToTokens, message: impl Display) {
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error at `span`.
    pub fn at_span(&mut self, span: proc_macro2::Span, message: impl Display) {
        self.errors.push(syn::Error::new(span, message));
    }

    /// Records an error.
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    /// All errors combined into one, if there are any.
    pub fn finish(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.into_iter();
        match errors.next() {
            None => Ok(()),
            Some(mut first) => {
                first.extend(errors);
                Err(first)
            }
        }
    }
}
