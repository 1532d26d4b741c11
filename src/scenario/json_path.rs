//! The field path at a place in a JSON text: `faults[2].node` for the byte where serde_json
//! stopped with a syntax error. serde_json says where (line and column) but not in which field;
//! scanning the text up to that position tells, for a few hundred bytes of code, and only runs
//! when there is an error.

/// One open container while scanning.
enum Frame {
    /// An object, with the key whose value is being read (None before the first key or after a comma).
    Object { key: Option<String>, in_value: bool },
    /// An array, with the index of the element being read (None before it starts).
    Array { index: usize, started: bool },
}

/// The path of the value a JSON syntax error is in. Only syntax errors (and keys written twice,
/// which name their object) come here: the text is parsed into a `serde_json::Value` first, and everything about fields and types is the
/// reader's (`scenario::read`), which knows its paths. A key whose colon was never read is not
/// yet a field, so the error belongs to its object.
pub fn of_error(text: &str, e: &serde_json::Error) -> String {
    path_at(text, e.line(), e.column(), false)
}

/// A JSON syntax error in plain words, with where it is: "the text ends before this object
/// does: a } is missing (line 67)", where serde_json says "EOF while parsing an object at line
/// 67 column 0" (issue 25). A key written twice keeps its own words, which name the key.
pub fn words(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let code = text.rsplit_once(" at line ").map_or(text.as_str(), |(code, _)| code);
    let plain = match code {
        "EOF while parsing an object" => "the text ends before this object does: a } is missing",
        "EOF while parsing a list" => "the text ends before this list does: a ] is missing",
        "EOF while parsing a string" => "the text ends inside a string: a closing \" is missing",
        "EOF while parsing a value" => "the text ends where a value should be",
        "expected `:`" => "a colon (:) is missing after the key",
        "expected `,` or `}`" => "a comma or a } is missing after a value",
        "expected `,` or `]`" => "a comma or a ] is missing after an element",
        "expected value" | "expected ident" => {
            "this is not a JSON value (text goes in double quotes; true, false and null are written in lower case)"
        }
        "trailing comma" => "a comma before a closing bracket: JSON allows none there",
        "trailing characters" => "there is more text after the end of the scenario",
        "key must be a string" => "a key must be a name in double quotes",
        "invalid number" => "this number is not written the way JSON writes numbers",
        "number out of range" => "this number is too large",
        "invalid escape" => "a backslash in a string starts no known escape (write \\\\ for a backslash)",
        c if c.starts_with("control character") => "a string holds a line break or tab: write \\n or \\t instead",
        _ => return text,
    };
    match (e.line(), e.column()) {
        (0, _) => plain.to_string(),
        (line, 0) => format!("{plain} (line {line})"),
        (line, column) => format!("{plain} (line {line}, column {column})"),
    }
}

/// The byte offset of serde_json's 1-based line and column (the column counts bytes).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (start + column).min(text.len())
}

/// The path of the value being read at `line`:`column` of `text`, as serde_json reports an
/// error's position ("" for the document itself); `bare_keys` says whether a key whose colon
/// has not been read yet counts.
fn path_at(text: &str, line: usize, column: usize, bare_keys: bool) -> String {
    let bytes = text.as_bytes();
    let mut end = offset_of(text, line, column);
    // serde_json's position includes a character it only peeked at: a closing bracket or a
    // comma after the value in error has not been read, and the error is still about that value.
    if end > 0 && matches!(bytes[end - 1], b'}' | b']' | b',') {
        end -= 1;
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < end {
        let b = bytes[i];
        i += 1;
        match b {
            b'"' => {
                let start = i;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                let s = &text[start.min(text.len())..i.min(text.len())];
                i += 1;
                match stack.last_mut() {
                    Some(Frame::Object { key, in_value: false }) => *key = Some(s.to_string()),
                    top => start_value(top),
                }
            }
            b':' => {
                if let Some(Frame::Object { in_value, .. }) = stack.last_mut() {
                    *in_value = true;
                }
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { key, in_value }) => (*key, *in_value) = (None, false),
                Some(Frame::Array { index, started }) => (*index, *started) = (*index + 1, false),
                None => {}
            },
            b'{' | b'[' => {
                start_value(stack.last_mut());
                stack.push(if b == b'{' {
                    Frame::Object { key: None, in_value: false }
                } else {
                    Frame::Array { index: 0, started: false }
                });
            }
            b'}' | b']' => {
                stack.pop();
            }
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => start_value(stack.last_mut()),
        }
    }
    let mut path = String::new();
    for frame in &stack {
        match frame {
            Frame::Object { key: Some(k), in_value } if *in_value || bare_keys => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
            }
            Frame::Array { index, started: true } => path.push_str(&format!("[{index}]")),
            _ => {}
        }
    }
    path
}

/// A value starts inside the innermost container: an array's element is now being read.
fn start_value(top: Option<&mut Frame>) {
    if let Some(Frame::Array { started, .. }) = top {
        *started = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_at_offsets() {
        let text = "{\"lock\": {\"ttl\": 5},\n \"faults\": [{\"kind\": \"x\"}, {\"groups\": [[\"A\"], [\"B\", \"C\"]]}]}";
        let path_before = |needle: &str| {
            let off = text.find(needle).unwrap() + needle.len();
            path_at(text, 1, off, true)
        };
        assert_eq!(path_before("\"ttl\""), "lock.ttl");
        assert_eq!(path_before("\"ttl\": 5}"), "lock.ttl"); // the brace was only peeked at
        assert_eq!(path_before("\"ttl\": 5},"), "lock"); // the comma was only peeked at
        assert_eq!(path_at(text, 2, 0, true), "");
        let second_line = |needle: &str| {
            let line2 = &text[text.find('\n').unwrap() + 1..];
            path_at(text, 2, line2.find(needle).unwrap() + needle.len(), true)
        };
        assert_eq!(second_line("\"kind\": \"x\""), "faults[0].kind");
        assert_eq!(second_line("[[\"A\"], [\"B\""), "faults[1].groups[1][0]");
        assert_eq!(second_line("[[\"A\"], [\"B\", \"C\""), "faults[1].groups[1][1]");
    }

    #[test]
    fn escaped_quotes_and_truncated_text() {
        assert_eq!(path_at(r#"{"a\"b": 1"#, 1, 9, true), "a\\\"b");
        assert_eq!(path_at(r#"{"title": "unterminated"#, 1, 40, true), "title");
    }
}
