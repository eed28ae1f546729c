//! The `format` checks: hand-written and linear (RFC 3339 dates and durations, RFC 3986/3987
//! URIs and IRIs, RFC 6570 templates, RFC 5321 addresses, RFC 1123 host names with Punycode
//! A-labels, JSON pointers); `regex` compiles with the ECMA-262 engine `pattern` uses (only
//! read for its syntax without the feature `pattern`).

/// Whether `s` is valid for `format`. Unknown formats are annotations only (JSON Schema 2020-12)
/// and always pass.
pub(crate) fn check(format: &str, s: &str) -> bool {
    match format {
        "date-time" => date_time(s),
        "date" => date(s),
        "time" => time(s),
        "duration" => duration(s),
        "email" => email(s, false),
        "idn-email" => email(s, true),
        "hostname" => hostname(s),
        "idn-hostname" => idn_hostname(s),
        "ipv4" => ipv4(s),
        "ipv6" => s.parse::<std::net::Ipv6Addr>().is_ok(),
        "uri" => uri(s, false, false),
        "iri" => uri(s, true, false),
        "uri-reference" => uri(s, false, true),
        "iri-reference" => uri(s, true, true),
        "uri-template" => uri_template(s),
        "uuid" => uuid(s),
        "json-pointer" => json_pointer(s),
        "relative-json-pointer" => relative_json_pointer(s),
        "regex" => super::pattern::is_valid(s),
        _ => true,
    }
}

fn digits(s: &str, n: usize) -> Option<u32> {
    if s.len() == n && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

fn date(s: &str) -> bool {
    if !s.is_ascii() {
        return false;
    }
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y), Some(m), Some(d)) = (
        digits(&s[0..4], 4),
        digits(&s[5..7], 2),
        digits(&s[8..10], 2),
    ) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

fn time(s: &str) -> bool {
    if !s.is_ascii() {
        return false;
    }
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(h), Some(mi), Some(se)) = (
        digits(&s[0..2], 2),
        digits(&s[3..5], 2),
        digits(&s[6..8], 2),
    ) else {
        return false;
    };
    if h > 23 || mi > 59 || se > 60 {
        return false;
    }
    let utc = |offset_minutes: i32| {
        // A leap second is only valid at 23:59:60 UTC.
        se != 60 || (h as i32 * 60 + mi as i32 - offset_minutes).rem_euclid(1440) == 23 * 60 + 59
    };
    let mut rest = &s[8..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    match rest {
        "Z" | "z" => utc(0),
        _ => {
            let rb = rest.as_bytes();
            if !(rb.len() == 6 && (rb[0] == b'+' || rb[0] == b'-') && rb[3] == b':') {
                return false;
            }
            let (Some(oh), Some(om)) = (digits(&rest[1..3], 2), digits(&rest[4..6], 2)) else {
                return false;
            };
            let sign = if rb[0] == b'-' { -1 } else { 1 };
            oh <= 23 && om <= 59 && utc(sign * (oh as i32 * 60 + om as i32))
        }
    }
}

fn date_time(s: &str) -> bool {
    if !s.is_ascii() {
        return false;
    }
    // RFC 3339 `full-date "T" full-time`; its section 5.6 allows a lowercase `t`. A space is
    // allowed only by a note about readability, not by the grammar.
    s.len() > 11 && matches!(s.as_bytes()[10], b'T' | b't') && date(&s[..10]) && time(&s[11..])
}

fn duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else {
        return false;
    };
    if rest.is_empty() {
        return false;
    }
    if let Some(w) = rest.strip_suffix('W') {
        return !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    }
    let (date_part, time_part) = match rest.split_once('T') {
        Some((d, t)) => (d, Some(t)),
        None => (rest, None),
    };
    /// The number of units; they must follow `order` without gaps (RFC 3339 appendix A: no
    /// years and days without months).
    fn units(part: &str, order: &[u8]) -> Option<usize> {
        let mut count = 0;
        let mut last: Option<usize> = None;
        let mut num = 0;
        for b in part.bytes() {
            if b.is_ascii_digit() {
                num += 1;
            } else {
                let pos = order.iter().position(|&u| u == b)?;
                if num == 0 || last.is_some_and(|l| pos != l + 1) {
                    return None;
                }
                last = Some(pos);
                num = 0;
                count += 1;
            }
        }
        (num == 0).then_some(count)
    }
    let Some(d) = units(date_part, b"YMD") else {
        return false;
    };
    match time_part {
        None => d > 0,
        Some(t) => units(t, b"HMS").is_some_and(|n| n > 0),
    }
}

