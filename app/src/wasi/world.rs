//! A WASI preview-1 program's whole world in the browser, in plain Rust: its arguments, an
//! in-memory directory (preopened as fd 3, `.`) with the pilot's file allowance, its open files,
//! standard streams, clocks and the seeded random stream. The worker glue
//! (`crate::wasi::worker`) only moves numbers and bytes between this and the JavaScript
//! engine, so everything here is tested natively.
//!
//! The rules are the native host's (`sandbox`): nothing outside the directory exists (`..` and
//! absolute paths are refused), no links, the result file and one other file, each at most
//! 1 MiB, at most [`MAX_OPEN_FILES`] open at once, and `random_get` from
//! [`engine::rng::SplitMix64`] words, little-endian, the unused tail of a request's last word
//! dropped.

use std::collections::BTreeMap;

use engine::racetrack::program::{
    self, EntryKind, Found, MAX_FILE_BYTES, MAX_OPEN_FILES, MAX_PILOT_FILES,
};
use engine::rng::SplitMix64;

/// How the program's linear memory is reached.
pub trait Memory {
    /// `len` bytes at `ptr`, `None` when out of bounds.
    fn read(&self, ptr: u32, len: u32) -> Option<Vec<u8>>;
    /// Writes `bytes` at `ptr`; `false` when out of bounds.
    fn write(&mut self, ptr: u32, bytes: &[u8]) -> bool;
}

/// What the host provides that is not pure: time, waiting, and (for bots) standard input.
pub trait Host {
    /// Nanoseconds of clock `id` (0 realtime, 1 monotonic, …).
    fn now_ns(&self, id: u32) -> u64;
    /// Waits `ns` nanoseconds (or returns early: a program may not count on it).
    fn sleep(&mut self, ns: u64);
    /// Blocks until standard input has bytes, and returns at most `max` of them; empty at its
    /// end.
    fn read_stdin(&mut self, max: usize) -> Vec<u8>;
    /// Whether standard input has bytes waiting (for `poll_oneoff`).
    fn stdin_ready(&mut self) -> bool;
    /// Standard output, when it is a stream of its own (a bot's); `false` to log it.
    fn write_stdout(&mut self, bytes: &[u8]) -> bool;
}

/// How a call ends, besides returning its errno.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Return this errno to the program.
    Errno(u16),
    /// `proc_exit(status)`.
    Exit(i32),
    /// The program broke a rule of its sandbox; the words say which.
    Broke(String),
}

pub mod errno {
    pub const SUCCESS: u16 = 0;
    pub const BADF: u16 = 8;
    pub const EXIST: u16 = 20;
    pub const FAULT: u16 = 21;
    pub const INVAL: u16 = 28;
    pub const ISDIR: u16 = 31;
    pub const MFILE: u16 = 33;
    pub const NOENT: u16 = 44;
    pub const NOSYS: u16 = 52;
    pub const NOTDIR: u16 = 54;
    pub const NOTEMPTY: u16 = 55;
    pub const NOTSUP: u16 = 58;
    pub const PERM: u16 = 63;
    pub const SPIPE: u16 = 70;
    pub const NOTCAPABLE: u16 = 76;
}

const FILETYPE_CHARACTER_DEVICE: u8 = 2;
const FILETYPE_DIRECTORY: u8 = 3;
const FILETYPE_REGULAR_FILE: u8 = 4;
const OFLAGS_CREAT: i64 = 1;
const OFLAGS_DIRECTORY: i64 = 2;
const OFLAGS_EXCL: i64 = 4;
const OFLAGS_TRUNC: i64 = 8;
const FDFLAGS_APPEND: i64 = 1;
/// The preopened directory's descriptor.
const DIR_FD: u32 = 3;

/// An entry of the directory.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    File(Vec<u8>),
    Dir,
}

/// An open descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Open {
    Stdin,
    Stdout,
    Stderr,
    /// The preopened directory, or a directory in it (by name).
    Dir(Option<String>),
    File {
        name: String,
        pos: u64,
        append: bool,
    },
}

/// A program's world. `kept` (the circuit) does not count against the file allowance.
pub struct World {
    args: Vec<String>,
    entries: BTreeMap<String, Node>,
    kept: Option<String>,
    fds: BTreeMap<u32, Open>,
    random: SplitMix64,
    log: Vec<u8>,
    log_cap: usize,
    log_dropped: u64,
    /// Whether the directory's allowance applies (pilots; a bot has no directory).
    allowance: bool,
    /// Whether a `path_open` was refused for too many open files (noted once in the log).
    refused_open: bool,
}

/// How much of what a program prints is kept (as natively).
pub const LOG_BYTES: usize = 64 << 10;

