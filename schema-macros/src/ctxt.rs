//! Collects every error of one derive so the user sees them all at once, each at its span.

use proc_macro2::TokenStream;
use std::cell::RefCell;
use std::fmt::Display;

#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub(crate) fn error(&self, tokens: impl quote::ToTokens, msg: impl Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens.into_token_stream(), msg));
    }

    pub(crate) fn error_at(&self, span: proc_macro2::Span, msg: impl Display) {
        self.errors.borrow_mut().push(syn::Error::new(span, msg));
    }

    pub(crate) fn syn_error(&self, err: syn::Error) {
        self.errors.borrow_mut().push(err);
    }

    /// All errors as one token stream of `compile_error!`s, or `None` if there were none.
    pub(crate) fn finish(self) -> Option<TokenStream> {
        let errors = self.errors.into_inner();
        if errors.is_empty() {
            return None;
        }
        Some(errors.into_iter().map(|e| e.to_compile_error()).collect())
    }
}
