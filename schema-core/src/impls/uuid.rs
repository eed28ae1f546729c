//! `uuid::Uuid`: serde writes the hyphenated form, `format: "uuid"`.

use crate::model::{Kind, Type};
use crate::AgentSchema;

string_like! {
    uuid::Uuid => "Uuid", format: "uuid";
}