impl World {
    /// A pilot's world (spec §7): `argv = [file_name, circuit_name]`, the circuit alone in its
    /// directory.
    pub fn pilot(file_name: &str, circuit_name: &str, circuit: Vec<u8>, seed: u64) -> World {
        let mut world = World::bare(vec![file_name.into(), circuit_name.into()], seed);
        world
            .entries
            .insert(circuit_name.to_owned(), Node::File(circuit));
        world.kept = Some(circuit_name.to_owned());
        world.fds.insert(DIR_FD, Open::Dir(None));
        world.allowance = true;
        world
    }

    /// A bot's world: `argv = [file_name]`, no directory.
    pub fn bot(file_name: &str, seed: u64) -> World {
        World::bare(vec![file_name.into()], seed)
    }

    fn bare(args: Vec<String>, seed: u64) -> World {
        World {
            args,
            entries: BTreeMap::new(),
            kept: None,
            fds: BTreeMap::from([(0, Open::Stdin), (1, Open::Stdout), (2, Open::Stderr)]),
            random: SplitMix64::new(seed),
            log: Vec::new(),
            log_cap: LOG_BYTES,
            log_dropped: 0,
            allowance: false,
            refused_open: false,
        }
    }

    /// What it printed (kept), and how many bytes past the cap were dropped.
    pub fn log(&self) -> (&[u8], u64) {
        (&self.log, self.log_dropped)
    }

    /// What is where the result file of the pilot `stem` should be: `<stem>.F1`, the `.F1`
    /// spelling first, then the others in name order (as natively).
    pub fn result(&self, stem: &str) -> Found {
        let mut names: Vec<&String> = self
            .entries
            .keys()
            .filter(|n| program::is_result_file_name(n, stem))
            .collect();
        names.sort_by_key(|n| (!n.ends_with(".F1"), n.to_string()));
        match names.first().and_then(|n| self.entries.get(*n)) {
            None => Found::Missing,
            Some(Node::Dir) => Found::NotRegular(EntryKind::Directory),
            Some(Node::File(bytes)) if bytes.len() as u64 > MAX_FILE_BYTES => Found::TooLarge {
                bytes: bytes.len() as u64,
            },
            Some(Node::File(bytes)) => Found::Bytes(bytes.clone()),
        }
    }

    /// Runs WASI function `name` with its arguments (each widened to `i64`).
    pub fn call(
        &mut self,
        name: &str,
        a: &[i64],
        memory: &mut dyn Memory,
        host: &mut dyn Host,
    ) -> Flow {
        let arg = |i: usize| a.get(i).copied().unwrap_or(0);
        let u = |i: usize| arg(i) as u32;
        let result = match name {
            "args_sizes_get" => self.args_sizes_get(memory, u(0), u(1)),
            "args_get" => self.args_get(memory, u(0), u(1)),
            "environ_sizes_get" => put_u32s(memory, &[(u(0), 0), (u(1), 0)]),
            "environ_get" => Ok(()),
            "clock_res_get" => put(memory, u(1), &1000u64.to_le_bytes()),
            "clock_time_get" => put(memory, u(2), &host.now_ns(u(0)).to_le_bytes()),
            "fd_write" => self.fd_write(memory, host, u(0), u(1), u(2), u(3), None),
            "fd_pwrite" => self.fd_write(memory, host, u(0), u(1), u(2), u(4), Some(arg(3))),
            "fd_read" => self.fd_read(memory, host, u(0), u(1), u(2), u(3), None),
            "fd_pread" => self.fd_read(memory, host, u(0), u(1), u(2), u(4), Some(arg(3))),
            "fd_seek" => self.fd_seek(memory, u(0), arg(1), u(2), Some(u(3))),
            "fd_tell" => self.fd_seek(memory, u(0), 0, 1, Some(u(1))),
            "fd_close" => self.fds.remove(&u(0)).map(|_| ()).ok_or(errno::BADF.into()),
            "fd_fdstat_get" => self.fd_fdstat_get(memory, u(0), u(1)),
            "fd_fdstat_set_flags" | "fd_sync" | "fd_datasync" | "fd_advise" => {
                self.open(u(0)).map(|_| ())
            }
            "fd_filestat_get" => self.fd_filestat_get(memory, u(0), u(1)),
            "fd_filestat_set_size" => self.set_size(u(0), arg(1) as u64),
            "fd_prestat_get" => self.fd_prestat_get(memory, u(0), u(1)),
            "fd_prestat_dir_name" => self.fd_prestat_dir_name(memory, u(0), u(1), u(2)),
            "path_open" => self.path_open(memory, u(0), u(2), u(3), arg(4), arg(7), u(8)),
            "path_filestat_get" => self.path_filestat_get(memory, u(0), u(2), u(3), u(4)),
            "path_create_directory" => self.path_create_directory(memory, u(0), u(1), u(2)),
            "path_unlink_file" => self.path_remove(memory, u(0), u(1), u(2), false),
            "path_remove_directory" => self.path_remove(memory, u(0), u(1), u(2), true),
            "path_rename" => self.path_rename(memory, u(0), u(1), u(2), u(3), u(4), u(5)),
            "path_symlink" | "path_link" => Err(errno::PERM.into()),
            "poll_oneoff" => self.poll_oneoff(memory, host, u(0), u(1), u(2), u(3)),
            "proc_exit" => return Flow::Exit(arg(0) as i32),
            "random_get" => self.random_get(memory, u(0), u(1)),
            "sched_yield" => Ok(()),
            _ => Err(errno::NOSYS.into()),
        };
        match result {
            Ok(()) => Flow::Errno(errno::SUCCESS),
            Err(Stop::Errno(e)) => Flow::Errno(e),
            Err(Stop::Broke(words)) => Flow::Broke(words),
        }
    }