fn email(s: &str, idn: bool) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let local_ok = if let Some(q) = local.strip_prefix('"').and_then(|l| l.strip_suffix('"')) {
        // A quoted local part: any printable text, `\` escapes the next character.
        let mut chars = q.chars();
        let mut ok = true;
        while let Some(c) = chars.next() {
            if c == '\\' {
                ok &= chars.next().is_some();
            } else if c == '"' || (c.is_ascii_control() && c != '\t') {
                ok = false;
            }
        }
        ok
    } else {
        let atext = |c: char| {
            c.is_ascii_alphanumeric()
                || "!#$%&'*+-/=?^_`{|}~".contains(c)
                || (idn && !c.is_ascii() && c != '\u{ff20}')
        };
        !local.is_empty()
            && local
                .split('.')
                .all(|atom| !atom.is_empty() && atom.chars().all(atext))
    };
    let domain_ok = if let Some(lit) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        match lit.strip_prefix("IPv6:") {
            Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
            None => ipv4(lit),
        }
    } else if idn {
        idn_hostname(domain)
    } else {
        hostname(domain)
    };
    local_ok && domain_ok
}

fn hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-')
                && a_label_ok(label)
        })
}

/// An A-label (`xn--`) must hold valid Punycode that decodes to a non-ASCII label without `--`
/// in the third and fourth position.
fn a_label_ok(label: &str) -> bool {
    let Some(rest) = label
        .get(..4)
        .filter(|p| p.eq_ignore_ascii_case("xn--"))
        .and_then(|_| label.get(4..))
    else {
        return true;
    };
    punycode_decode(rest).is_some_and(|u| {
        let reserved = u.len() >= 4 && u[2] == '-' && u[3] == '-';
        u.iter().any(|c| !c.is_ascii()) && !reserved
    })
}

/// RFC 3492 decoding.
fn punycode_decode(input: &str) -> Option<Vec<char>> {
    const BASE: u32 = 36;
    let (basic, ext) = match input.rfind('-') {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => ("", input),
    };
    if !basic.is_ascii() {
        return None;
    }
    let mut out: Vec<char> = basic.chars().collect();
    let (mut n, mut i, mut bias) = (128u32, 0u32, 72u32);
    let mut it = ext.bytes().peekable();
    while it.peek().is_some() {
        let old_i = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let c = it.next()?;
            let digit = match c {
                b'a'..=b'z' => c - b'a',
                b'A'..=b'Z' => c - b'A',
                b'0'..=b'9' => c - b'0' + 26,
                _ => return None,
            } as u32;
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = if k <= bias {
                1
            } else if k >= bias + 26 {
                26
            } else {
                k - bias
            };
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let len = out.len() as u32 + 1;
        let mut delta = if old_i == 0 {
            (i - old_i) / 700
        } else {
            (i - old_i) / 2
        };
        delta += delta / len;
        let mut k = 0;
        while delta > ((BASE - 1) * 26) / 2 {
            delta /= BASE - 1;
            k += BASE;
        }
        bias = k + (BASE * delta) / (delta + 38);
        n = n.checked_add(i / len)?;
        i %= len;
        out.insert(i as usize, char::from_u32(n)?);
        i += 1;
    }
    Some(out)
}

/// Internationalized host names: labels of letters, digits and hyphens in any script (IDNA
/// 2008's per-character tables are not applied), the same length and hyphen rules.
fn idn_hostname(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 253
        && s.split(['.', '\u{3002}', '\u{ff0e}', '\u{ff61}'])
            .all(|label| {
                !label.is_empty()
                    && label.chars().count() <= 63
                    && !label.starts_with('-')
                    && !label.ends_with('-')
                    && label.chars().all(|c| {
                        c.is_alphanumeric()
                            || c == '-'
                            || (!c.is_ascii() && !c.is_whitespace() && !c.is_control())
                    })
                    && a_label_ok(label)
            })
}

fn ipv4(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|b| b.is_ascii_digit())
                && !(p.len() > 1 && p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

const SUB_DELIMS: &str = "!$&'()*+,;=";

/// Every character is unreserved, a sub-delimiter, one of `extra`, or a valid `%XX` (and, for
/// IRIs, any non-ASCII character that is not a control or space).
fn uri_chars(s: &str, iri: bool, extra: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    for (pos, c) in s.char_indices() {
        if pos < i {
            continue;
        }
        let ok = if c == '%' {
            i = pos + 3;
            b.get(pos + 1).is_some_and(u8::is_ascii_hexdigit)
                && b.get(pos + 2).is_some_and(u8::is_ascii_hexdigit)
        } else {
            c.is_ascii_alphanumeric()
                || "-._~".contains(c)
                || SUB_DELIMS.contains(c)
                || extra.contains(c)
                || (iri && !c.is_ascii() && !c.is_control() && !c.is_whitespace())
        };
        if !ok {
            return false;
        }
    }
    true
}

fn is_scheme(s: &str) -> bool {
    let mut b = s.bytes();
    b.next().is_some_and(|c| c.is_ascii_alphabetic())
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'-' || c == b'.')
}

