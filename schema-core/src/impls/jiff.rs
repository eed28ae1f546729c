//! `jiff`'s types as its serde impls write them: `Timestamp` in RFC 3339 (`format:
//! "date-time"`), `civil::Date` as an ISO 8601 date, and a `pattern` for the civil time and
//! date-time, which have no offset.

use crate::model::{Kind, Type};
use crate::AgentSchema;

string_like! {
    jiff::Timestamp => "Timestamp", format: "date-time";
    jiff::civil::Date => "Date", format: "date";
    jiff::civil::Time => "Time", pattern: "^[0-2][0-9]:[0-5][0-9](:[0-6][0-9](\\.[0-9]{1,9})?)?$";
    jiff::civil::DateTime => "DateTime", pattern: "^-?[0-9]{4,}-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9](:[0-6][0-9](\\.[0-9]{1,9})?)?$";
}
