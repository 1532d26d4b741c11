//! Just enough HTTP/1.1 and base64 for etcd's JSON gateway (`/v3/...`): one POST per
//! connection on loopback, the answer read to its end. No client crate: the gateway speaks
//! plain JSON over HTTP, and a request a line long needs no more.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

/// POSTs `body` to `http://addr/path`; the JSON answer, or why there is none.
pub fn post(addr: &str, path: &str, body: &Value, timeout: Duration) -> Result<Value, String> {
    let mut stream = TcpStream::connect_timeout(&addr.parse().map_err(|e| format!("{addr}: {e}"))?, timeout).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(timeout)).map_err(|e| e.to_string())?;
    stream.set_write_timeout(Some(timeout)).map_err(|e| e.to_string())?;
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&answer);
    let (head, rest) = text.split_once("\r\n\r\n").ok_or("no HTTP header")?;
    if !head.starts_with("HTTP/1.1 200") {
        return Err(head.lines().next().unwrap_or("").to_string());
    }
    let json = if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { unchunk(rest) } else { rest.to_string() };
    serde_json::from_str(&json).map_err(|e| format!("{path}: {e}"))
}

/// The body of a chunked answer.
fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || tail.len() < n {
            break;
        }
        out += &tail[..n];
        rest = tail[n..].trim_start_matches("\r\n");
    }
    out
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn base64(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..4 {
            out.push(if i <= chunk.len() { ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

pub fn unbase64(text: &str) -> Vec<u8> {
    let bits: Vec<u32> = text.bytes().filter_map(|c| ALPHABET.iter().position(|&a| a == c).map(|p| p as u32)).collect();
    let mut out = Vec::new();
    for chunk in bits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &v)| n | v << (18 - 6 * i));
        out.extend([(n >> 16) as u8, (n >> 8) as u8, n as u8].into_iter().take(chunk.len().saturating_sub(1)));
    }
    out
}

/// An int64 the gateway writes as a JSON string ("123"), or as a number.
pub fn int(v: &Value) -> Option<i64> {
    v.as_str().and_then(|s| s.parse().ok()).or_else(|| v.as_i64())
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_round_trips() {
        for s in ["", "f", "fo", "foo", "lock/A:0:123:7"] {
            assert_eq!(super::unbase64(&super::base64(s.as_bytes())), s.as_bytes());
        }
        assert_eq!(super::base64(b"foob"), "Zm9vYg==");
    }
}
