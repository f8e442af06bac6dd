//! The language server's answer to an edit: the time from a `didChange` to the diagnostics it
//! publishes (the tree built again, then the compile and every lint rule, placed in UTF-16),
//! on the warehouse example (three files across folders) and on a generated protocol of
//! 3,000 records (about 1 MB, thousands of findings); and the heap the server holds with the
//! large file open. The server runs in process on `lsp-server`'s in-memory connection, as
//! an editor would drive it over stdio, without the pipe.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::thread::JoinHandle;

use avdl2rs_bench::ledger::protocol;
use criterion::{criterion_group, criterion_main, Criterion};
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
}

impl Session {
    /// A server whose imports are also looked for in `include`, with `path` open.
    fn open(path: &Path, include: Vec<PathBuf>) -> Session {
        let (server, client) = Connection::memory();
        let options = avdl2rs_lsp::Options {
            include_dirs: include,
        };
        let server = std::thread::spawn(move || avdl2rs_lsp::run(server, options).unwrap());
        let init = Request::new(
            RequestId::from(1),
            "initialize".to_owned(),
            json!({"capabilities": {}}),
        );
        client.sender.send(init.into()).unwrap();
        wait(&client, |m| matches!(m, Message::Response(_)));
        notify(&client, "initialized", json!({}));
        let uri = format!("file://{}", path.canonicalize().unwrap().display());
        let text = std::fs::read_to_string(path).unwrap();
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
    session.close();
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
