//! `chrono`'s date and time types as its serde impls write them: RFC 3339 for the zoned ones
//! (`format: "date-time"`), ISO 8601 dates (`format: "date"`), and a `pattern` for the naive
//! time and date-time, which have no offset and so are not JSON Schema `time` / `date-time`.

use crate::model::{Kind, Type};
use crate::AgentSchema;

string_like! {
    chrono::DateTime<chrono::Utc> => "DateTime", format: "date-time";
    chrono::DateTime<chrono::FixedOffset> => "DateTime", format: "date-time";
    chrono::NaiveDate => "NaiveDate", format: "date";
    chrono::NaiveTime => "NaiveTime", pattern: "^[0-2][0-9]:[0-5][0-9]:[0-6][0-9](\\.[0-9]{1,9})?$";
    chrono::NaiveDateTime => "NaiveDateTime", pattern: "^-?[0-9]{4,}-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9](\\.[0-9]{1,9})?$";
}
