//! What a program left in its directory, read without trusting it (spec §7–§8 Decisions,
//! issue 19): the result file is looked at with `lstat`, opened with `O_NOFOLLOW | O_NONBLOCK`,
//! checked again on the open descriptor, and read through a 1 MiB cap — so a symbolic link to
//! `/etc/passwd` is never followed, a FIFO never blocks, and `/dev/zero` or a sparse 5 GB file
//! is never read whole.

use std::fs::{self, File, FileType};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use engine::racetrack::program::{self, EntryKind, Found, MAX_FILE_BYTES};

/// How many directory entries a scan looks at before it gives up (a program may leave many).
const MAX_SCANNED: usize = 10_000;

/// The pilot's result file in `dir`: `<stem>.F1`, any case of the extension.
pub fn result_path(dir: &Path, stem: &str) -> Option<PathBuf> {
    let mut names: Vec<String> = entries(dir)
        .into_iter()
        .filter(|name| program::is_result_file_name(name, stem))
        .collect();
    // `.F1` first, then the other spellings in a fixed order.
    names.sort_by_key(|n| (!n.ends_with(".F1"), n.clone()));
    names.first().map(|n| dir.join(n))
}

/// For native command pilots, whose program file may be an interpreter (`python3 pilot.py`):
/// `<stem>.F1` (any case), or else the only `.F1` file (any case) in `dir`.
pub fn result_path_or_only_f1(dir: &Path, stem: &str) -> Option<PathBuf> {
    if let Some(path) = result_path(dir, stem) {
        return Some(path);
    }
    let f1: Vec<String> = entries(dir)
        .into_iter()
        .filter(|name| {
            Path::new(name)
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("f1"))
        })
        .collect();
    match f1.as_slice() {
        [only] => Some(dir.join(only)),
        _ => None,
    }
}

/// The UTF-8 names of the first entries of `dir`.
fn entries(dir: &Path) -> Vec<String> {
    let Ok(read) = fs::read_dir(dir) else {
        return Vec::new();
    };
    read.take(MAX_SCANNED)
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect()
}

/// Reads the result file at `path` (if `path` is `None` there is none) without following a
/// link, blocking, or reading more than [`MAX_FILE_BYTES`] + 1 bytes.
pub fn read_result(path: Option<&Path>) -> Found {
    let Some(path) = path else {
        return Found::Missing;
    };
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Found::Missing,
        Err(e) => return Found::Unreadable(e.to_string()),
    };
    if !meta.file_type().is_file() {
        return Found::NotRegular(kind_of(meta.file_type()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Found::TooLarge { bytes: meta.len() };
    }
    let file = match open_no_follow(path) {
        Ok(file) => file,
        // Swapped for a link between the two looks.
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Found::NotRegular(EntryKind::SymbolicLink);
        }
        Err(e) => return Found::Unreadable(e.to_string()),
    };
    // The descriptor's own type: what was opened is what is read.
    let meta = match file.metadata() {
        Ok(meta) => meta,
        Err(e) => return Found::Unreadable(e.to_string()),
    };
    if !meta.file_type().is_file() {
        return Found::NotRegular(kind_of(meta.file_type()));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(MAX_FILE_BYTES) as usize);
    if let Err(e) = file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes) {
        return Found::Unreadable(e.to_string());
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Found::TooLarge {
            bytes: meta.len().max(bytes.len() as u64),
        };
    }
    Found::Bytes(bytes)
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_no_follow(path: &Path) -> io::Result<File> {
    File::open(path)
}

fn kind_of(t: FileType) -> EntryKind {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return EntryKind::Fifo;
        }
        if t.is_socket() {
            return EntryKind::Socket;
        }
        if t.is_char_device() {
            return EntryKind::CharDevice;
        }
        if t.is_block_device() {
            return EntryKind::BlockDevice;
        }
    }
    if t.is_symlink() {
        EntryKind::SymbolicLink
    } else if t.is_dir() {
        EntryKind::Directory
    } else {
        EntryKind::Other
    }
}

