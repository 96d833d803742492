//! Test support: the loopback mock model server as a child process.
#![allow(dead_code)]

use std::env;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

/// A running `hermes-mock-server`, stopped when dropped.
pub struct MockServer {
    child: Child,
    pub port: u16,
    /// What to give `AgentOptions::set_base_url`.
    pub base_url: String,
}

impl MockServer {
    /// Starts the server (path from `HERMES_MOCK_SERVER`) with a script from
    /// tests/fixtures/scripts.
    pub fn start(script: &str) -> MockServer {
        MockServer::start_with(&["--script", script])
    }

    /// Starts the server with two scripts from tests/fixtures/scripts: `conversation`
    /// serves the paths of [`conversation_url`](MockServer::conversation_url), each key
    /// walking it on its own; `script` serves every other model call.
    pub fn start_conversations(conversation: &str, script: &str) -> MockServer {
        MockServer::start_with(&["--conversation-script", conversation, "--script", script])
    }

    /// The base URL of conversation `key` (see `start_conversations`).
    pub fn conversation_url(&self, key: &str) -> String {
        format!("http://127.0.0.1:{}/c/{}/v1", self.port, key)
    }

    // `options`: pairs of a flag and a script name.
    fn start_with(options: &[&str]) -> MockServer {
        let server = env::var("HERMES_MOCK_SERVER")
            .expect("HERMES_MOCK_SERVER must name the hermes-mock-server executable");
        let mut command = Command::new(&server);
        command.arg("--quiet");
        for pair in options.chunks(2) {
            command
                .arg(pair[0])
                .arg(fixtures_dir().join("scripts").join(pair[1]));
        }
        let mut child = command
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {}", server, e));
        let mut first_line = String::new();
        BufReader::new(child.stdout.take().expect("piped stdout"))
            .read_line(&mut first_line)
            .expect("the mock server's PORT line");
        let port = match first_line
            .trim()
            .strip_prefix("PORT=")
            .and_then(|p| p.parse().ok())
        {
            Some(port) => port,
            None => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "the mock server printed {:?} instead of PORT=<n>",
                    first_line
                );
            }
        };
        MockServer {
            child,
            port,
            base_url: format!("http://127.0.0.1:{}/v1", port),
        }
    }

    /// What the server received, as the JSON text of its control API:
    /// `[{"method","path","headers","body"}, ...]`.
    pub fn requests_json(&self) -> String {
        let stream =
            TcpStream::connect(("127.0.0.1", self.port)).expect("connect to the mock server");
        let mut writer = stream.try_clone().expect("clone the socket");
        write!(
            writer,
            "GET /_mock/requests HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        )
        .expect("send the request");
        let mut reader = BufReader::new(stream);
        let mut content_length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("read a header line");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    content_length = value.trim().parse().expect("a Content-Length number");
                }
            }
        }
        let mut body = vec![0; content_length];
        reader.read_exact(&mut body).expect("read the body");
        String::from_utf8(body).expect("a UTF-8 body")
    }
}

impl Drop for MockServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// tests/fixtures of the repository (or `HERMES_FIXTURES_DIR`).
pub fn fixtures_dir() -> PathBuf {
    match env::var("HERMES_FIXTURES_DIR") {
        Ok(dir) => PathBuf::from(dir),
        Err(_) => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures"),
    }
}

/// The number under `key` in a flat JSON object such as `{"a":2,"b":40}` (the tests
/// have no JSON library).
pub fn number_field(json: &str, key: &str) -> Option<f64> {
    let quoted = format!("\"{}\"", key);
    let rest = &json[json.find(&quoted)? + quoted.len()..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}