    fn args_sizes_get(&self, m: &mut dyn Memory, argc: u32, size: u32) -> Res {
        let bytes: usize = self.args.iter().map(|a| a.len() + 1).sum();
        put_u32s(m, &[(argc, self.args.len() as u32), (size, bytes as u32)])
    }

    fn args_get(&self, m: &mut dyn Memory, argv: u32, buf: u32) -> Res {
        let mut at = buf;
        for (i, a) in self.args.iter().enumerate() {
            put(m, argv + 4 * i as u32, &at.to_le_bytes())?;
            let mut bytes = a.as_bytes().to_vec();
            bytes.push(0);
            put(m, at, &bytes)?;
            at += bytes.len() as u32;
        }
        Ok(())
    }

    fn open(&self, fd: u32) -> Result<&Open, Stop> {
        self.fds.get(&fd).ok_or(errno::BADF.into())
    }

    fn note(&mut self, bytes: &[u8]) {
        let room = self.log_cap.saturating_sub(self.log.len());
        let keep = bytes.len().min(room);
        self.log.extend_from_slice(&bytes[..keep]);
        self.log_dropped += (bytes.len() - keep) as u64;
    }

    // `fd_write`/`pwrite` and `fd_read`/`pread` mirror each other as WASI defines them (a
    // descriptor, an iovec list, a count out, an offset for the positional calls): the same
    // signature, opposite directions.
    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per parameter of the WASI call it implements"
    )]
    fn fd_write(
        &mut self,
        m: &mut dyn Memory,
        host: &mut dyn Host,
        fd: u32,
        iovs: u32,
        n: u32,
        out: u32,
        at: Option<i64>,
    ) -> Res {
        let mut data = Vec::new();
        for (ptr, len) in iovecs(m, iovs, n)? {
            data.extend(m.read(ptr, len).ok_or(Stop::from(errno::FAULT))?);
        }
        match self.open(fd)?.clone() {
            Open::Stdout if at.is_none() => {
                if !host.write_stdout(&data) {
                    self.note(&data);
                }
            }
            Open::Stderr if at.is_none() => self.note(&data),
            Open::File { name, pos, append } => {
                let Some(Node::File(bytes)) = self.entries.get_mut(&name) else {
                    return Err(errno::BADF.into());
                };
                let start = match at {
                    Some(offset) => offset.max(0) as u64,
                    None if append => bytes.len() as u64,
                    None => pos,
                };
                let end = start + data.len() as u64;
                if self.allowance && end > MAX_FILE_BYTES {
                    return Err(Stop::Broke(format!(
                        "its file {name} grew past 1 MiB ({end} bytes)"
                    )));
                }
                if end as usize > bytes.len() {
                    bytes.resize(end as usize, 0);
                }
                bytes[start as usize..end as usize].copy_from_slice(&data);
                if at.is_none()
                    && let Some(Open::File { pos, .. }) = self.fds.get_mut(&fd)
                {
                    *pos = end;
                }
            }
            Open::Dir(_) => return Err(errno::ISDIR.into()),
            _ => return Err(errno::BADF.into()),
        }
        put(m, out, &(data.len() as u32).to_le_bytes())
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per parameter of the WASI call it implements"
    )]
    fn fd_read(
        &mut self,
        m: &mut dyn Memory,
        host: &mut dyn Host,
        fd: u32,
        iovs: u32,
        n: u32,
        out: u32,
        at: Option<i64>,
    ) -> Res {
        let iovs = iovecs(m, iovs, n)?;
        let want: usize = iovs.iter().map(|&(_, len)| len as usize).sum();
        let data = match self.open(fd)?.clone() {
            Open::Stdin if at.is_none() => host.read_stdin(want),
            Open::File { name, pos, .. } => {
                let Some(Node::File(bytes)) = self.entries.get(&name) else {
                    return Err(errno::BADF.into());
                };
                let start = at.map_or(pos, |o| o.max(0) as u64).min(bytes.len() as u64) as usize;
                let end = (start + want).min(bytes.len());
                let data = bytes[start..end].to_vec();
                if at.is_none()
                    && let Some(Open::File { pos, .. }) = self.fds.get_mut(&fd)
                {
                    *pos = end as u64;
                }
                data
            }
            Open::Dir(_) => return Err(errno::ISDIR.into()),
            _ => return Err(errno::BADF.into()),
        };
        let mut rest = &data[..];
        for (ptr, len) in iovs {
            let take = rest.len().min(len as usize);
            put(m, ptr, &rest[..take])?;
            rest = &rest[take..];
        }
        put(m, out, &(data.len() as u32).to_le_bytes())
    }

    fn fd_seek(
        &mut self,
        m: &mut dyn Memory,
        fd: u32,
        offset: i64,
        whence: u32,
        out: Option<u32>,
    ) -> Res {
        let size = match self.open(fd)? {
            Open::File { name, .. } => match self.entries.get(name) {
                Some(Node::File(bytes)) => bytes.len() as i64,
                _ => return Err(errno::BADF.into()),
            },
            Open::Dir(_) => return Err(errno::ISDIR.into()),
            _ => return Err(errno::SPIPE.into()),
        };
        let Some(Open::File { pos, .. }) = self.fds.get_mut(&fd) else {
            return Err(errno::BADF.into());
        };
        let base = match whence {
            0 => 0,
            1 => *pos as i64,
            2 => size,
            _ => return Err(errno::INVAL.into()),
        };
        let new = base
            .checked_add(offset)
            .filter(|&p| p >= 0)
            .ok_or(Stop::from(errno::INVAL))?;
        *pos = new as u64;
        match out {
            Some(out) => put(m, out, &(new as u64).to_le_bytes()),
            None => Ok(()),
        }
    }

    fn filetype(&self, open: &Open) -> u8 {
        match open {
            Open::Stdin | Open::Stdout | Open::Stderr => FILETYPE_CHARACTER_DEVICE,
            Open::Dir(_) => FILETYPE_DIRECTORY,
            Open::File { .. } => FILETYPE_REGULAR_FILE,
        }
    }

    fn fd_fdstat_get(&self, m: &mut dyn Memory, fd: u32, out: u32) -> Res {
        let open = self.open(fd)?;
        let mut stat = [0u8; 24];
        stat[0] = self.filetype(open);
        if let Open::File { append: true, .. } = open {
            stat[2] = FDFLAGS_APPEND as u8;
        }
        stat[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
        stat[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
        put(m, out, &stat)
    }

    fn filestat(filetype: u8, size: u64, ino: u64) -> [u8; 64] {
        let mut stat = [0u8; 64];
        stat[8..16].copy_from_slice(&ino.to_le_bytes());
        stat[16] = filetype;
        stat[24..32].copy_from_slice(&1u64.to_le_bytes());
        stat[32..40].copy_from_slice(&size.to_le_bytes());
        stat
    }

    fn node_stat(&self, name: &str) -> Option<[u8; 64]> {
        let ino = self.entries.keys().position(|n| n == name)? as u64 + 2;
        Some(match self.entries.get(name)? {
            Node::File(bytes) => Self::filestat(FILETYPE_REGULAR_FILE, bytes.len() as u64, ino),
            Node::Dir => Self::filestat(FILETYPE_DIRECTORY, 0, ino),
        })
    }

    fn fd_filestat_get(&self, m: &mut dyn Memory, fd: u32, out: u32) -> Res {
        let stat = match self.open(fd)? {
            Open::File { name, .. } | Open::Dir(Some(name)) => {
                self.node_stat(name).ok_or(Stop::from(errno::BADF))?
            }
            Open::Dir(None) => Self::filestat(FILETYPE_DIRECTORY, 0, 1),
            _ => Self::filestat(FILETYPE_CHARACTER_DEVICE, 0, 0),
        };
        put(m, out, &stat)
    }

    fn set_size(&mut self, fd: u32, size: u64) -> Res {
        let Open::File { name, .. } = self.open(fd)?.clone() else {
            return Err(errno::BADF.into());
        };
        if self.allowance && size > MAX_FILE_BYTES {
            return Err(Stop::Broke(format!(
                "its file {name} grew past 1 MiB ({size} bytes)"
            )));
        }
        match self.entries.get_mut(&name) {
            Some(Node::File(bytes)) => {
                bytes.resize(size as usize, 0);
                Ok(())
            }
            _ => Err(errno::BADF.into()),
        }
    }

    fn fd_prestat_get(&self, m: &mut dyn Memory, fd: u32, out: u32) -> Res {
        match self.fds.get(&fd) {
            Some(Open::Dir(None)) if fd == DIR_FD => {
                let mut prestat = [0u8; 8];
                prestat[4..8].copy_from_slice(&1u32.to_le_bytes());
                put(m, out, &prestat)
            }
            _ => Err(errno::BADF.into()),
        }
    }

    fn fd_prestat_dir_name(&self, m: &mut dyn Memory, fd: u32, path: u32, len: u32) -> Res {
        match self.fds.get(&fd) {
            Some(Open::Dir(None)) if fd == DIR_FD && len >= 1 => put(m, path, b"."),
            Some(Open::Dir(None)) if fd == DIR_FD => Err(errno::INVAL.into()),
            _ => Err(errno::BADF.into()),
        }
    }

    /// The entry a path names in the directory: `None` for the directory itself. Anything that
    /// would leave the directory (`..` past it, an absolute path) or go below one of its
    /// entries is refused.
    fn resolve(
        &self,
        m: &dyn Memory,
        fd: u32,
        path: u32,
        len: u32,
    ) -> Result<Option<String>, Stop> {
        match self.open(fd)? {
            Open::Dir(None) => {}
            Open::Dir(Some(_)) => return Err(errno::NOTSUP.into()),
            _ => return Err(errno::NOTDIR.into()),
        }
        let bytes = m.read(path, len).ok_or(Stop::from(errno::FAULT))?;
        let text = String::from_utf8(bytes).map_err(|_| Stop::from(errno::INVAL))?;
        if text.starts_with('/') {
            return Err(errno::NOTCAPABLE.into());
        }
        let mut parts: Vec<&str> = Vec::new();
        for part in text.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return Err(errno::NOTCAPABLE.into());
                    }
                }
                part => parts.push(part),
            }
        }
        match parts.as_slice() {
            [] => Ok(None),
            [name] => Ok(Some((*name).to_owned())),
            [first, ..] => match self.entries.get(*first) {
                Some(Node::Dir) => Err(errno::NOTSUP.into()),
                Some(Node::File(_)) => Err(errno::NOTDIR.into()),
                None => Err(errno::NOENT.into()),
            },
        }
    }

    /// Whether one more entry keeps the directory within its allowance, or the rule it breaks.
    fn may_create(&self, name: &str) -> Res {
        let created = self
            .entries
            .keys()
            .filter(|n| Some(n.as_str()) != self.kept.as_deref())
            .count();
        if self.allowance && created + 1 > MAX_PILOT_FILES {
            return Err(Stop::Broke(format!(
                "it created more than two files (its result file and one other): {name}"
            )));
        }
        Ok(())
    }

    /// Refuses a `path_open` when the program holds [`MAX_OPEN_FILES`] already (before it
    /// looks at the path or creates anything, as natively), noting the first refusal in the log
    /// in the native host's words.
    fn may_open(&mut self) -> Res {
        // What the program opened, not the standard streams and the directory it was given.
        let opened = self.fds.keys().filter(|&&fd| fd > DIR_FD).count();
        if opened < MAX_OPEN_FILES {
            return Ok(());
        }
        if !self.refused_open {
            self.refused_open = true;
            self.note(program::open_files_refused().as_bytes());
        }
        Err(errno::MFILE.into())
    }

    fn new_fd(&mut self, open: Open) -> Result<u32, Stop> {
        let fd = (0..)
            .find(|fd| !self.fds.contains_key(fd))
            .unwrap_or(u32::MAX);
        self.fds.insert(fd, open);
        Ok(fd)
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per parameter of the WASI call it implements"
    )]
    fn path_open(
        &mut self,
        m: &mut dyn Memory,
        fd: u32,
        path: u32,
        len: u32,
        oflags: i64,
        fdflags: i64,
        out: u32,
    ) -> Res {
        self.may_open()?;
        let name = self.resolve(m, fd, path, len)?;
        let append = fdflags & FDFLAGS_APPEND != 0;
        let open = match name {
            None if oflags & (OFLAGS_CREAT | OFLAGS_TRUNC) != 0 => return Err(errno::ISDIR.into()),
            None => Open::Dir(None),
            Some(name) => match self.entries.get_mut(&name) {
                Some(_) if oflags & OFLAGS_CREAT != 0 && oflags & OFLAGS_EXCL != 0 => {
                    return Err(errno::EXIST.into());
                }
                Some(Node::Dir) if oflags & OFLAGS_TRUNC != 0 => return Err(errno::ISDIR.into()),
                Some(Node::Dir) => Open::Dir(Some(name)),
                Some(Node::File(_)) if oflags & OFLAGS_DIRECTORY != 0 => {
                    return Err(errno::NOTDIR.into());
                }
                Some(Node::File(bytes)) => {
                    if oflags & OFLAGS_TRUNC != 0 {
                        bytes.clear();
                    }
                    Open::File {
                        name,
                        pos: 0,
                        append,
                    }
                }
                None if oflags & OFLAGS_CREAT != 0 && oflags & OFLAGS_DIRECTORY == 0 => {
                    self.may_create(&name)?;
                    self.entries.insert(name.clone(), Node::File(Vec::new()));
                    Open::File {
                        name,
                        pos: 0,
                        append,
                    }
                }
                None => return Err(errno::NOENT.into()),
            },
        };
        let new = self.new_fd(open)?;
        put(m, out, &new.to_le_bytes())
    }

    fn path_filestat_get(&self, m: &mut dyn Memory, fd: u32, path: u32, len: u32, out: u32) -> Res {
        let stat = match self.resolve(m, fd, path, len)? {
            None => Self::filestat(FILETYPE_DIRECTORY, 0, 1),
            Some(name) => self.node_stat(&name).ok_or(Stop::from(errno::NOENT))?,
        };
        put(m, out, &stat)
    }

    fn path_create_directory(&mut self, m: &mut dyn Memory, fd: u32, path: u32, len: u32) -> Res {
        match self.resolve(m, fd, path, len)? {
            None => Err(errno::EXIST.into()),
            Some(name) if self.entries.contains_key(&name) => Err(errno::EXIST.into()),
            Some(name) => {
                self.may_create(&name)?;
                self.entries.insert(name, Node::Dir);
                Ok(())
            }
        }
    }

    fn path_remove(&mut self, m: &mut dyn Memory, fd: u32, path: u32, len: u32, dir: bool) -> Res {
        let name = self
            .resolve(m, fd, path, len)?
            .ok_or(Stop::from(errno::PERM))?;
        match (self.entries.get(&name), dir) {
            (None, _) => return Err(errno::NOENT.into()),
            (Some(Node::Dir), false) => return Err(errno::ISDIR.into()),
            (Some(Node::File(_)), true) => return Err(errno::NOTDIR.into()),
            _ => {}
        }
        let open = self
            .fds
            .values()
            .any(|o| matches!(o, Open::File { name: n, .. } | Open::Dir(Some(n)) if *n == name));
        if open && dir {
            return Err(errno::NOTEMPTY.into());
        }
        self.entries.remove(&name);
        // An open file stays readable natively; here its descriptor is closed for good.
        self.fds
            .retain(|_, o| !matches!(o, Open::File { name: n, .. } if *n == name));
        Ok(())
    }

    #[expect(
        clippy::too_many_arguments,
        reason = "one argument per parameter of the WASI call it implements"
    )]
    fn path_rename(
        &mut self,
        m: &mut dyn Memory,
        fd: u32,
        old: u32,
        old_len: u32,
        fd2: u32,
        new: u32,
        new_len: u32,
    ) -> Res {
        let from = self
            .resolve(m, fd, old, old_len)?
            .ok_or(Stop::from(errno::PERM))?;
        let to = self
            .resolve(m, fd2, new, new_len)?
            .ok_or(Stop::from(errno::PERM))?;
        let node = self.entries.remove(&from).ok_or(Stop::from(errno::NOENT))?;
        if self.kept.as_deref() == Some(from.as_str()) {
            self.kept = Some(to.clone());
        }
        self.entries.insert(to.clone(), node);
        for open in self.fds.values_mut() {
            if let Open::File { name, .. } | Open::Dir(Some(name)) = open
                && *name == from
            {
                *name = to.clone();
            }
        }
        Ok(())
    }

    /// Waits for the first of its subscriptions: standard input is ready at once (or when the
    /// host says so), a clock after its timeout.
    fn poll_oneoff(
        &mut self,
        m: &mut dyn Memory,
        host: &mut dyn Host,
        subs: u32,
        events: u32,
        n: u32,
        out: u32,
    ) -> Res {
        if n == 0 {
            return Err(errno::INVAL.into());
        }
        let raw = m.read(subs, n * 48).ok_or(Stop::from(errno::FAULT))?;
        let mut ready = Vec::new();
        let mut soonest: Option<(u64, [u8; 8])> = None;
        for sub in raw.chunks(48) {
            let userdata: [u8; 8] = sub[0..8].try_into().unwrap_or_default();
            match sub[8] {
                0 => {
                    let id = u32::from_le_bytes(sub[16..20].try_into().unwrap_or_default());
                    let timeout = u64::from_le_bytes(sub[24..32].try_into().unwrap_or_default());
                    let absolute = sub[40] & 1 != 0;
                    let wait = if absolute {
                        timeout.saturating_sub(host.now_ns(id))
                    } else {
                        timeout
                    };
                    if soonest.is_none_or(|(w, _)| wait < w) {
                        soonest = Some((wait, userdata));
                    }
                }
                tag => {
                    let fd = u32::from_le_bytes(sub[16..20].try_into().unwrap_or_default());
                    let ok = match self.fds.get(&fd) {
                        Some(Open::Stdin) => tag != 1 || host.stdin_ready(),
                        Some(_) => true,
                        None => false,
                    };
                    if ok {
                        let mut event = [0u8; 32];
                        event[0..8].copy_from_slice(&userdata);
                        event[10] = tag;
                        ready.push(event);
                    }
                }
            }
        }
        if ready.is_empty() {
            let Some((wait, userdata)) = soonest else {
                // Only stdin, not ready: wait for it.
                let _ = host.read_stdin(0);
                return put(m, out, &0u32.to_le_bytes());
            };
            host.sleep(wait);
            let mut event = [0u8; 32];
            event[0..8].copy_from_slice(&userdata);
            ready.push(event);
        }
        for (i, event) in ready.iter().enumerate() {
            put(m, events + 32 * i as u32, event)?;
        }
        put(m, out, &(ready.len() as u32).to_le_bytes())
    }

    fn random_get(&mut self, m: &mut dyn Memory, buf: u32, len: u32) -> Res {
        let mut bytes = vec![0u8; len as usize];
        for chunk in bytes.chunks_mut(8) {
            let word = self.random.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        put(m, buf, &bytes)
    }
}

