//! The language server's answer to an edit: the time from a `didChange` to the diagnostics it
//! publishes (the tree built again, then the compile and every lint rule, placed in UTF-16),
//! on the warehouse example (three files across folders) and on a generated protocol of
//! 3,000 records (about 1 MB, thousands of findings); the time of a hover, a definition and a
//! completion request on a type reference of each; and the heap the server holds with the
//! large file open. The server runs in process on `lsp-server`'s in-memory connection, as
//! an editor would drive it over stdio, without the pipe.
//!
//! The goal of a request is a 99th percentile, which criterion does not report: each request
//! bench times every request it sends (`iter_custom`, warm-up included) and prints the 50th
//! and 99th percentiles and the slowest of them after criterion's own figures.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use avdl2rs_bench::ledger::protocol;
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion};
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};

/// The system allocator, counting the bytes live.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A server on a thread and the client end of its connection, with one document open.
struct Session {
    client: Connection,
    server: Option<JoinHandle<()>>,
    uri: String,
    text: String,
    version: i32,
    /// The id of the last request sent.
    last_id: i32,
}

impl Session {
    /// A server on the folder of `path` (its workspace, which the server indexes), whose
    /// imports are also looked for in `include`, with `path` open.
    fn open(path: &Path, include: Vec<PathBuf>) -> Session {
        let (server, client) = Connection::memory();
        let options = avdl2rs_lsp::Options {
            include_dirs: include,
        };
        let server = std::thread::spawn(move || avdl2rs_lsp::run(server, options).unwrap());
        let path = path.canonicalize().unwrap();
        let folder = format!("file://{}", path.parent().unwrap().display());
        let init = Request::new(
            RequestId::from(1),
            "initialize".to_owned(),
            json!({"capabilities": {}, "rootUri": folder}),
        );
        client.sender.send(init.into()).unwrap();
        wait(&client, |m| matches!(m, Message::Response(_)));
        notify(&client, "initialized", json!({}));
        let uri = format!("file://{}", path.display());
        let text = std::fs::read_to_string(&path).unwrap();
        let item = json!({"uri": uri, "languageId": "avro-idl", "version": 0, "text": text});
        notify(
            &client,
            "textDocument/didOpen",
            json!({"textDocument": item}),
        );
        let session = Session {
            client,
            server: Some(server),
            uri,
            text,
            version: 0,
            last_id: 1,
        };
        session.diagnostics();
        session
    }

    /// Sends a change (a space added at the end, or taken away again) and waits for its
    /// diagnostics; returns how many there are.
    fn edit(&mut self) -> usize {
        self.version += 1;
        let text = if self.version % 2 == 1 {
            format!("{} ", self.text)
        } else {
            self.text.clone()
        };
        let id = json!({"uri": self.uri, "version": self.version});
        let change = json!({"textDocument": id, "contentChanges": [{"text": text}]});
        notify(&self.client, "textDocument/didChange", change);
        self.diagnostics()
    }

    /// Waits for the next diagnostics of the document.
    fn diagnostics(&self) -> usize {
        let message = wait(
            &self.client,
            |m| matches!(m, Message::Notification(n) if n.method == "textDocument/publishDiagnostics"),
        );
        let Message::Notification(notification) = message else {
            unreachable!()
        };
        notification.params["diagnostics"]
            .as_array()
            .map_or(0, Vec::len)
    }

    /// Sends request `method` at the `nth` `needle` of the document (plus `within` bytes)
    /// and waits for its answer, which must be a result that is not null.
    fn request_at(&mut self, method: &str, at: &TextPosition) -> Value {
        self.last_id += 1;
        let id = RequestId::from(self.last_id);
        let params = json!({"textDocument": {"uri": self.uri}, "position": at.0});
        let request = Request::new(id.clone(), method.to_owned(), params);
        self.client.sender.send(request.into()).unwrap();
        let answer = wait(
            &self.client,
            |m| matches!(m, Message::Response(r) if r.id == id),
        );
        let Message::Response(response) = answer else {
            unreachable!()
        };
        let result = response.result.unwrap_or(Value::Null);
        let error = response.error.map(|e| e.message);
        assert!(!result.is_null(), "{method} at {:?}: {error:?}", at.0);
        result
    }

    /// The LSP position of the `nth` `needle` in the document, plus `within` bytes (the
    /// files are ASCII, so a byte is a UTF-16 code unit).
    fn position(&self, needle: &str, nth: usize, within: usize) -> TextPosition {
        let at = self
            .text
            .match_indices(needle)
            .nth(nth)
            .expect("the needle")
            .0
            + within;
        let line_start = self.text[..at].rfind('\n').map_or(0, |n| n + 1);
        let line = self.text[..line_start].matches('\n').count();
        TextPosition(json!({"line": line, "character": at - line_start}))
    }

