//! `#[schema(tools)]`: an internally tagged enum as a tool set. Checks the container and
//! generates the inherent tool methods; the work is done by `schema_core::tools`.

use crate::ast::{Container, Data, Style};
use crate::ctxt::Ctxt;
use proc_macro2::TokenStream;
use quote::quote;

/// The rules of a tool set (the variant rules of every tagged enum are checked elsewhere).
pub(crate) fn check(cx: &Ctxt, c: &Container) {
    let Some(span) = c.schema.tools else {
        return;
    };
    let Data::Enum(variants) = &c.data else {
        cx.error_at(
            span,
            "`tools` applies to enums: each variant is a tool, its named fields (or the struct it wraps) the tool's parameters",
        );
        return;
    };
    if c.serde.tag.is_none() && c.serde.untagged.is_none() && c.serde.content.is_none() {
        // Without a tag the enum's own wire form is not the tool set's; say so once, here.
        if variants
            .iter()
            .all(|v| matches!(v.style, Style::Unit) || v.serde.skip)
        {
            cx.error_at(
                span,
                "a tool set needs #[serde(tag = \"...\")] on the enum: the tag carries the tool's name",
            );
        }
    }
    if let Some(s) = c.schema.one_object {
        cx.error_at(
            s,
            "`one_object` and `tools` do not go together: a tool set sends each variant as its own tool",
        );
    }
}

/// The inherent methods of a tool set.
pub(crate) fn expand(c: &Container) -> TokenStream {
    if c.schema.tools.is_none() {
        return TokenStream::new();
    }
    let ident = c.ident;
    let (impl_generics, ty_generics, where_clause) = c.generics.split_for_impl();
    quote! {
        #[allow(dead_code)]
        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            /// The tool definitions of this tool set for `provider` (the request's `tools`
            /// array): each variant a tool, its parameters converted to the provider's dialect,
            /// the provider's per-request limits checked across the tools.
            pub fn tool_definitions(
                provider: _sc::provider::Provider,
            ) -> ::core::result::Result<_sc::__private::Value, _sc::convert::ConvertError>
            where
                for<'__a> Self: _sc::AgentSchema,
            {
                _sc::__private::derived_definitions(
                    <Self as _sc::AgentSchema>::schema_type(),
                    provider,
                )
            }

            /// The tools of this set as an MCP `tools/list` result's `tools` array
            /// (`{name, description, inputSchema}`).
            pub fn mcp_tools(
            ) -> ::core::result::Result<_sc::__private::Value, _sc::convert::ConvertError>
            where
                for<'__a> Self: _sc::AgentSchema,
            {
                _sc::__private::derived_mcp_tools(<Self as _sc::AgentSchema>::schema_type())
            }

            /// The tool call `name(arguments)` as a value of this set: an unknown name is an
            /// error listing the known ones; the arguments (JSON text) are validated as by
            /// `from_json`.
            pub fn from_tool_call(
                name: &str,
                arguments: &str,
            ) -> ::core::result::Result<Self, _sc::ParseError>
            where
                for<'__a> Self: _sc::AgentSchema + _sc::__private::DeserializeOwned,
            {
                _sc::__private::derived_from_call::<Self>(
                    <Self as _sc::AgentSchema>::schema_type(),
                    name,
                    arguments,
                )
            }

            /// Every tool call of a provider's response body, typed, each with its call id.
            pub fn tool_calls_from_response(
                provider: _sc::provider::Provider,
                body: &_sc::__private::Value,
            ) -> ::core::result::Result<
                _sc::__private::Vec<(_sc::__private::String, Self)>,
                _sc::ParseError,
            >
            where
                for<'__a> Self: _sc::AgentSchema + _sc::__private::DeserializeOwned,
            {
                _sc::__private::derived_calls_from_response::<Self>(
                    <Self as _sc::AgentSchema>::schema_type(),
                    provider,
                    body,
                )
            }
        }
    }
}