/// Why a call stops early.
#[derive(Debug)]
enum Stop {
    Errno(u16),
    Broke(String),
}

impl From<u16> for Stop {
    fn from(e: u16) -> Stop {
        Stop::Errno(e)
    }
}

type Res = Result<(), Stop>;

fn put(m: &mut dyn Memory, ptr: u32, bytes: &[u8]) -> Res {
    if m.write(ptr, bytes) {
        Ok(())
    } else {
        Err(errno::FAULT.into())
    }
}

fn put_u32s(m: &mut dyn Memory, values: &[(u32, u32)]) -> Res {
    for &(ptr, v) in values {
        put(m, ptr, &v.to_le_bytes())?;
    }
    Ok(())
}

/// The `(ptr, len)` pairs of an iovec array.
fn iovecs(m: &dyn Memory, iovs: u32, n: u32) -> Result<Vec<(u32, u32)>, Stop> {
    let raw = m
        .read(iovs, n.checked_mul(8).ok_or(Stop::from(errno::FAULT))?)
        .ok_or(Stop::from(errno::FAULT))?;
    Ok(raw
        .chunks(8)
        .map(|c| {
            (
                u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
            )
        })
        .collect())
}

/// A program's memory as a plain vector (tests, and nothing else).
impl Memory for Vec<u8> {
    fn read(&self, ptr: u32, len: u32) -> Option<Vec<u8>> {
        let start = ptr as usize;
        self.get(start..start.checked_add(len as usize)?)
            .map(<[u8]>::to_vec)
    }

