//! Derived partials can be printed, kept and compared: `Debug`, `Clone` and `PartialEq` on the
//! partials of structs, tagged enums and generic types (whose parameter needs none of them).

// The types are only streamed: their fields are read through the partials.
#![allow(dead_code)]

use schema_core::AgentSchema;
use serde::Deserialize;

#[derive(AgentSchema, Deserialize)]
struct Page<T> {
    items: Vec<T>,
    next: Option<String>,
}

/// Neither `Debug`, `Clone` nor `PartialEq`.
#[derive(AgentSchema, Deserialize)]
struct Row {
    name: String,
}

#[derive(AgentSchema, Deserialize)]
#[serde(tag = "kind")]
enum Event {
    Note { text: String },
    Count { n: u32 },
}

#[test]
fn generic_struct_partials_print_clone_and_compare() {
    let mut s = Page::<Row>::stream();
    s.push(r#"{"items": [{"name": "a"}, {"name": "b"#).unwrap();
    let kept = s.partial().clone();
    assert_eq!(&kept, s.partial());
    assert_eq!(
        format!("{kept:?}"),
        r#"PagePartial { items: Some([RowPartial { name: Some("a") }, RowPartial { name: Some("b") }]), next: None }"#
    );
    s.push(r#"c"}]}"#).unwrap();
    assert_ne!(&kept, s.partial());
}

#[test]
fn enum_partials_print_clone_and_compare() {
    let mut s = Event::stream();
    assert_eq!(
        format!("{:?}", s.partial()),
        "Undecided(Pending { events: [] })"
    );
    s.push(r#"{"kind": "Note", "text": "hel"#).unwrap();
    let kept = s.partial().clone();
    assert_eq!(format!("{kept:?}"), r#"Note { text: Some("hel") }"#);
    s.push("lo").unwrap();
    assert_ne!(&kept, s.partial());
    let mut other = Event::stream();
    other.push(r#"{"kind": "Count", "n": 3}"#).unwrap();
    assert_ne!(s.partial(), other.partial());
    assert_eq!(format!("{:?}", other.partial()), "Count { n: Some(3) }");
}