fn authority(a: &str, iri: bool) -> bool {
    let (userinfo, hostport) = match a.split_once('@') {
        Some((u, h)) => (Some(u), h),
        None => (None, a),
    };
    if userinfo.is_some_and(|u| !uri_chars(u, iri, ":")) {
        return false;
    }
    let (host_ok, port) = if let Some(rest) = hostport.strip_prefix('[') {
        let Some((lit, after)) = rest.split_once(']') else {
            return false;
        };
        let lit_ok = if let Some(future) = lit.strip_prefix(['v', 'V']) {
            future.split_once('.').is_some_and(|(ver, body)| {
                !ver.is_empty()
                    && ver.bytes().all(|c| c.is_ascii_hexdigit())
                    && !body.is_empty()
                    && uri_chars(body, false, ":")
                    && !body.contains('%')
            })
        } else {
            lit.parse::<std::net::Ipv6Addr>().is_ok()
        };
        let port = match after {
            "" => Some(""),
            p => p.strip_prefix(':'),
        };
        (lit_ok, port)
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) => (uri_chars(h, iri, ""), Some(p)),
            None => (uri_chars(hostport, iri, ""), Some("")),
        }
    };
    host_ok && port.is_some_and(|p| p.bytes().all(|c| c.is_ascii_digit()))
}

/// RFC 3986 URI (`relative`: URI-reference), or RFC 3987 IRI with `iri`.
fn uri(s: &str, iri: bool, relative: bool) -> bool {
    let (rest, fragment) = match s.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (s, None),
    };
    if fragment.is_some_and(|f| !uri_chars(f, iri, ":@/?")) {
        return false;
    }
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    if query.is_some_and(|q| !uri_chars(q, iri, ":@/?")) {
        return false;
    }
    let first_segment = rest.split('/').next().unwrap_or("");
    let hier = match first_segment.split_once(':') {
        Some((scheme, _)) if is_scheme(scheme) => &rest[scheme.len() + 1..],
        // A colon in the first segment of a relative path would read as a scheme.
        Some(_) => return false,
        None if relative => rest,
        None => return false,
    };
    let path = match hier.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            if !authority(&after[..end], iri) {
                return false;
            }
            &after[end..]
        }
        None => hier,
    };
    uri_chars(path, iri, ":@/")
}

/// RFC 6570 URI template (level 4).
fn uri_template(s: &str) -> bool {
    let mut rest = s;
    while !rest.is_empty() {
        let Some(open) = rest.find(['{', '}']) else {
            return template_literal(rest);
        };
        if !template_literal(&rest[..open]) || rest.as_bytes()[open] == b'}' {
            return false;
        }
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            return false;
        };
        if !template_expression(&after[..close]) {
            return false;
        }
        rest = &after[close + 1..];
    }
    true
}

fn template_literal(s: &str) -> bool {
    s.chars()
        .all(|c| !(c.is_control() || c == ' ' || "\"<>\\^`{|}".contains(c)))
        && valid_percent(s)
}

fn template_expression(e: &str) -> bool {
    let body = e
        .strip_prefix(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|'])
        .unwrap_or(e);
    !body.is_empty()
        && body.split(',').all(|spec| {
            let (name, modifier) = match spec.find([':', '*']) {
                Some(i) => (&spec[..i], &spec[i..]),
                None => (spec, ""),
            };
            let name_ok = !name.is_empty()
                && !name.starts_with('.')
                && !name.ends_with('.')
                && !name.contains("..")
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '%')
                && valid_percent(name);
            let modifier_ok = match modifier {
                "" | "*" => true,
                m => m.strip_prefix(':').is_some_and(|n| {
                    (1..=4).contains(&n.len())
                        && !n.starts_with('0')
                        && n.bytes().all(|b| b.is_ascii_digit())
                }),
            };
            name_ok && modifier_ok
        })
}

fn valid_percent(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if !(b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
            {
                return false;
            }
            i += 3;
        } else {
            i += 1;
        }
    }
    true
}

