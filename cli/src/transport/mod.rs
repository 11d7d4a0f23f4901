//! Byte streams to players, whatever they are: serial ports, child processes, in-process
//! engines or simulators.
//!
//! Every kind of player opens into a [`Connection`]: a reader half, a writer half and a way to
//! let go. The [`Hub`] then runs one reader thread and one writer thread per connection and
//! funnels everything into one queue, so the referee's loop never blocks on a wire: it waits for
//! the next [`Incoming`] chunk or for its own deadline, whichever comes first. A new kind of
//! player only has to produce a `Connection`: see [`in_process`] for players that live in this
//! process and speak through pipes, and [`in_process_polled`] for those that must keep running
//! between bytes, like a simulated board.

pub mod exec;
pub mod serial;
pub mod sim;
pub mod wasm;

use std::io::{self, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// One player's wire, split so reading and writing can block independently.
pub struct Connection {
    /// How messages name this player, e.g. `exec:python3 bot.py`.
    pub name: String,
    /// Bytes from the player. `Ok(0)` or an error other than a timeout means the wire is closed;
    /// `TimedOut`, `WouldBlock` and `Interrupted` are retried.
    pub reader: Box<dyn Read + Send>,
    /// Bytes to the player.
    pub writer: Box<dyn Write + Send>,
    /// Run once the writer half is closed, at shutdown (reap a child, join a thread). It must
    /// not block for long.
    pub closer: Option<Box<dyn FnOnce() + Send>>,
}

/// A player served by a thread of this process through a pair of pipes: `serve` gets the
/// player's ends (what the referee writes, what the referee reads) and runs until its input
/// reaches end of file.
pub fn in_process(
    name: String,
    serve: impl FnOnce(io::PipeReader, io::PipeWriter) + Send + 'static,
) -> io::Result<Connection> {
    let (from_player, player_out) = io::pipe()?;
    let (player_in, to_player) = io::pipe()?;
    thread::Builder::new()
        .name(name.clone())
        .spawn(move || serve(player_in, player_out))?;
    Ok(Connection {
        name,
        reader: Box::new(from_player),
        writer: Box::new(to_player),
        closer: None,
    })
}

/// Like [`in_process`], for a player that must keep working while no byte arrives (a simulated
/// board runs its clock all the time): `serve` gets an [`Inbox`] it can poll without blocking.
pub fn in_process_polled(
    name: String,
    serve: impl FnOnce(Inbox, io::PipeWriter) + Send + 'static,
) -> io::Result<Connection> {
    in_process(name.clone(), move |mut input, output| {
        let (tx, rx) = mpsc::channel();
        let pump = thread::Builder::new()
            .name(format!("{name} inbox"))
            .spawn(move || {
                let mut buf = vec![0u8; 4096];
                while let Ok(n) = input.read(&mut buf) {
                    if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            });
        if pump.is_ok() {
            serve(Inbox { rx }, output);
        }
    })
}

/// Bytes from the referee to an in-process player, without blocking.
pub struct Inbox {
    rx: Receiver<Vec<u8>>,
}

/// What [`Inbox::poll`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Mail {
    Bytes(Vec<u8>),
    /// Nothing yet.
    Empty,
    /// The referee closed the wire: the player should stop.
    Closed,
}

impl Inbox {
    /// The bytes that arrived since the last call, if any (or, with `wait`, within `wait`).
    pub fn poll(&self, wait: Duration) -> Mail {
        let first = if wait.is_zero() {
            self.rx
                .try_recv()
                .map_err(|e| matches!(e, mpsc::TryRecvError::Empty))
        } else {
            self.rx
                .recv_timeout(wait)
                .map_err(|e| matches!(e, RecvTimeoutError::Timeout))
        };
        match first {
            Ok(mut bytes) => {
                while let Ok(more) = self.rx.try_recv() {
                    bytes.extend(more);
                }
                Mail::Bytes(bytes)
            }
            Err(true) => Mail::Empty,
            Err(false) => Mail::Closed,
        }
    }
}

/// What a wire delivered.
#[derive(Debug)]
pub enum Incoming {
    /// Bytes, as one read returned them.
    Data(Vec<u8>),
    /// The wire is closed (or broken) for good; the text says how.
    Closed(String),
}

/// A delivery: which connection, when (as read), what.
#[derive(Debug)]
pub struct Delivery {
    pub id: usize,
    pub at: Instant,
    pub incoming: Incoming,
}

struct Link {
    name: String,
    to_writer: Option<Sender<Vec<u8>>>,
    writer: Option<JoinHandle<()>>,
    closer: Option<Box<dyn FnOnce() + Send>>,
}

/// How many chunks may wait in the queue. A player that floods the wire is slowed to the pace
/// the referee reads at (its reader thread blocks), so arrival times stay close to the truth and
/// memory stays bounded.
const QUEUE: usize = 64;

/// The threads behind a set of connections and the single queue they feed.
pub struct Hub {
    tx: SyncSender<Delivery>,
    rx: Receiver<Delivery>,
    links: Vec<Link>,
}

impl Default for Hub {
    fn default() -> Self {
        Self::new()
    }
}

impl Hub {
    pub fn new() -> Self {
        let (tx, rx) = mpsc::sync_channel(QUEUE);
        Hub {
            tx,
            rx,
            links: Vec::new(),
        }
    }

    /// Starts serving `connection`; returns its id (0, 1, … in order of attachment).
    pub fn attach(&mut self, connection: Connection) -> io::Result<usize> {
        let id = self.links.len();
        let Connection {
            name,
            mut reader,
            mut writer,
            closer,
        } = connection;
        let tx = self.tx.clone();
        thread::Builder::new()
            .name(format!("{name} reader"))
            .spawn(move || {
                let mut buf = vec![0u8; 4096];
                let closed = loop {
                    match reader.read(&mut buf) {
                        Ok(0) => break "end of stream".to_string(),
                        Ok(n) => {
                            let delivery = Delivery {
                                id,
                                at: Instant::now(),
                                incoming: Incoming::Data(buf[..n].to_vec()),
                            };
                            if tx.send(delivery).is_err() {
                                return;
                            }
                        }
                        Err(e) if is_transient(&e) => {}
                        Err(e) => break format!("read error: {e}"),
                    }
                };
                let _ = tx.send(Delivery {
                    id,
                    at: Instant::now(),
                    incoming: Incoming::Closed(closed),
                });
            })?;
        let (to_writer, from_hub) = mpsc::channel::<Vec<u8>>();
        let tx = self.tx.clone();
        let writer = thread::Builder::new()
            .name(format!("{name} writer"))
            .spawn(move || {
                for bytes in from_hub {
                    if let Err(e) = write_all_patiently(&mut writer, &bytes) {
                        let _ = tx.send(Delivery {
                            id,
                            at: Instant::now(),
                            incoming: Incoming::Closed(format!("write error: {e}")),
                        });
                        return;
                    }
                }
            })?;
        self.links.push(Link {
            name,
            to_writer: Some(to_writer),
            writer: Some(writer),
            closer,
        });
        Ok(id)
    }

    /// The name a connection was attached with.
    pub fn name(&self, id: usize) -> &str {
        &self.links[id].name
    }

    /// Queues bytes for connection `id` (never blocks; a dead wire reports `Closed`).
    pub fn send(&self, id: usize, bytes: Vec<u8>) {
        if let Some(tx) = &self.links[id].to_writer {
            // A writer thread that stopped has already reported why.
            let _ = tx.send(bytes);
        }
    }

    /// Waits for the next delivery until `deadline` (forever if `None`); `None` on time-out.
    pub fn receive(&self, deadline: Option<Instant>) -> Option<Delivery> {
        match deadline {
            None => self.rx.recv().ok(),
            Some(deadline) => {
                let wait = deadline.saturating_duration_since(Instant::now());
                // Every sender is ours, so the queue cannot be disconnected: `Err` is a time-out.
                self.rx.recv_timeout(wait).ok()
            }
        }
    }

    /// Closes every writer, waits up to `grace` for what is queued to be written, then runs the
    /// closers. Reader threads blocked on a wire are left to die with the process.
    pub fn shutdown(mut self, grace: Duration) {
        let until = Instant::now() + grace;
        for link in &mut self.links {
            link.to_writer = None;
        }
        for link in &mut self.links {
            if let Some(handle) = link.writer.take() {
                while !handle.is_finished() && Instant::now() < until {
                    thread::sleep(Duration::from_millis(5));
                }
                if handle.is_finished() {
                    let _ = handle.join();
                }
            }
            if let Some(closer) = link.closer.take() {
                closer();
            }
        }
    }
}

fn is_transient(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
    )
}

