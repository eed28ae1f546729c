//! What the derive's generated code and this workspace's own tests and benches reach into; not
//! part of the API, and free to change in any release.

pub use serde::de::DeserializeOwned;
pub use serde_json::Value;
pub use std::string::String;
pub use std::vec::Vec;

#[cfg(feature = "stream")]
pub use crate::stream::partial::{
    apply_done, begin_text_one_by_one, done_string, object_json, Pending,
};

use crate::{AgentSchema, ParseError};

/// The one-pass fast path of [`from_json`](crate::AgentSchema::from_json) alone: `Some` when it
/// takes the text. For tests that hold it to the slow path.
pub fn fast_path_only<T: AgentSchema + DeserializeOwned>(text: &str) -> Option<T> {
    crate::validate::guided::fast_path(T::type_cache().plan(T::schema_type()), text)
}

/// [`from_json`](crate::AgentSchema::from_json) without its fast path: the text parsed into a
/// `Value`, validated with every error collected, then deserialized. For tests that hold the
/// fast path to it.
pub fn slow_path_only<T: AgentSchema + DeserializeOwned>(text: &str) -> Result<T, ParseError> {
    crate::parse::from_json_slow(
        T::type_cache(),
        T::schema_type(),
        text,
        crate::DEFAULT_MAX_LEN,
    )
}

/// How many bytes the reply extractor has examined on this thread so far: a measure of its
/// work that does not depend on the machine, for tests that its time is linear in the input.
pub fn llm_work_counter() -> u64 {
    crate::llm::work_counter()
}

/// The work `validator` takes on `value`, in evaluation steps (schema nodes entered plus `enum`
/// values compared), with the cost of compiling: for tests that time grows linearly.
pub fn evaluation_steps(validator: &crate::validate::Validator, value: &Value) -> u64 {
    validator.evaluation_steps(value)
}

/// The view's schema in `dialect`, always converted from the narrowed JSON Schema: the
/// reference [`View::json_schema`](crate::view::View::json_schema) is tested against.
#[cfg(feature = "view")]
pub fn view_json_schema_converted<T>(
    view: &crate::view::View<T>,
    dialect: crate::Dialect,
) -> Result<Value, crate::convert::ConvertError> {
    view.json_schema_converted(dialect)
}

/// Whether [`View::json_schema`](crate::view::View::json_schema) renders `dialect` from the
/// type's cached output (for tests and benches).
#[cfg(feature = "view")]
pub fn view_renders_fast<T>(view: &crate::view::View<T>, dialect: crate::Dialect) -> bool {
    view.renders_fast(dialect)
}

/// `T::tool_definitions(provider)` of a `#[schema(tools)]` enum.
#[cfg(feature = "tools")]
pub fn derived_definitions(
    ty: &'static crate::model::Type,
    provider: crate::provider::Provider,
) -> Result<Value, crate::convert::ConvertError> {
    crate::tools::derived_definitions(ty, provider)
}

/// `T::mcp_tools()` of a `#[schema(tools)]` enum.
#[cfg(feature = "tools")]
pub fn derived_mcp_tools(
    ty: &'static crate::model::Type,
) -> Result<Value, crate::convert::ConvertError> {
    crate::tools::derived_mcp_tools(ty)
}

/// `T::from_tool_call(name, arguments)` of a `#[schema(tools)]` enum.
#[cfg(feature = "tools")]
pub fn derived_from_call<T: DeserializeOwned>(
    ty: &'static crate::model::Type,
    name: &str,
    arguments: &str,
) -> Result<T, ParseError> {
    crate::tools::derived_from_call(ty, name, arguments)
}

/// `T::tool_calls_from_response(provider, body)` of a `#[schema(tools)]` enum.
#[cfg(feature = "tools")]
pub fn derived_calls_from_response<T: DeserializeOwned>(
    ty: &'static crate::model::Type,
    provider: crate::provider::Provider,
    body: &Value,
) -> Result<Vec<(String, T)>, ParseError> {
    crate::tools::derived_calls_from_response(ty, provider, body)
}
