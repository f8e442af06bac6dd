//! A stand-in registry on 127.0.0.1 that answers every request with fixed JSON, for what the
//! real server of the tests cannot show: it keeps no `metadata` or `ruleSet` of a schema.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// A request the registry received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// The method.
    pub method: String,
    /// The path with its query.
    pub path: String,
    /// The body.
    pub body: String,
}

/// The running registry; it serves until the test process ends.
pub struct FixedRegistry {
    /// Its base URL.
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl FixedRegistry {
    /// Starts a registry answering each request with status 200 and the JSON
    /// `answer(method, path)`, one request per connection.
    pub fn start(answer: fn(&str, &str) -> serde_json::Value) -> FixedRegistry {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().expect("its address"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                if let Some(request) = read_request(&stream) {
                    let reply = answer(&request.method, &request.path).to_string();
                    kept.lock().expect("not poisoned").push(request);
                    let _ = write!(
                        &stream,
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\
                         Content-Length: {}\r\nConnection: close\r\n\r\n{reply}",
                        reply.len()
                    );
                }
            }
        });
        FixedRegistry { url, seen }
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().expect("not poisoned").clone()
    }
}

/// The request line, headers and body of one request.
fn read_request(stream: &TcpStream) -> Option<Seen> {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next()?.to_owned(), parts.next()?.to_owned());
    let mut length = 0;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        if header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok()?;
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let body = String::from_utf8(body).ok()?;
    Some(Seen { method, path, body })
}
