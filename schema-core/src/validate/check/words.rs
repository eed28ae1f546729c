//! The words of error messages: type names, a short picture of a value, lists of allowed
//! values, a few words on what a schema accepts, and JSON pointer tokens.

use super::super::compile::{
    deref, Node, NodeId, T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR,
};
use serde_json::Value;

pub(crate) fn type_names(bits: u8) -> String {
    let mut names = Vec::new();
    if bits & T_OBJ != 0 {
        names.push("object");
    }
    if bits & T_ARR != 0 {
        names.push("array");
    }
    if bits & T_STR != 0 {
        names.push("string");
    }
    if bits & T_NUM != 0 {
        names.push("number");
    } else if bits & T_INT != 0 {
        names.push("integer");
    }
    if bits & T_BOOL != 0 {
        names.push("boolean");
    }
    if bits & T_NULL != 0 {
        names.push("null");
    }
    names.join(" or ")
}

/// A short picture of a value for an error message.
pub(crate) fn preview(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let cut: String = s.chars().take(40).collect();
            if cut.len() < s.len() {
                format!("{:?}…", cut)
            } else {
                format!("{s:?}")
            }
        }
        Value::Array(a) => format!("an array of {} item{}", a.len(), plural(a.len())),
        Value::Object(o) if o.is_empty() => "an empty object".into(),
        Value::Object(_) => "an object".into(),
        other => other.to_string(),
    }
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

pub(crate) fn list_values(values: &[Value]) -> String {
    let shown: Vec<String> = values.iter().take(12).map(|v| v.to_string()).collect();
    let mut s = shown.join(", ");
    if values.len() > 12 {
        s.push_str(&format!(", … ({} values)", values.len()));
    }
    s
}

pub(crate) fn push_token(path: &mut String, token: &str) {
    path.push('/');
    for c in token.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

/// A few words on what a schema accepts (`string`, `"a" or "b"`, `an object with property "x"`).
pub(crate) fn describe(nodes: &[Node], id: NodeId) -> String {
    let n = &nodes[deref(nodes, id)];
    if let Some(c) = &n.const_value {
        return c.to_string();
    }
    if let Some(e) = &n.enum_values {
        return format!("one of {}", list_values(e));
    }
    if n.types != 0 {
        return type_names(n.types);
    }
    if !n.required.is_empty() && n.properties.is_empty() {
        let names: Vec<String> = n.required.iter().map(|r| format!("{r:?}")).collect();
        return format!("an object with property {}", names.join(", "));
    }
    if !n.any_of.is_empty() || !n.one_of.is_empty() {
        let list = if n.any_of.is_empty() {
            &n.one_of
        } else {
            &n.any_of
        };
        let parts: Vec<String> = list
            .iter()
            .take(6)
            .map(|&b| describe_shallow(nodes, b))
            .collect();
        if parts.iter().all(|p| !p.is_empty()) {
            return parts.join(" or ");
        }
    }
    String::new()
}

fn describe_shallow(nodes: &[Node], id: NodeId) -> String {
    let n = &nodes[deref(nodes, id)];
    if let Some(c) = &n.const_value {
        return c.to_string();
    }
    if n.types != 0 {
        return type_names(n.types);
    }
    String::new()
}
