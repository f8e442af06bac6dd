//! A Schema Registry server of a test's own: the real `rivven-schema` binary that
//! `.ci/registry-server` installs (`AVDL2RS_SCHEMA_REGISTRY_SERVER`), started on a free
//! loopback port, for tests that stop it (an outage) or need it empty.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running registry server, stopped when dropped.
pub struct RegistryServer {
    binary: String,
    port: u16,
    process: Option<Child>,
}

impl RegistryServer {
    /// A server started from the binary the environment names (see [`super::external`]).
    pub fn start() -> RegistryServer {
        let binary = super::external(
            "AVDL2RS_SCHEMA_REGISTRY_SERVER",
            "the rivven-schema binary (.ci/registry-server sets it)",
        );
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut server = RegistryServer {
            binary,
            port,
            process: None,
        };
        server.restart();
        server
    }

    /// The server's base URL.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Starts the server (again, empty: it keeps schemas in memory) on its port and waits
    /// until it accepts connections.
    pub fn restart(&mut self) {
        let child = Command::new(&self.binary)
            .args(["serve", "--host", "127.0.0.1", "--log-level", "warn"])
            .args(["--port", &self.port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the registry server starts");
        self.process = Some(child);
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "the registry did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.process.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for RegistryServer {
    fn drop(&mut self) {
        self.stop();
    }
}
