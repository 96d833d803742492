//! Just enough JSON for the documents the crate itself reads and writes (a turn to start,
//! the result of a turn, a runtime's statistics), so that the crate needs no JSON library:
//! strings are quoted, and the fields of an object are found by name at its top level.

use std::fmt::Write;

/// `text` as a JSON string literal, quotes included.
pub(crate) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether `text` is one JSON value with nothing but white space around it. Checks the
/// nesting of brackets and strings only; the library parses the value itself.
pub(crate) fn is_one_value(text: &str) -> bool {
    let start = skip_space(text.as_bytes(), 0);
    match value_end(text.as_bytes(), start) {
        Some(end) => end > start && skip_space(text.as_bytes(), end) == text.len(),
        None => false,
    }
}

/// The text of the value of `key` in the JSON object `object`, at its top level.
pub(crate) fn field<'a>(object: &'a str, key: &str) -> Option<&'a str> {
    let bytes = object.as_bytes();
    let mut i = skip_space(bytes, 0);
    if bytes.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    loop {
        i = skip_space(bytes, i);
        if bytes.get(i) != Some(&b'"') {
            return None; // The end of the object, or not an object.
        }
        let key_end = value_end(bytes, i)?;
        let name = &object[i + 1..key_end - 1];
        i = skip_space(bytes, key_end);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_space(bytes, i + 1);
        let end = value_end(bytes, start)?;
        if name == key {
            return Some(&object[start..end]);
        }
        i = skip_space(bytes, end);
        if bytes.get(i) != Some(&b',') {
            return None;
        }
        i += 1;
    }
}

/// A JSON string literal's text; None for any other value (null included).
pub(crate) fn string(value: &str) -> Option<String> {
    let inner = value.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'b' => out.push('\u{8}'),
            'f' => out.push('\u{c}'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'u' => {
                let unit = hex4(&mut chars)?;
                let code = if (0xD800..0xDC00).contains(&unit) {
                    // A surrogate pair: the low half follows as another \u escape.
                    if chars.next() != Some('\\') || chars.next() != Some('u') {
                        return None;
                    }
                    let low = hex4(&mut chars)?;
                    0x10000 + ((unit - 0xD800) << 10) + (low.checked_sub(0xDC00)? & 0x3FF)
                } else {
                    unit
                };
                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            other => out.push(other), // \" \\ \/
        }
    }
    Some(out)
}

pub(crate) fn boolean(value: &str) -> Option<bool> {
    match value {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// A non-negative integer; None for a negative, fractional or missing number.
pub(crate) fn count(value: &str) -> Option<u64> {
    value.parse().ok()
}

fn hex4(chars: &mut std::str::Chars<'_>) -> Option<u32> {
    let digits: String = chars.take(4).collect();
    if digits.len() != 4 {
        return None;
    }
    u32::from_str_radix(&digits, 16).ok()
}

fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Where the value starting at `start` ends (one past its last byte).
fn value_end(bytes: &[u8], start: usize) -> Option<usize> {
    match *bytes.get(start)? {
        b'"' => string_end(bytes, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = start;
            while i < bytes.len() {
                match bytes[i] {
                    b'"' => {
                        i = string_end(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let mut i = start;
            while i < bytes.len() && !b",}] \t\r\n".contains(&bytes[i]) {
                i += 1;
            }
            Some(i)
        }
    }
}

fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const RESULT: &str = r#"{"final_response":"The sum is \"42\".\n","messages":[{"role":"user",
        "content":"a } ] \" trap"},{"role":"tool","content":"{\"sum\":42}"}],"api_calls":2,
        "completed":true,"error":null,"emoji":"\ud83d\ude00 \u00e9"}"#;

    #[test]
    fn fields_are_found_at_the_top_level_past_nested_brackets_and_quotes() {
        assert_eq!(
            string(field(RESULT, "final_response").unwrap()).unwrap(),
            "The sum is \"42\".\n"
        );
        assert_eq!(field(RESULT, "api_calls"), Some("2"));
        assert_eq!(boolean(field(RESULT, "completed").unwrap()), Some(true));
        assert_eq!(field(RESULT, "error"), Some("null"));
        assert_eq!(string("null"), None);
        assert_eq!(field(RESULT, "role"), None);
        assert_eq!(field(RESULT, "missing"), None);
        assert_eq!(string(field(RESULT, "emoji").unwrap()).unwrap(), "😀 é");
    }

    #[test]
    fn a_quoted_string_reads_back_as_itself() {
        let text = "line\nnext \"quoted\" back\\slash \u{1} tab\t é";
        assert_eq!(string(&quote(text)).unwrap(), text);
    }

    #[test]
    fn one_value_means_one_balanced_value() {
        assert!(is_one_value(r#" [{"role":"user","content":"]"}] "#));
        assert!(!is_one_value(r#"[], "user_message": "x""#));
        assert!(!is_one_value("[[]"));
        assert!(!is_one_value(""));
    }
}