/// Checks a pilot's directory against its file allowance (spec §7): besides the circuit
/// (`keep`), at most two entries (its result file and one other), and no file over 1 MiB, in
/// any subdirectory either. `Err` says what was broken.
pub fn check_allowance(dir: &Path, keep: &str) -> Result<(), String> {
    let mut created = 0usize;
    let mut pending = vec![(dir.to_path_buf(), true)];
    while let Some((at, top)) = pending.pop() {
        let Ok(read) = fs::read_dir(&at) else {
            continue;
        };
        for entry in read.take(MAX_SCANNED).flatten() {
            let name = entry.file_name();
            if !(top && name == keep) {
                created += 1;
                if created > 2 {
                    return Err(format!(
                        "it created more than two files (its result file and one other): {}",
                        name.to_string_lossy()
                    ));
                }
            }
            let Ok(meta) = entry.path().symlink_metadata() else {
                continue;
            };
            if meta.is_dir() {
                pending.push((entry.path(), false));
            } else if meta.len() > MAX_FILE_BYTES {
                return Err(format!(
                    "its file {} grew past 1 MiB ({} bytes)",
                    name.to_string_lossy(),
                    meta.len()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn regular_small_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("vmax.f1"), "a\nb\n40,4\n").unwrap();
        let path = result_path(dir.path(), "vmax").unwrap();
        assert_eq!(
            read_result(Some(&path)),
            Found::Bytes(b"a\nb\n40,4\n".to_vec())
        );
        assert_eq!(read_result(None), Found::Missing);
        assert_eq!(result_path(dir.path(), "other"), None);
        assert_eq!(
            result_path_or_only_f1(dir.path(), "python3"),
            Some(dir.path().join("vmax.f1"))
        );
    }

    #[test]
    fn links_fifos_devices_and_huge_files_are_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::os::unix::fs::symlink("/etc/passwd", d.join("link.F1")).unwrap();
        assert_eq!(
            read_result(Some(&d.join("link.F1"))),
            Found::NotRegular(EntryKind::SymbolicLink)
        );
        std::os::unix::fs::symlink("/dev/zero", d.join("zero.F1")).unwrap();
        assert_eq!(
            read_result(Some(&d.join("zero.F1"))),
            Found::NotRegular(EntryKind::SymbolicLink)
        );
        let fifo = std::ffi::CString::new(d.join("fifo.F1").to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        assert_eq!(
            read_result(Some(&d.join("fifo.F1"))),
            Found::NotRegular(EntryKind::Fifo)
        );
        let sparse = File::create(d.join("sparse.F1")).unwrap();
        sparse.set_len(5_000_000_000).unwrap();
        assert_eq!(
            read_result(Some(&d.join("sparse.F1"))),
            Found::TooLarge {
                bytes: 5_000_000_000
            }
        );
        assert_eq!(
            read_result(Some(Path::new("/dev/null"))),
            Found::NotRegular(EntryKind::CharDevice)
        );
    }

    #[test]
    fn the_allowance_is_two_files_of_a_mebibyte() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        fs::write(d.join("ring.cir"), "x").unwrap();
        fs::write(d.join("p.F1"), "x").unwrap();
        fs::create_dir(d.join("tmp")).unwrap();
        assert_eq!(check_allowance(d, "ring.cir"), Ok(()));
        fs::write(d.join("tmp/a"), "x").unwrap();
        let err = check_allowance(d, "ring.cir").unwrap_err();
        assert!(err.contains("more than two files"), "{err}");
        fs::remove_file(d.join("tmp/a")).unwrap();
        File::create(d.join("p.F1"))
            .unwrap()
            .set_len(MAX_FILE_BYTES + 1)
            .unwrap();
        let err = check_allowance(d, "ring.cir").unwrap_err();
        assert!(err.contains("grew past 1 MiB"), "{err}");
    }
}
