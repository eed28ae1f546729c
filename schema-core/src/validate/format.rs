//! The `format` checks: hand-written, linear, no regex.

/// Whether `s` is valid for `format`. Unknown formats are annotations only (JSON Schema 2020-12)
/// and always pass.
pub(crate) fn check(format: &str, s: &str) -> bool {
    match format {
        "date-time" => date_time(s),
        "date" => date(s),
        "time" => time(s),
        "duration" => duration(s),
        "email" | "idn-email" => email(s),
        "hostname" => hostname(s),
        "idn-hostname" => !s.is_empty() && s.len() <= 253 && !s.contains(char::is_whitespace),
        "ipv4" => ipv4(s),
        "ipv6" => s.parse::<std::net::Ipv6Addr>().is_ok(),
        "uri" | "iri" => uri(s),
        "uri-reference" | "iri-reference" => !s.contains(char::is_whitespace),
        "uuid" => uuid(s),
        "json-pointer" => json_pointer(s),
        "regex" => regex::Regex::new(s).is_ok(),
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
    let mut rest = &s[8..];
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        rest = &frac[n..];
    }
    match rest {
        "Z" | "z" => true,
        _ => {
            let rb = rest.as_bytes();
            rb.len() == 6
                && (rb[0] == b'+' || rb[0] == b'-')
                && rb[3] == b':'
                && digits(&rest[1..3], 2).is_some_and(|h| h <= 23)
                && digits(&rest[4..6], 2).is_some_and(|m| m <= 59)
        }
    }
}

fn date_time(s: &str) -> bool {
    match s.find(['T', 't', ' ']) {
        Some(10) => date(&s[..10]) && time(&s[11..]),
        _ => false,
    }
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
    fn units(part: &str, order: &[u8]) -> Option<usize> {
        let mut count = 0;
        let mut next = 0;
        let mut num = 0;
        for b in part.bytes() {
            if b.is_ascii_digit() {
                num += 1;
            } else {
                let pos = order[next..].iter().position(|&u| u == b)?;
                if num == 0 {
                    return None;
                }
                next += pos + 1;
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

fn email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && local.len() <= 64
        && !local.contains(char::is_whitespace)
        && !local.contains('@')
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && (hostname(domain) || (domain.starts_with('[') && domain.ends_with(']')))
}

fn hostname(s: &str) -> bool {
    let s = s.strip_suffix('.').unwrap_or(s);
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

fn uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut sc = scheme.bytes();
    sc.next().is_some_and(|b| b.is_ascii_alphabetic())
        && sc.all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'-' || b == b'.')
        && !rest.contains(|c: char| c.is_whitespace() || c == '<' || c == '>' || c == '"')
        && valid_percent(rest)
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

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn formats() {
        assert!(check("date-time", "2026-02-05T14:30:00Z"));
        assert!(check("date-time", "2026-02-05T14:30:00.123+01:00"));
        assert!(!check("date-time", "2026-02-30T14:30:00Z"));
        assert!(!check("date-time", "2026-02-05 14:30"));
        assert!(check("date", "2024-02-29"));
        assert!(!check("date", "2023-02-29"));
        assert!(check("time", "23:59:60Z"));
        assert!(!check("time", "24:00:00Z"));
        assert!(check("email", "a.b@example.com"));
        assert!(!check("email", "a b@example.com"));
        assert!(!check("email", "nobody"));
        assert!(check("uri", "https://example.com/a?b=c#d"));
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
