//! `time`'s types in the human-readable form its serde impls write to JSON (this feature turns on
//! `time/serde-human-readable`, so every user of `time` in the build gets that form):
//! `Date` as an ISO 8601 date (`format: "date"`), and a `pattern` for `Time`,
//! `PrimitiveDateTime` and `OffsetDateTime`, whose forms are not RFC 3339.

use crate::model::{Kind, Type};
use crate::AgentSchema;

string_like! {
    time::Date => "Date", format: "date";
    time::Time => "Time", pattern: "^[0-2]?[0-9]:[0-5][0-9]:[0-6][0-9]\\.[0-9]{1,9}$";
    time::PrimitiveDateTime => "PrimitiveDateTime", pattern: "^-?[0-9]{4,}-[0-1][0-9]-[0-3][0-9] [0-2]?[0-9]:[0-5][0-9]:[0-6][0-9]\\.[0-9]{1,9}$";
    time::OffsetDateTime => "OffsetDateTime", pattern: "^-?[0-9]{4,}-[0-1][0-9]-[0-3][0-9] [0-2]?[0-9]:[0-5][0-9]:[0-6][0-9]\\.[0-9]{1,9} [+-][0-9]{2}:[0-9]{2}:[0-9]{2}$";
}
