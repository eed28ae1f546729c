//! A tool set: no warning for the generated methods it does not call (`deny(warnings)`), a
//! generic parameter, a newtype variant over a struct, a renamed variant, and a call read back.
#![deny(warnings)]

use schema_core::{provider::Provider, AgentSchema};
use serde::Deserialize;

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
struct Args<T> {
    value: T,
}

/// Unused on purpose: none of its generated methods is called.
#[derive(AgentSchema, Deserialize)]
#[serde(tag = "tool")]
#[schema(tools)]
#[allow(dead_code)]
enum Unused {
    Ping {},
}

#[derive(AgentSchema, Deserialize, Debug, PartialEq)]
#[serde(tag = "tool", rename_all = "snake_case")]
#[schema(tools)]
enum Tools<T: AgentSchema> {
    /// Set the value
    SetValue(Args<T>),
    /// Stop
    #[serde(rename = "halt")]
    Stop,
}

fn main() {
    let defs = Tools::<u8>::tool_definitions(Provider::OpenAiChat).unwrap();
    assert_eq!(defs[0]["function"]["name"], "set_value");
    assert_eq!(defs[1]["function"]["name"], "halt");
    assert_eq!(
        Tools::<u8>::from_tool_call("set_value", r#"{"value": 3}"#).unwrap(),
        Tools::SetValue(Args { value: 3 })
    );
    assert_eq!(Tools::<u8>::from_tool_call("halt", "").unwrap(), Tools::Stop);
}
