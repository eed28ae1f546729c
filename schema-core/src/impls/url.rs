//! `url::Url`: serde writes the serialized URL, always absolute, `format: "uri"`.

use crate::model::{Kind, Type};
use crate::AgentSchema;

string_like! {
    url::Url => "Url", format: "uri";
}
