//! [`JsonValues`]: the JSON values of a stream, one after another (JSON lines, or values
//! simply concatenated), each with the line it starts on, for located errors.
//!
//! The stream is read through serde_json's `StreamDeserializer`, one value in memory at a
//! time. Its own nesting limit (128) is lifted, since Avro data may nest as deep as the JSON
//! encoding allows ([`MAX_DEPTH`]); instead a scan of the bytes on their way to the parser
//! ([`Scanner`]) stops the stream once brackets nest deeper than that, so no input can make
//! the parser recurse without bound. The same scan notes where each top-level value starts.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, BufReader, Read};
use std::rc::Rc;

use avdl2rs::avro_json::MAX_DEPTH;
use serde_json::de::IoRead;
use serde_json::{StreamDeserializer, Value};

use crate::io::Failure;

/// The JSON values of a stream named `name` in messages: an iterator of the line each
/// value starts on and the value.
pub struct JsonValues<R: Read> {
    values: StreamDeserializer<'static, IoRead<BufReader<Scanner<R>>>, Value>,
    scan: Rc<RefCell<Scan>>,
    name: String,
}

impl<R: Read> JsonValues<R> {
    /// The values of `input`.
    pub fn new(input: R, name: impl Into<String>) -> Self {
        let scan = Rc::new(RefCell::new(Scan::default()));
        let scanner = Scanner {
            inner: input,
            scan: Rc::clone(&scan),
        };
        let mut parser = serde_json::Deserializer::from_reader(BufReader::new(scanner));
        parser.disable_recursion_limit();
        JsonValues {
            values: parser.into_iter(),
            scan,
            name: name.into(),
        }
    }

    /// The stream's name, as messages give it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The only value of the stream: none, or a second one, is an error.
    pub fn single(mut self) -> Result<Value, Failure> {
        let Some(first) = self.next() else {
            return Err(Failure::Message(format!("{}: no JSON value", self.name)));
        };
        let (_, value) = first?;
        match self.next() {
            None => Ok(value),
            Some(Ok((line, _))) => Err(Failure::Message(format!(
                "{}:{line}: a second JSON value, where one was expected",
                self.name
            ))),
            Some(Err(failure)) => Err(failure),
        }
    }

    /// The error of a value that is not JSON (or nests too deep), located.
    fn not_json(&self, error: &serde_json::Error) -> Failure {
        if let Some(line) = self.scan.borrow().too_deep {
            return Failure::Message(format!(
                "{}:{line}: JSON nested deeper than the limit of {MAX_DEPTH} levels",
                self.name
            ));
        }
        if error.is_io() {
            return Failure::Message(format!("cannot read {}: {error}", self.name));
        }
        let (line, column) = (error.line(), error.column());
        let text = error.to_string();
        let message = text
            .strip_suffix(&format!(" at line {line} column {column}"))
            .unwrap_or(&text);
        Failure::Message(format!(
            "{}:{line}:{column}: not JSON: {message}",
            self.name
        ))
    }
}

impl<R: Read> Iterator for JsonValues<R> {
    type Item = Result<(u64, Value), Failure>;

    fn next(&mut self) -> Option<Self::Item> {
        let value = match self.values.next()? {
            Ok(value) => value,
            Err(error) => return Some(Err(self.not_json(&error))),
        };
        let line = self.scan.borrow_mut().starts.pop_front().unwrap_or(0);
        Some(Ok((line, value)))
    }
}

/// What the scan knows of the bytes read so far.
#[derive(Debug)]
struct Scan {
    /// The line of the next byte, from 1.
    line: u64,
    /// Arrays and objects open.
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// Inside a number or literal at the top level.
    in_scalar: bool,
    /// The lines where top-level values start, for those the parser has not returned yet.
    starts: VecDeque<u64>,
    /// The line where brackets nested deeper than [`MAX_DEPTH`].
    too_deep: Option<u64>,
}

