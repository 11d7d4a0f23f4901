//! A small static file server for the release build, bound to loopback only, that the e2e suite
//! runs against. The app uses hash routes, so every page is `index.html` and no fallback is
//! needed.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// Serves a directory until dropped.
pub struct StaticServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl StaticServer {
    /// Serves `root` on 127.0.0.1:`port` (0 picks a free port).
    pub fn start(root: PathBuf, port: u16) -> io::Result<Self> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let root = Arc::new(root);
        let stopping = Arc::clone(&stop);
        let acceptor = thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let root = Arc::clone(&root);
                thread::spawn(move || {
                    // A client that hangs up mid-request is not our problem.
                    let _ = answer(&root, stream);
                });
            }
        });
        Ok(Self {
            addr,
            stop,
            acceptor: Some(acceptor),
        })
    }

    /// The base URL, e.g. `http://127.0.0.1:40123/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept() so the thread sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

/// Reads one request and answers it; every response closes the connection.
fn answer(root: &Path, stream: TcpStream) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Skip the headers: nothing in them changes the answer.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut words = request_line.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let mut out = stream;
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut out,
            "405 Method Not Allowed",
            "text/plain",
            b"",
            method == "HEAD",
        );
    }
    match resolve(root, target).and_then(|path| std::fs::read(&path).ok().map(|b| (path, b))) {
        Some((path, body)) => respond(
            &mut out,
            "200 OK",
            content_type(&path),
            &body,
            method == "HEAD",
        ),
        None => respond(
            &mut out,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            method == "HEAD",
        ),
    }
}

/// The cross-origin-isolation headers: without them a browser gives the page no
/// `SharedArrayBuffer`, on which a WebAssembly bot's blocking reads wait (`app::wasi::bot`).
/// `Trunk.toml` sends the same from `trunk serve`; README asks the same of any host.
pub const ISOLATION_HEADERS: [(&str, &str); 2] = [
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Embedder-Policy", "require-corp"),
];

fn respond(
    out: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    head_only: bool,
) -> io::Result<()> {
    let isolation: String = ISOLATION_HEADERS
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\n{isolation}Connection: close\r\n\r\n",
        body.len()
    )?;
    if !head_only {
        out.write_all(body)?;
    }
    out.flush()
}

/// The file a request target names under `root`: the query is dropped, `%XX` escapes decoded,
/// a directory means its `index.html`, and anything that would leave `root` is refused.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next()?;
    let path = percent_decode(path.strip_prefix('/')?)?;
    let mut resolved = root.to_path_buf();
    for component in Path::new(&path).components() {
        match component {
            Component::Normal(part) => resolved.push(part),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    if resolved.is_dir() {
        resolved.push("index.html");
    }
    resolved.is_file().then_some(resolved)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The MIME type of a built asset. `application/wasm` matters: browsers refuse to compile a
/// streamed module served as anything else.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "cir" | "f1" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn site() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-static-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("assets")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>home</p>").unwrap();
        std::fs::write(dir.join("assets/app bg.wasm"), [0, b'a', b's', b'm']).unwrap();
        dir
    }

    fn get(server: &StaticServer, target: &str) -> String {
        let mut stream = TcpStream::connect(server.addr).unwrap();
        write!(stream, "GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }

    #[test]
    fn resolves_inside_the_root_only() {
        let root = site();
        assert_eq!(resolve(&root, "/"), Some(root.join("index.html")));
        assert_eq!(
            resolve(&root, "/index.html?v=2"),
            Some(root.join("index.html"))
        );
        assert_eq!(
            resolve(&root, "/assets/app%20bg.wasm"),
            Some(root.join("assets/app bg.wasm"))
        );
        assert_eq!(resolve(&root, "/../etc/passwd"), None);
        assert_eq!(resolve(&root, "/assets/%2e%2e/%2e%2e/etc/passwd"), None);
        assert_eq!(resolve(&root, "/missing.js"), None);
        assert_eq!(resolve(&root, "/bad%zz"), None);
        assert_eq!(resolve(&root, "no-slash"), None);
    }

    #[test]
    fn content_types_of_built_assets() {
        assert_eq!(content_type(Path::new("a/app_bg.wasm")), "application/wasm");
        assert_eq!(
            content_type(Path::new("index.html")),
            "text/html; charset=utf-8"
        );
        assert_eq!(
            content_type(Path::new("app.js")),
            "text/javascript; charset=utf-8"
        );
    }

    #[test]
    fn serves_files_and_404s_over_loopback() {
        let server = StaticServer::start(site(), 0).unwrap();
        assert!(server.url().starts_with("http://127.0.0.1:"));
        let home = get(&server, "/");
        assert!(home.starts_with("HTTP/1.1 200 OK\r\n"), "{home}");
        assert!(home.contains("Content-Type: text/html"), "{home}");
        assert!(home.ends_with("<p>home</p>"), "{home}");
        assert!(
            home.contains("Cross-Origin-Opener-Policy: same-origin\r\n")
                && home.contains("Cross-Origin-Embedder-Policy: require-corp\r\n"),
            "{home}"
        );
        let missing = get(&server, "/nope.css");
        assert!(
            missing.starts_with("HTTP/1.1 404 Not Found\r\n"),
            "{missing}"
        );
    }
}
