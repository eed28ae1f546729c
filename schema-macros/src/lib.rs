//! `#[derive(AgentSchema)]`. Use it through `schema_core`, which re-exports it and documents the
//! attributes.
//!
//! The pipeline reads in three lines ([`derive_agent_schema`]): parse the input into a typed
//! model (`ast`, `attr`), check the rules that need more than one attribute (`check`), expand
//! (`expand`). Every error is collected with its span, and a failed derive still emits a stand-in
//! impl so the user sees only the real errors.

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod partial;
mod tools;

use proc_macro::TokenStream;

/// Derives `schema_core::AgentSchema`. See the `schema_core` documentation for the attributes.
#[proc_macro_derive(AgentSchema, attributes(schema))]
pub fn derive_agent_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    let cx = ctxt::Ctxt::default();
    let container = ast::Container::from_syn(&cx, &input);
    if let Some(c) = &container {
        check::check(&cx, c);
        tools::check(&cx, c);
        if let (Some(span), false) = (c.schema.tools, cfg!(feature = "tools")) {
            cx.error_at(span, "`tools` needs schema-core's `tools` feature");
        }
    }
    let krate = expand::krate(container.as_ref());
    match (cx.finish(), container) {
        (None, Some(c)) => expand::expand(&c).into(),
        (errors, _) => {
            let mut out = errors.unwrap_or_default();
            out.extend(expand::fallback(&input, &krate));
            out.into()
        }
    }
}