    fn write(&mut self, ptr: u32, bytes: &[u8]) -> bool {
        let start = ptr as usize;
        match start
            .checked_add(bytes.len())
            .and_then(|end| self.get_mut(start..end))
        {
            Some(slot) => {
                slot.copy_from_slice(bytes);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No clock, no input: what a pilot has.
    struct Quiet;

    impl Host for Quiet {
        fn now_ns(&self, _: u32) -> u64 {
            0
        }
        fn sleep(&mut self, _: u64) {}
        fn read_stdin(&mut self, _: usize) -> Vec<u8> {
            Vec::new()
        }
        fn stdin_ready(&mut self) -> bool {
            true
        }
        fn write_stdout(&mut self, _: &[u8]) -> bool {
            false
        }
    }

    fn world() -> (World, Vec<u8>) {
        (
            World::pilot("p.wasm", "ring.cir", b"circuit".to_vec(), 0),
            vec![0u8; 4096],
        )
    }

    /// Opens `path` (placed at 100) with `oflags`: the fd, or the errno.
    fn open(w: &mut World, m: &mut Vec<u8>, path: &str, oflags: i64) -> Result<u32, Flow> {
        m.write(100, path.as_bytes());
        match w.call(
            "path_open",
            &[3, 0, 100, path.len() as i64, oflags, -1, -1, 0, 8],
            m,
            &mut Quiet,
        ) {
            Flow::Errno(0) => Ok(u32::from_le_bytes(m[8..12].try_into().unwrap())),
            other => Err(other),
        }
    }

    /// Writes `bytes` (placed at 1000) on `fd`.
    fn write(w: &mut World, m: &mut Vec<u8>, fd: u32, bytes: &[u8]) -> Flow {
        m.write(1000, bytes);
        m.write(16, &1000u32.to_le_bytes());
        m.write(20, &(bytes.len() as u32).to_le_bytes());
        w.call("fd_write", &[fd as i64, 16, 1, 24], m, &mut Quiet)
    }

    #[test]
    fn the_circuit_is_read_and_the_result_file_found() {
        let (mut w, mut m) = world();
        let fd = open(&mut w, &mut m, "ring.cir", 0).unwrap();
        m.write(16, &200u32.to_le_bytes());
        m.write(20, &100u32.to_le_bytes());
        assert_eq!(
            w.call("fd_read", &[fd as i64, 16, 1, 24], &mut m, &mut Quiet),
            Flow::Errno(0)
        );
        assert_eq!(&m[200..207], b"circuit");
        assert_eq!(m[24], 7);
        assert_eq!(w.result("p"), Found::Missing);
        let out = open(&mut w, &mut m, "./p.f1", OFLAGS_CREAT | OFLAGS_TRUNC).unwrap();
        assert_eq!(write(&mut w, &mut m, out, b"lap"), Flow::Errno(0));
        assert_eq!(w.result("p"), Found::Bytes(b"lap".to_vec()));
        assert_eq!(write(&mut w, &mut m, 1, b"hello"), Flow::Errno(0));
        assert_eq!(w.log(), (&b"hello"[..], 0));
    }

    #[test]
    fn nothing_outside_the_directory_can_be_named() {
        let (mut w, mut m) = world();
        for path in ["../../etc/passwd", "/etc/passwd", "a/../../x"] {
            assert_eq!(
                open(&mut w, &mut m, path, 0),
                Err(Flow::Errno(errno::NOTCAPABLE)),
                "{path}"
            );
        }
        assert_eq!(
            open(&mut w, &mut m, "missing", 0),
            Err(Flow::Errno(errno::NOENT))
        );
        m.write(300, b"/etc/passwd");
        m.write(400, b"link.F1");
        assert_eq!(
            w.call("path_symlink", &[300, 11, 3, 400, 7], &mut m, &mut Quiet),
            Flow::Errno(errno::PERM)
        );
    }

    #[test]
    fn the_allowance_is_two_files_of_a_mebibyte_and_open_files_are_counted() {
        let (mut w, mut m) = world();
        open(&mut w, &mut m, "a", OFLAGS_CREAT).unwrap();
        open(&mut w, &mut m, "b", OFLAGS_CREAT).unwrap();
        match open(&mut w, &mut m, "c", OFLAGS_CREAT) {
            Err(Flow::Broke(words)) => assert!(words.contains("more than two files"), "{words}"),
            other => panic!("{other:?}"),
        }
        let fd = open(&mut w, &mut m, "a", 0).unwrap();
        let chunk = vec![b'x'; 2048];
        let mut flow = Flow::Errno(0);
        for _ in 0..600 {
            flow = write(&mut w, &mut m, fd, &chunk);
            if flow != Flow::Errno(0) {
                break;
            }
        }
        match flow {
            Flow::Broke(words) => assert!(words.contains("grew past 1 MiB"), "{words}"),
            other => panic!("{other:?}"),
        }
        let mut last = Ok(0);
        for _ in 0..MAX_OPEN_FILES + 1 {
            last = open(&mut w, &mut m, "ring.cir", 0);
        }
        assert_eq!(last, Err(Flow::Errno(errno::MFILE)));
    }

    #[test]
    fn the_seventeenth_open_file_is_refused_before_anything_is_created() {
        let (mut w, mut m) = world();
        let mut fds = Vec::new();
        for _ in 0..MAX_OPEN_FILES {
            fds.push(open(&mut w, &mut m, "ring.cir", 0).unwrap());
        }
        for _ in 0..2 {
            assert_eq!(
                open(&mut w, &mut m, "new.F1", OFLAGS_CREAT),
                Err(Flow::Errno(errno::MFILE))
            );
        }
        assert_eq!(w.result("new"), Found::Missing, "nothing was created");
        // The log says why, once, in the native host's words.
        let log = String::from_utf8(w.log().0.to_vec()).unwrap();
        assert_eq!(log, program::open_files_refused());
        // A close frees a place.
        let closed = w.call("fd_close", &[i64::from(fds[0])], &mut m, &mut Quiet);
        assert_eq!(closed, Flow::Errno(0));
        assert!(open(&mut w, &mut m, "new.F1", OFLAGS_CREAT).is_ok());
    }

    #[test]
    fn a_directory_where_the_result_should_be_is_not_regular() {
        let (mut w, mut m) = world();
        m.write(100, b"p.F1");
        assert_eq!(
            w.call("path_create_directory", &[3, 100, 4], &mut m, &mut Quiet),
            Flow::Errno(0)
        );
        assert_eq!(w.result("p"), Found::NotRegular(EntryKind::Directory));
    }

    #[test]
    fn random_bytes_are_the_native_stream() {
        let (mut w, mut m) = world();
        assert_eq!(
            w.call("random_get", &[100, 10], &mut m, &mut Quiet),
            Flow::Errno(0)
        );
        // SplitMix64(0)'s first two outputs, as the native host's test states them.
        assert_eq!(m[100..108], 0xE220_A839_7B1D_CDAFu64.to_le_bytes());
        assert_eq!(m[108..110], 0x6E78_9E6A_A1B9_65F4u64.to_le_bytes()[..2]);
    }

    #[test]
    fn arguments_exit_and_unknown_calls() {
        let (mut w, mut m) = world();
        assert_eq!(
            w.call("args_sizes_get", &[0, 4], &mut m, &mut Quiet),
            Flow::Errno(0)
        );
        assert_eq!(m[0], 2);
        assert_eq!(m[4] as usize, "p.wasm\0ring.cir\0".len());
        assert_eq!(
            w.call("args_get", &[16, 64], &mut m, &mut Quiet),
            Flow::Errno(0)
        );
        assert_eq!(&m[64..80], b"p.wasm\0ring.cir\0");
        assert_eq!(w.call("proc_exit", &[3], &mut m, &mut Quiet), Flow::Exit(3));
        assert_eq!(
            w.call("sock_accept", &[], &mut m, &mut Quiet),
            Flow::Errno(errno::NOSYS)
        );
        assert_eq!(
            w.call("fd_write", &[1, 5000, 1, 0], &mut m, &mut Quiet),
            Flow::Errno(errno::FAULT)
        );
    }
}
