//! JSON values compared exactly: numbers as decimals (no float tolerance), equality as JSON
//! Schema defines it (`1` equals `1.0`), a canonical text for `uniqueItems`, and the type bits of a
//! value.

use super::super::compile::{T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR};
use serde_json::{Number, Value};
use std::cmp::Ordering;

pub(crate) fn value_bits(v: &Value) -> u8 {
    match v {
        Value::Null => T_NULL,
        Value::Bool(_) => T_BOOL,
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                T_INT | T_NUM
            } else {
                T_NUM
            }
        }
        Value::String(_) => T_STR,
        Value::Array(_) => T_ARR,
        Value::Object(_) => T_OBJ,
    }
}

/// A JSON number as an exact decimal: sign, digits without trailing zeros, power of ten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Decimal {
    neg: bool,
    mant: u128,
    exp: i32,
}

/// The exact decimal value of a number as written by serde_json (integers exactly, floats by
/// their shortest round-trip text, which is the value the JSON text denoted).
pub(crate) fn decimal(n: &Number) -> Decimal {
    let text = n.to_string();
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text.as_str()),
    };
    let (digits, e) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], body[i + 1..].parse::<i32>().unwrap_or(0)),
        None => (body, 0),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let frac = frac.trim_end_matches('0');
    let mut mant: u128 = 0;
    let mut exp = e - frac.len() as i32;
    for b in int.bytes().chain(frac.bytes()) {
        mant = mant.saturating_mul(10).saturating_add(u128::from(b - b'0'));
    }
    if mant == 0 {
        return Decimal {
            neg: false,
            mant: 0,
            exp: 0,
        };
    }
    while mant % 10 == 0 {
        mant /= 10;
        exp += 1;
    }
    Decimal { neg, mant, exp }
}

fn digit_count(mut m: u128) -> i32 {
    let mut n = 0;
    while m > 0 {
        m /= 10;
        n += 1;
    }
    n
}

fn cmp_magnitude(a: Decimal, b: Decimal) -> Ordering {
    match (a.mant == 0, b.mant == 0) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    let (da, db) = (digit_count(a.mant), digit_count(b.mant));
    match (da + a.exp).cmp(&(db + b.exp)) {
        Ordering::Equal => {}
        o => return o,
    }
    // Same order of magnitude: compare the digit strings padded to the same length.
    let (mut x, mut y) = (a.mant, b.mant);
    let (mut dx, mut dy) = (da, db);
    while dx < dy {
        x *= 10;
        dx += 1;
    }
    while dy < dx {
        y *= 10;
        dy += 1;
    }
    x.cmp(&y)
}

fn cmp_decimal(a: Decimal, b: Decimal) -> Ordering {
    match (a.neg, b.neg) {
        (false, false) => cmp_magnitude(a, b),
        (true, true) => cmp_magnitude(b, a),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
    }
}

/// Compares two JSON numbers exactly.
pub(crate) fn cmp_num(a: &Number, b: &Number) -> Option<Ordering> {
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        return Some(x.cmp(&y));
    }
    Some(cmp_decimal(decimal(a), decimal(b)))
}

/// Whether `v` is an exact multiple of `m` (decimal arithmetic, no float tolerance).
pub(crate) fn is_multiple(v: &Number, m: &Number) -> bool {
    if let (Some(x), Some(y)) = (v.as_i64(), m.as_i64()) {
        return y != 0 && x % y == 0;
    }
    let (x, y) = (decimal(v), decimal(m));
    if y.mant == 0 {
        return false;
    }
    if x.mant == 0 {
        return true;
    }
    if x.exp >= y.exp {
        // x = xm * 10^(xe - ye) in units of 10^ye: reduce modulo ym step by step.
        let mut r = x.mant % y.mant;
        for _ in 0..(x.exp - y.exp) {
            r = (r * 10) % y.mant;
        }
        r == 0
    } else {
        // m = ym * 10^(ye - xe) in units of 10^xe; x is smaller than m unless it has more digits.
        let shift = y.exp - x.exp;
        if digit_count(y.mant) + shift > digit_count(x.mant) {
            return false;
        }
        let ym = y.mant * 10u128.pow(shift as u32);
        x.mant % ym == 0
    }
}

/// Equality as JSON Schema defines it (1 and 1.0 are equal).
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => cmp_num(x, y) == Some(Ordering::Equal),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// A canonical text of a value (sorted keys, numbers by exact value), for uniqueness in linear
/// time.
pub(crate) fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Number(n) => {
            let d = decimal(n);
            out.push_str(&format!(
                "{}{}e{}",
                if d.neg { "-" } else { "" },
                d.mant,
                d.exp
            ));
        }
        Value::Array(a) => {
            out.push('[');
            for x in a {
                canonical(x, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(o) => {
            // `&str` and unstable (keys are distinct): the sort the guided path already
            // instantiates, so no second copy of the sorting code.
            let mut keys: Vec<&str> = o.keys().map(String::as_str).collect();
            keys.sort_unstable();
            out.push('{');
            for k in keys {
                out.push_str(&format!("{k:?}:"));
                canonical(&o[k], out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn multiple_of_is_exact() {
        assert!(!is_multiple(&n("10000000.005"), &n("0.01")));
        assert!(is_multiple(&n("10000000.05"), &n("0.01")));
        assert!(!is_multiple(&n("3000000001.0"), &n("2")));
        assert!(is_multiple(&n("3000000002.0"), &n("2")));
        assert!(is_multiple(&n("12391239123"), &n("1e-8")));
        assert!(!is_multiple(&n("1e308"), &n("0.123456789")));
        assert!(is_multiple(&n("0.0075"), &n("0.0001")));
        assert!(!is_multiple(&n("0.00751"), &n("0.0001")));
        assert!(is_multiple(&n("19.99"), &n("0.01")));
        assert!(!is_multiple(&n("1"), &n("30")));
    }

    #[test]
    fn numbers_compare_exactly() {
        assert_eq!(
            cmp_num(&n("10000000000000000"), &n("1e16")),
            Some(Ordering::Equal)
        );
        assert_eq!(
            cmp_num(&n("10000000000000001"), &n("1e16")),
            Some(Ordering::Greater)
        );
        assert_eq!(cmp_num(&n("-1.5"), &n("-1")), Some(Ordering::Less));
        assert_eq!(cmp_num(&n("0.1"), &n("0.09")), Some(Ordering::Greater));
        assert_eq!(cmp_num(&n("-0.0"), &n("0")), Some(Ordering::Equal));
    }
}