fn uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn json_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    if !s.starts_with('/') {
        return false;
    }
    let b = s.as_bytes();
    b.iter()
        .enumerate()
        .all(|(i, c)| *c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

/// RFC 4648 base64 (standard alphabet, padding required); `None` when `s` is not base64.
pub(crate) fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() % 4 != 0 {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    for (i, chunk) in b.chunks(4).enumerate() {
        let last = i + 1 == b.len() / 4;
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut acc = 0u32;
        for &c in &chunk[..4 - pad] {
            acc = (acc << 6) | val(c)?;
        }
        acc <<= 6 * pad as u32;
        let bytes = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

fn relative_json_pointer(s: &str) -> bool {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    if n == 0 || (n > 1 && s.starts_with('0')) {
        return false;
    }
    let rest = &s[n..];
    rest == "#" || json_pointer(rest)
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn base64() {
        assert_eq!(
            super::base64_decode("eyJmb28iOiAiYmFyIn0K").as_deref(),
            Some(&b"{\"foo\": \"bar\"}\n"[..])
        );
        assert_eq!(super::base64_decode("YQ==").as_deref(), Some(&b"a"[..]));
        assert!(super::base64_decode("eyJmb28iOi%iYmFyIn0K").is_none());
        assert!(super::base64_decode("YQ=").is_none());
    }

    #[test]
    fn no_panic_on_any_input() {
        let formats = [
            "date-time",
            "date",
            "time",
            "duration",
            "email",
            "idn-email",
            "hostname",
            "idn-hostname",
            "ipv4",
            "ipv6",
            "uri",
            "iri",
            "uri-reference",
            "iri-reference",
            "uri-template",
            "uuid",
            "json-pointer",
            "relative-json-pointer",
            "regex",
        ];
        let seeds = [
            "2026-02-05T14:30:00Z",
            "23:59:60+01:00",
            "P1Y2M3DT4H5M6S",
            "\"a b\"@x.com",
            "xn--9n2bp8q.xn--9t4b11yi5a",
            "http://[::1]:80/a?b#c",
            "{+a,b:3}",
            "0/a~1b",
            "xn--",
        ];
        for f in formats {
            for seed in seeds {
                for i in 0..=seed.len() {
                    for ins in ["례", "é", "\u{10000}", "%", "\\"] {
                        let mut t = seed.to_string();
                        if t.is_char_boundary(i) {
                            t.insert_str(i, ins);
                            let _ = check(f, &t);
                            let _ = check(f, &t[..i]);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn formats() {
        assert!(check("date-time", "2026-02-05T14:30:00Z"));
        assert!(check("date-time", "2026-02-05T14:30:00.123+01:00"));
        assert!(!check("date-time", "2026-02-30T14:30:00Z"));
        assert!(!check("date-time", "2026-02-05 14:30"));
        assert!(!check("date-time", "2024-01-01 10:00:00Z"));
        assert!(check("date-time", "2024-01-01t10:00:00z"));
        assert!(!check("date-time", "2024-01-01T10:00:00"));
        assert!(!check("date-time", "2024-01-01T"));
        assert!(check("date", "2024-02-29"));
        assert!(!check("date", "2023-02-29"));
        assert!(check("time", "23:59:60Z"));
        assert!(!check("time", "24:00:00Z"));
        assert!(check("email", "a.b@example.com"));
        assert!(!check("email", "a b@example.com"));
        assert!(!check("email", "nobody"));
        assert!(check("uri", "https://example.com/a?b=c#d"));
        assert!(!check("uri", "https://example.org/foobar{}.txt"));
        assert!(!check("uri", "https://example.org/foobar®.txt"));
        assert!(check("iri", "http://ƒøø.ßår/?q=1"));
        assert!(!check("time", "22:59:60Z"));
        assert!(check("time", "23:59:60Z"));
        assert!(check("time", "15:59:60-08:00"));
        assert!(check("email", "\"joe bloggs\"@example.com"));
        assert!(!check("email", "joe.bloggs@[127.0.0.300]"));
        assert!(check("relative-json-pointer", "0#"));
        assert!(!check("relative-json-pointer", "01/a"));
        assert!(check(
            "uri-template",
            "http://example.com/dictionary/{term:1}/{term}"
        ));
        assert!(!check("uri-template", "{a..b}"));
        assert!(check("hostname", "xn--9n2bp8q.xn--9t4b11yi5a"));
        assert!(!check("hostname", "xn--X"));
        assert!(!check("hostname", "example."));
        assert!(!check("uri", "example.com/a"));
        assert!(!check("uri", "https://exa mple.com"));
        assert!(!check("uri", "https://x/%zz"));
        assert!(check("uuid", "123e4567-e89b-12d3-a456-426614174000"));
        assert!(!check("uuid", "123e4567e89b12d3a456426614174000"));
        assert!(check("ipv4", "192.168.1.205"));
        assert!(!check("ipv4", "256.1.1.1"));
        assert!(!check("ipv4", "01.1.1.1"));
        assert!(check("ipv6", "::1"));
        assert!(!check("ipv6", "1::2::3"));
        assert!(check("hostname", "api.example.com"));
        assert!(!check("hostname", "-bad.example.com"));
        assert!(check("duration", "P3DT4H"));
        assert!(check("duration", "P2W"));
        assert!(!check("duration", "PT"));
        assert!(!check("duration", "P1H"));
        assert!(check("unknown-format", "anything"));
    }
}