    fn close(mut self) {
        let shutdown = Request::new(RequestId::from(2), "shutdown".to_owned(), Value::Null);
        self.client.sender.send(shutdown.into()).unwrap();
        wait(&self.client, |m| matches!(m, Message::Response(_)));
        notify(&self.client, "exit", Value::Null);
        self.server.take().unwrap().join().unwrap();
    }
}

fn notify(client: &Connection, method: &str, params: Value) {
    let notification = Notification::new(method.to_owned(), params);
    client.sender.send(notification.into()).unwrap();
}

/// A position in the document, as LSP writes it.
struct TextPosition(Value);

/// Benches hover, definition and completion at the positions given, then prints the
/// percentiles of every request's duration.
fn requests(
    group: &mut BenchmarkGroup<'_, WallTime>,
    document: &str,
    session: &mut Session,
    reference: &TextPosition,
    completion: &TextPosition,
) {
    for (name, method, at) in [
        ("hover", "textDocument/hover", reference),
        ("definition", "textDocument/definition", reference),
        ("completion", "textDocument/completion", completion),
    ] {
        let mut durations = Vec::new();
        group.bench_function(format!("{name}/{document}"), |b| {
            b.iter_custom(|iterations| {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    let start = Instant::now();
                    session.request_at(method, at);
                    let took = start.elapsed();
                    durations.push(took);
                    total += took;
                }
                total
            })
        });
        print_percentiles(&format!("lsp/{name}/{document}"), durations);
    }
}

/// Prints the 50th and 99th percentiles and the slowest of `durations`; nothing when the
/// bench did not run (filtered out on the command line).
fn print_percentiles(name: &str, mut durations: Vec<Duration>) {
    if durations.is_empty() {
        return;
    }
    durations.sort_unstable();
    let at = |fraction: f64| {
        let index = ((durations.len() as f64 * fraction).ceil() as usize).max(1) - 1;
        durations[index].as_secs_f64() * 1e3
    };
    println!(
        "{name}: p50 {:.3} ms, p99 {:.3} ms, slowest {:.3} ms of {} requests",
        at(0.50),
        at(0.99),
        at(1.0),
        durations.len()
    );
}

/// The first message `wanted` accepts (others dropped).
fn wait(client: &Connection, wanted: impl Fn(&Message) -> bool) -> Message {
    loop {
        let message = client.receiver.recv().expect("the server answers");
        if wanted(&message) {
            return message;
        }
    }
}

fn bench(c: &mut Criterion) {
    let warehouse = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/warehouse/schemas");
    let dir = std::env::temp_dir().join(format!("avdl2rs-lsp-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let ledger = dir.join("ledger.avdl");
    std::fs::write(&ledger, protocol(3000)).expect("the generated protocol is written");

    let mut group = c.benchmark_group("lsp");
    group.sample_size(10);
    let mut session = Session::open(
        &warehouse.join("warehouse.avdl"),
        vec![warehouse.join("shared")],
    );
    assert!(session.edit() > 0, "the warehouse has lint findings");
    group.bench_function("change_to_diagnostics/warehouse", |b| {
        b.iter(|| session.edit())
    });
    let reference = session.position("shared.BusinessEvent event", 0, 7);
    let completion = session.position("int quantity", 0, 0);
    requests(
        &mut group,
        "warehouse",
        &mut session,
        &reference,
        &completion,
    );
    session.close();

    let before = LIVE.load(Ordering::Relaxed);
    let mut session = Session::open(&ledger, Vec::new());
    let held = LIVE.load(Ordering::Relaxed) - before;
    println!(
        "lsp/heap_held/ledger3000: {:.1} MB with the {:.2} MB file open and checked",
        held as f64 / 1e6,
        session.text.len() as f64 / 1e6
    );
    assert!(
        session.edit() > 9000,
        "the generated protocol has thousands of findings"
    );
    group.bench_function("change_to_diagnostics/ledger3000", |b| {
        b.iter(|| session.edit())
    });
    // In the middle of the file: `Entry1499? previous_entry` of `Entry1500`, and the type
    // of its `unitPrice` (every one of the 3,000 records is in scope there).
    let reference = session.position("Entry1499? previous_entry", 0, 2);
    let completion = session.position("double unitPrice", 1500, 0);
    requests(
        &mut group,
        "ledger3000",
        &mut session,
        &reference,
        &completion,
    );
    session.close();
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
