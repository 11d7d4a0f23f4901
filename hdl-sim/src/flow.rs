//! From Verilog to the netlist the simulator loads: the yosys script of the project's netlist
//! flow, for every place that runs yosys on a user's sources.
//!
//! The passes themselves are one text, `hdl/netlist.ys`: `hdl/netlist.sh` runs it with the
//! system's yosys, and the browser app runs [`VerilogFlow::script`] (which embeds the same
//! bytes) in yosys compiled to WebAssembly. A design synthesized in the page is therefore the
//! netlist `hdl/netlist.sh` would have made, and it is emulated exactly as an uploaded one.

use thiserror::Error;

/// The passes of the netlist flow (`hdl/netlist.ys`): after the sources are read and the top
/// module chosen, before the netlist is written. Comments (`#`) included; yosys skips them.
pub const YOSYS_PASSES: &str = include_str!("../../hdl/netlist.ys");

/// The file [`VerilogFlow::script`] writes the netlist to, in yosys' working directory (no
/// source can have its name: sources end in `.v`, `.sv`, `.vh` or `.svh`).
pub const NETLIST_FILE: &str = "netlist.json";

/// The longest file or module name taken (a user's file name is quoted in messages).
const MAX_NAME: usize = 120;

/// Why a set of sources cannot go through the flow. Checked before yosys runs, so that a name
/// can never turn into another yosys command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FlowError {
    #[error("no Verilog file (.v or .sv) among the files")]
    NoSources,
    #[error(
        "file “{0}”: a name may only hold letters, digits and . _ - + (at most {MAX_NAME}), \
         and may not start with - or ."
    )]
    FileName(String),
    #[error(
        "file “{0}” is neither Verilog (.v, .sv), a header (.vh, .svh) nor memory contents \
         (.hex, .mem)"
    )]
    Extension(String),
    #[error("two files are named “{0}”")]
    Duplicate(String),
    #[error(
        "top module “{0}” is not a Verilog identifier (a letter or _, then letters, digits, _ \
         or $)"
    )]
    Top(String),
}

/// What yosys does with a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceKind {
    /// Read with `read_verilog -defer`.
    Verilog,
    /// Read with `read_verilog -defer -sv`.
    SystemVerilog,
    /// Only there to be read by the sources: a header for `` `include `` (`.vh`, `.svh`), or
    /// memory contents for `$readmemh`/`$readmemb` (`.hex`, `.mem`).
    Included,
}

impl SourceKind {
    /// The kind of a file by its extension, if it is one the flow takes.
    pub fn of(name: &str) -> Option<SourceKind> {
        let (_, extension) = name.rsplit_once('.')?;
        match extension.to_ascii_lowercase().as_str() {
            "v" => Some(SourceKind::Verilog),
            "sv" => Some(SourceKind::SystemVerilog),
            "vh" | "svh" | "hex" | "mem" => Some(SourceKind::Included),
            _ => None,
        }
    }
}

/// A checked set of source file names and a top module: the yosys script for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerilogFlow {
    files: Vec<(String, SourceKind)>,
    /// `None`: yosys picks the one module nothing instantiates (`-auto-top`).
    top: Option<String>,
}

impl VerilogFlow {
    /// Checks the names of the files (in the order yosys reads them) and the top module (blank
    /// for the module no other instantiates).
    pub fn new<S: AsRef<str>>(files: &[S], top: &str) -> Result<VerilogFlow, FlowError> {
        let mut checked: Vec<(String, SourceKind)> = Vec::with_capacity(files.len());
        for name in files {
            let name = name.as_ref();
            check_file_name(name)?;
            let kind = SourceKind::of(name).ok_or_else(|| FlowError::Extension(name.into()))?;
            if checked.iter().any(|(other, _)| other == name) {
                return Err(FlowError::Duplicate(name.into()));
            }
            checked.push((name.to_owned(), kind));
        }
        if checked
            .iter()
            .all(|(_, kind)| *kind == SourceKind::Included)
        {
            return Err(FlowError::NoSources);
        }
        let top = top.trim();
        let top = match top {
            "" => None,
            name if is_identifier(name) => Some(name.to_owned()),
            name => return Err(FlowError::Top(quote(name))),
        };
        Ok(VerilogFlow {
            files: checked,
            top,
        })
    }

    /// The top module asked for (`None`: the one yosys finds).
    pub fn top(&self) -> Option<&str> {
        self.top.as_deref()
    }

    /// The names of the files yosys reads (included files left out).
    pub fn sources(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .filter(|(_, kind)| *kind != SourceKind::Included)
            .map(|(name, _)| name.as_str())
    }