/// `write_all` + `flush` that retries the time-outs of serial ports instead of failing.
fn write_all_patiently(writer: &mut dyn Write, mut bytes: &[u8]) -> io::Result<()> {
    while !bytes.is_empty() {
        match writer.write(bytes) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(e) if is_transient(&e) => {}
            Err(e) => return Err(e),
        }
    }
    loop {
        match writer.flush() {
            Ok(()) => return Ok(()),
            Err(e) if is_transient(&e) => {}
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An in-process echo player, both flavours, through the hub like the referee uses it.
    #[test]
    fn in_process_players_talk_through_the_hub_and_see_the_wire_close() {
        let mut hub = Hub::new();
        let echo = in_process("echo".into(), |mut input, mut output| {
            let mut buf = [0u8; 64];
            while let Ok(n @ 1..) = input.read(&mut buf) {
                let _ = output.write_all(&buf[..n]);
            }
        })
        .unwrap();
        let (saw_close_tx, saw_close) = mpsc::channel();
        let polled = in_process_polled("polled".into(), move |inbox, mut output| {
            loop {
                match inbox.poll(Duration::from_millis(5)) {
                    Mail::Bytes(b) => {
                        let _ = output.write_all(&b.to_ascii_uppercase());
                    }
                    Mail::Empty => {}
                    Mail::Closed => {
                        let _ = saw_close_tx.send(());
                        return;
                    }
                }
            }
        })
        .unwrap();
        assert_eq!(hub.attach(echo).unwrap(), 0);
        assert_eq!(hub.attach(polled).unwrap(), 1);
        assert_eq!(hub.name(1), "polled");
        hub.send(0, b"{4}\n".to_vec());
        hub.send(1, b"cr\n".to_vec());
        let mut got = [Vec::new(), Vec::new()];
        let until = Instant::now() + Duration::from_secs(10);
        while got[0].len() < 4 || got[1].len() < 3 {
            let d = hub.receive(Some(until)).expect("an answer in time");
            if let Incoming::Data(bytes) = d.incoming {
                got[d.id].extend(bytes);
            }
        }
        assert_eq!(got, [b"{4}\n".to_vec(), b"CR\n".to_vec()]);
        hub.shutdown(Duration::from_secs(1));
        saw_close
            .recv_timeout(Duration::from_secs(10))
            .expect("the polled player sees the wire close");
    }
}