impl Default for Scan {
    fn default() -> Self {
        Scan {
            line: 1,
            depth: 0,
            in_string: false,
            escaped: false,
            in_scalar: false,
            starts: VecDeque::new(),
            too_deep: None,
        }
    }
}

impl Scan {
    /// Takes in one byte; `false` when it opens one level too many.
    fn byte(&mut self, byte: u8) -> bool {
        if byte == b'\n' {
            self.line += 1;
        }
        if self.in_string {
            match (self.escaped, byte) {
                (true, _) => self.escaped = false,
                (false, b'\\') => self.escaped = true,
                (false, b'"') => self.in_string = false,
                _ => {}
            }
            return true;
        }
        if matches!(byte, b' ' | b'\t' | b'\r' | b'\n') {
            self.in_scalar = false;
            return true;
        }
        let structural = matches!(byte, b'[' | b'{' | b']' | b'}' | b'"' | b',' | b':');
        let closing = matches!(byte, b']' | b'}' | b',' | b':');
        // A byte at the top level starts a value unless it goes on with a number or literal.
        let continues = self.in_scalar && !structural;
        if self.depth == 0 && !closing && !continues {
            self.starts.push_back(self.line);
        }
        self.in_scalar = !structural;
        match byte {
            b'[' | b'{' if self.depth == MAX_DEPTH => {
                self.too_deep = Some(self.line);
                return false;
            }
            b'[' | b'{' => self.depth += 1,
            b']' | b'}' => self.depth = self.depth.saturating_sub(1),
            b'"' => self.in_string = true,
            _ => {}
        }
        true
    }
}

/// The input on its way to the parser, scanned chunk by chunk.
struct Scanner<R> {
    inner: R,
    scan: Rc<RefCell<Scan>>,
}

impl<R: Read> Read for Scanner<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let too_deep = || io::Error::other(format!("JSON nested deeper than {MAX_DEPTH} levels"));
        let mut scan = self.scan.borrow_mut();
        if scan.too_deep.is_some() {
            return Err(too_deep());
        }
        let read = self.inner.read(buf)?;
        match buf[..read].iter().position(|&byte| !scan.byte(byte)) {
            // The bytes before the one too many go to the parser first.
            Some(0) => Err(too_deep()),
            Some(end) => Ok(end),
            None => Ok(read),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<(u64, Value)> {
        JsonValues::new(text.as_bytes(), "t")
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{}", e.one_line()))
    }

    #[test]
    fn values_come_with_the_line_they_start_on() {
        let text = "{\"a\": \"x\\\"}\"}\n\n[1,\n 2]\n3 4\"s\"\n  true\n";
        let found: Vec<u64> = lines(text).into_iter().map(|(line, _)| line).collect();
        assert_eq!(found, [1, 3, 5, 5, 5, 6]);
        let values: Vec<Value> = lines("1[2]{}\"x\"null")
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        assert_eq!(
            values,
            [
                serde_json::json!(1),
                serde_json::json!([2]),
                serde_json::json!({}),
                serde_json::json!("x"),
                Value::Null
            ]
        );
    }

    #[test]
    fn errors_are_located() {
        let error = JsonValues::new("{}\n{\"a\": }".as_bytes(), "in.json")
            .find_map(Result::err)
            .unwrap();
        assert_eq!(error.one_line(), "in.json:2:7: not JSON: expected value");
    }

    #[test]
    fn nesting_past_the_limit_stops_the_scan() {
        let deep = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert_eq!(lines(&deep).len(), 1);
        let too_deep = "[".repeat(MAX_DEPTH + 1);
        let error = JsonValues::new(too_deep.as_bytes(), "in.json")
            .find_map(Result::err)
            .unwrap();
        assert_eq!(
            error.one_line(),
            format!("in.json:1: JSON nested deeper than the limit of {MAX_DEPTH} levels")
        );
    }
}
