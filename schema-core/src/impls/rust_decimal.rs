//! `rust_decimal::Decimal` as a string of decimal digits.
//!
//! serde writes a `Decimal` as a string (`"12.30"`) and reads a string or a number. The schema
//! asks for the string: a model that writes a number goes through a JSON float (`0.1 + 0.2`
//! digits, 17 significant digits at most), which loses exactly what a decimal type is chosen to
//! keep; the string keeps every digit the model wrote.

use crate::model::{Kind, Type};
use crate::AgentSchema;

string_like! {
    rust_decimal::Decimal => "Decimal", pattern: "^-?[0-9]+(\\.[0-9]+)?$";
}
