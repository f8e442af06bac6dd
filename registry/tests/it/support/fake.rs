//! A small HTTP/1.1 server on 127.0.0.1 answering like a Confluent Schema Registry (from the
//! API documentation), for what a real registry cannot be made to do: lookups, references,
//! auth, error codes, throttling, slow and dropped connections. It counts and keeps the
//! requests, so tests can show retries and single flight.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustls::{ServerConfig, ServerConnection, StreamOwned};

/// A request as the fake received it.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// The certificate the client presented over TLS (DER).
    pub client_certificate: Option<Vec<u8>>,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the fake does with a request.
pub enum Answer {
    /// Replies with this status, extra headers and JSON body, after `delay`.
    Reply {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
        delay: Duration,
    },
    /// Closes the connection without a reply.
    Drop,
}

impl Answer {
    pub fn json(status: u16, body: impl Into<String>) -> Self {
        Answer::Reply {
            status,
            headers: Vec::new(),
            body: body.into(),
            delay: Duration::ZERO,
        }
    }

    pub fn error(status: u16, code: i32, message: &str) -> Self {
        Self::json(
            status,
            serde_json::json!({"error_code": code, "message": message}).to_string(),
        )
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        if let Answer::Reply { headers, .. } = &mut self {
            headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }

    pub fn after(mut self, wait: Duration) -> Self {
        if let Answer::Reply { delay, .. } = &mut self {
            *delay = wait;
        }
        self
    }
}

type Handler = dyn Fn(&Seen, usize) -> Answer + Send + Sync;

/// A running fake; it stops serving when the test process ends.
pub struct Fake {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    connections: Arc<AtomicUsize>,
}

impl Fake {
    /// Starts a fake answering each request with `handler(request, number of requests
    /// before it)`.
    pub fn start(handler: impl Fn(&Seen, usize) -> Answer + Send + Sync + 'static) -> Fake {
        Self::listen(handler, None)
    }

    /// Starts a fake behind TLS with these server settings (an `https://` URL).
    pub fn start_tls(
        handler: impl Fn(&Seen, usize) -> Answer + Send + Sync + 'static,
        tls: Arc<ServerConfig>,
    ) -> Fake {
        Self::listen(handler, Some(tls))
    }

    fn listen(
        handler: impl Fn(&Seen, usize) -> Answer + Send + Sync + 'static,
        tls: Option<Arc<ServerConfig>>,
    ) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let scheme = if tls.is_some() { "https" } else { "http" };
        let url = format!("{scheme}://{}", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let log = Arc::clone(&seen);
        let connections = Arc::new(AtomicUsize::new(0));
        let accepted = Arc::clone(&connections);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                accepted.fetch_add(1, Ordering::SeqCst);
                let handler = Arc::clone(&handler);
                let log = Arc::clone(&log);
                let tls = tls.clone();
                std::thread::spawn(move || match tls {
                    None => serve(stream, &*handler, &log, |_| None),
                    Some(tls) => {
                        let Ok(connection) = ServerConnection::new(tls) else {
                            return;
                        };
                        let stream = StreamOwned::new(connection, stream);
                        serve(stream, &*handler, &log, |s| {
                            let chain = s.conn.peer_certificates()?;
                            chain.first().map(|c| c.to_vec())
                        })
                    }
                });
            }
        });
        Fake {
            url,
            seen,
            connections,
        }
    }

    /// The requests received so far.
    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// The method and path of each request received so far.
    pub fn sent(&self) -> Vec<(String, String)> {
        let seen = self.seen.lock().unwrap();
        seen.iter()
            .map(|r| (r.method.clone(), r.path.clone()))
            .collect()
    }

    pub fn count(&self) -> usize {
        self.seen.lock().unwrap().len()
    }

    /// The connections accepted so far, including those refused before any request.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

/// Answers the requests of one connection; `peer` tells the client's certificate.
fn serve<S: Read + Write>(
    stream: S,
    handler: &Handler,
    log: &Mutex<Vec<Seen>>,
    peer: fn(&S) -> Option<Vec<u8>>,
) {
    let mut reader = BufReader::new(stream);
    while let Some(mut request) = read_request(&mut reader) {
        request.client_certificate = peer(reader.get_ref());
        let number = {
            let mut log = log.lock().unwrap();
            log.push(request.clone());
            log.len() - 1
        };
        match handler(&request, number) {
            Answer::Drop => return,
            Answer::Reply {
                status,
                headers,
                body,
                delay,
            } => {
                std::thread::sleep(delay);
                let mut head = format!(
                    "HTTP/1.1 {status} X\r\nContent-Type: application/vnd.schemaregistry.v1+json\r\nContent-Length: {}\r\n",
                    body.len()
                );
                for (name, value) in headers {
                    head.push_str(&format!("{name}: {value}\r\n"));
                }
                head.push_str("\r\n");
                let writer = reader.get_mut();
                if writer.write_all(head.as_bytes()).is_err()
                    || writer.write_all(body.as_bytes()).is_err()
                    || writer.flush().is_err()
                {
                    return;
                }
            }
        }
    }
}

fn read_request(reader: &mut impl BufRead) -> Option<Seen> {
    let mut line = String::new();
    reader.read_line(&mut line).ok().filter(|n| *n > 0)?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.trim().to_owned(), value.trim().to_owned()));
    }
    let length = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Seen {
        method,
        path,
        headers,
        body: String::from_utf8(body).ok()?,
        client_certificate: None,
    })
}

/// A URL nothing listens on.
pub fn dead_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://{}", listener.local_addr().unwrap())
}