    /// The whole yosys script (`yosys -s`), to run where the files lie under their names: read
    /// them, choose the top, [`YOSYS_PASSES`], write [`NETLIST_FILE`].
    ///
    /// Without a top module the sources are elaborated as they are read (no `-defer`): yosys'
    /// `-auto-top` cannot see through deferred modules (0.23 picks a leaf), while elaborated
    /// ones show which module nothing instantiates.
    pub fn script(&self) -> String {
        let defer = if self.top.is_some() { " -defer" } else { "" };
        let mut script = String::new();
        for (name, kind) in &self.files {
            match kind {
                SourceKind::Verilog => script.push_str(&format!("read_verilog{defer} {name}\n")),
                SourceKind::SystemVerilog => {
                    script.push_str(&format!("read_verilog{defer} -sv {name}\n"))
                }
                SourceKind::Included => {}
            }
        }
        match &self.top {
            Some(top) => script.push_str(&format!("hierarchy -check -top {top}\n")),
            None => script.push_str("hierarchy -check -auto-top\n"),
        }
        script.push_str(YOSYS_PASSES);
        if !YOSYS_PASSES.ends_with('\n') {
            script.push('\n');
        }
        script.push_str(&format!("write_json {NETLIST_FILE}\n"));
        script
    }
}

fn check_file_name(name: &str) -> Result<(), FlowError> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+');
    if name.is_empty()
        || name.len() > MAX_NAME
        || name.starts_with(['-', '.'])
        || !name.chars().all(allowed)
    {
        return Err(FlowError::FileName(quote(name)));
    }
    Ok(())
}

/// A Verilog simple identifier.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        && name.len() <= MAX_NAME
}

/// At most [`MAX_NAME`] characters of a user's name, for a message.
fn quote(name: &str) -> String {
    match name.char_indices().nth(MAX_NAME) {
        Some((end, _)) => format!("{}…", &name[..end]),
        None => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The commands of a script, comments and blank lines left out.
    fn commands(script: &str) -> Vec<&str> {
        script
            .lines()
            .map(|line| line.split('#').next().unwrap_or("").trim())
            .filter(|line| !line.is_empty())
            .collect()
    }

    #[test]
    fn the_script_reads_every_source_then_runs_the_documented_passes() {
        let flow = VerilogFlow::new(&["top.v", "defs.vh", "core.sv", "rom.hex"], " top ").unwrap();
        assert_eq!(flow.top(), Some("top"));
        assert_eq!(flow.sources().collect::<Vec<_>>(), ["top.v", "core.sv"]);
        assert_eq!(
            commands(&flow.script()),
            [
                "read_verilog -defer top.v",
                "read_verilog -defer -sv core.sv",
                "hierarchy -check -top top",
                "proc -norom",
                "opt_clean",
                "flatten",
                "opt",
                "memory -nomap",
                "opt",
                "async2sync",
                "dffunmap",
                "opt_clean",
                "write_json netlist.json",
            ]
        );
        assert!(flow.script().contains(YOSYS_PASSES), "the passes verbatim");
    }

    fn commands_of_named_top() -> Vec<String> {
        let script = VerilogFlow::new(&["a.v"], "t").unwrap().script();
        commands(&script).into_iter().map(str::to_owned).collect()
    }

    #[test]
    fn a_blank_top_lets_yosys_find_it() {
        let flow = VerilogFlow::new(&["a.v"], "  ").unwrap();
        assert_eq!(flow.top(), None);
        let script = flow.script();
        let commands = commands(&script);
        assert_eq!(
            commands[..2],
            ["read_verilog a.v", "hierarchy -check -auto-top"]
        );
        assert_eq!(commands[2..], commands_of_named_top()[2..]);
    }

    #[test]
    fn names_that_could_inject_yosys_commands_are_refused() {
        for name in [
            "a b.v",
            "x.v; shell rm",
            "-p.v",
            ".hidden.v",
            "dir/a.v",
            "a\n.v",
            "",
        ] {
            assert_eq!(
                VerilogFlow::new(&[name], "t"),
                Err(FlowError::FileName(name.into())),
                "{name:?}"
            );
        }
        for top in ["a b", "1top", "t;shell", "a-b"] {
            assert_eq!(
                VerilogFlow::new(&["a.v"], top),
                Err(FlowError::Top(top.into())),
                "{top:?}"
            );
        }
        let long = "a".repeat(500);
        let Err(FlowError::Top(quoted)) = VerilogFlow::new(&["a.v"], &long) else {
            panic!("a 500-character top is refused");
        };
        assert_eq!(quoted.chars().count(), MAX_NAME + 1);
    }

    #[test]
    fn sets_of_files_that_cannot_make_a_design_are_refused() {
        let none: [&str; 0] = [];
        assert_eq!(VerilogFlow::new(&none, ""), Err(FlowError::NoSources));
        assert_eq!(
            VerilogFlow::new(&["defs.vh"], ""),
            Err(FlowError::NoSources)
        );
        assert_eq!(
            VerilogFlow::new(&["a.v", "a.v"], ""),
            Err(FlowError::Duplicate("a.v".into()))
        );
        assert_eq!(
            VerilogFlow::new(&["a.v", "notes.txt"], ""),
            Err(FlowError::Extension("notes.txt".into()))
        );
        assert_eq!(
            VerilogFlow::new(&["netlist.json"], ""),
            Err(FlowError::Extension("netlist.json".into()))
        );
        // Upper-case extensions are Verilog too.
        assert!(VerilogFlow::new(&["TOP.V"], "").is_ok());
    }
}
