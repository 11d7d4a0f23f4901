//! Verilog synthesized in the browser: the user picks `.v` files (and names the top module),
//! yosys runs in a worker (`worker`) with the project's netlist flow
//! ([`hdl_sim::flow::VerilogFlow`], the same passes as `hdl/netlist.sh`), and the netlist it
//! writes goes to the emulated board exactly as an uploaded one would. yosys is loaded only when
//! first needed; while it runs, and when it fails, the board that was running keeps running.

mod worker;

use hdl_sim::flow::{NETLIST_FILE, VerilogFlow};
use web_sys::{File, HtmlInputElement};
use yew::prelude::*;

use crate::browser_file;
use worker::{Outcome, Reply, YosysWorker};

/// A netlist yosys made of the user's files.
#[derive(Clone, Debug, PartialEq)]
pub struct Synthesized {
    /// What to call it (shown where an uploaded netlist shows its file name).
    pub label: String,
    /// The design's short name ([`design_name`]).
    pub name: String,
    /// The yosys JSON netlist.
    pub netlist: String,
}

/// Where the synthesized netlist goes: what the status says, and the prefix of the hooks
/// (`data-testid`), so a page can hold pickers for several purposes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SynthFor {
    /// It replaces the design on an emulated board.
    #[default]
    Board,
    /// It joins the league as a player (hooks `league-verilog-files`, …).
    League,
}

impl SynthFor {
    fn hook(self, name: &str) -> String {
        match self {
            SynthFor::Board => name.to_owned(),
            SynthFor::League => format!("league-{name}"),
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct SynthProps {
    /// Called with each netlist synthesized.
    pub on_netlist: Callback<Synthesized>,
    #[prop_or_default]
    pub target: SynthFor,
}

/// Where a synthesis stands (`data-state` of `synth-status`).
#[derive(Clone, Debug, PartialEq)]
enum Status {
    /// No Verilog picked yet.
    Idle,
    /// yosys is loading or running; the step it is at.
    Running(String),
    /// The netlist went to the board.
    Ok { label: String, seconds: f64 },
    /// Why there is no netlist (yosys's error with its file and line, or a refused name).
    Error(String),
}

impl Status {
    fn state(&self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Running(_) => "running",
            Status::Ok { .. } => "ok",
            Status::Error(_) => "error",
        }
    }

    fn text(&self, target: SynthFor) -> String {
        let (ok, error) = match target {
            SynthFor::Board => ("now runs on the board", "the board runs as before"),
            SynthFor::League => ("joins the league", "no player added"),
        };
        match self {
            Status::Idle => "no Verilog picked".into(),
            Status::Running(step) => format!("synthesizing: {step}"),
            Status::Ok { label, seconds } => format!("synthesized in {seconds:.1} s: {label} {ok}"),
            Status::Error(why) => format!("not synthesized: {why} ({error})"),
        }
    }
}

pub enum Msg {
    Picked(Vec<File>),
    Read(Result<Vec<(String, Vec<u8>)>, String>),
    /// The top module's field as typed (used by the next synthesis).
    TopTyped(String),
    /// The top module's field changed (synthesize again with it).
    Top(String),
    Reply(u32, Reply),
}

/// The Verilog picker of an emulated board: files, top module, yosys's progress and log.
pub struct VerilogSynth {
    files: Vec<(String, Vec<u8>)>,
    top: String,
    status: Status,
    log: String,
    worker: Option<YosysWorker>,
    /// The top module the last synthesis was started with.
    started_top: Option<String>,
    /// The request whose replies count (older ones are ignored).
    request: u32,
    running: bool,
}

impl Component for VerilogSynth {
    type Message = Msg;
    type Properties = SynthProps;

    fn create(_ctx: &Context<Self>) -> Self {
        VerilogSynth {
            files: Vec::new(),
            top: String::new(),
            status: Status::Idle,
            log: String::new(),
            worker: None,
            started_top: None,
            request: 0,
            running: false,
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Picked(files) => {
                if files.is_empty() {
                    return false;
                }
                self.status = Status::Running("reading the files".into());
                ctx.link().send_future(async move {
                    let mut read = Vec::with_capacity(files.len());
                    for file in files {
                        let name = file.name();
                        match browser_file::read(file).await {
                            Ok(bytes) => read.push((name, bytes)),
                            Err(why) => return Msg::Read(Err(why)),
                        }
                    }
                    Msg::Read(Ok(read))
                });
            }
            Msg::Read(Ok(files)) => {
                self.files = files;
                self.start(ctx);
            }
            Msg::Read(Err(why)) => self.status = Status::Error(why),
            Msg::TopTyped(top) => {
                self.top = top;
                return false;
            }
            Msg::Top(top) => {
                self.top = top;
                if self.files.is_empty() || self.started_top.as_deref() == Some(self.top.trim()) {
                    return false;
                }
                self.start(ctx);
            }
            Msg::Reply(id, reply) => {
                if id != self.request || !self.running {
                    return false;
                }
                match reply {
                    Reply::Loading => {
                        self.status = Status::Running("loading yosys".into());
                    }
                    Reply::Progress(line) => self.status = Status::Running(line),
                    Reply::Done(outcome) => self.finish(ctx, outcome),
                }
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let hook = |name: &str| ctx.props().target.hook(name);
        let picked = link.batch_callback(|event: Event| {
            let input = event.target_dyn_into::<HtmlInputElement>()?;
            let files = input.files().map(|f| browser_file::list(&f))?;
            // Picking the same (edited) files again must fire `change` again.
            input.set_value("");
            Some(Msg::Picked(files))
        });
        let top = link.batch_callback(|event: Event| {
            let input = event.target_dyn_into::<HtmlInputElement>()?;
            Some(Msg::Top(input.value()))
        });
        let typed = link.batch_callback(|event: InputEvent| {
            let input = event.target_dyn_into::<HtmlInputElement>()?;
            Some(Msg::TopTyped(input.value()))
        });
        html! {
            <div class="board-verilog" data-testid={hook("verilog")}>
                <div class="board-line">
                    <label>{ "Verilog files" }
                        <input type="file" multiple=true accept=".v,.sv,.vh,.svh,.hex,.mem"
                               data-testid={hook("verilog-files")} onchange={picked} />
                    </label>
                    <label>{ "Top module" }
                        <input type="text" data-testid={hook("verilog-top")} value={self.top.clone()}
                               placeholder="found by yosys" spellcheck="false"
                               oninput={typed} onchange={top} />
                    </label>
                </div>
                <p class={classes!("board-status", matches!(self.status, Status::Error(_)).then_some("error"))}
                   data-testid={hook("synth-status")} data-state={self.status.state()}
                   role={matches!(self.status, Status::Error(_)).then_some("alert")}>
                    { self.status.text(ctx.props().target) }
                </p>
                if !self.log.is_empty() {
                    <pre class="synth-log" data-testid={hook("synth-log")}>{ &self.log }</pre>
                }
            </div>
        }
    }
}

impl VerilogSynth {
    /// Sends the picked files through the flow, replacing any synthesis still running.
    fn start(&mut self, ctx: &Context<Self>) {
        let names: Vec<&str> = self.files.iter().map(|(name, _)| name.as_str()).collect();
        let flow = match VerilogFlow::new(&names, &self.top) {
            Ok(flow) => flow,
            Err(why) => {
                self.running = false;
                self.status = Status::Error(why.to_string());
                return;
            }
        };
        if self.running {
            // yosys cannot be interrupted: a new worker is quicker than waiting.
            self.worker = None;
        }
        if self.worker.is_none() {
            let replies = ctx
                .link()
                .callback(|(id, reply): (u32, Reply)| Msg::Reply(id, reply));
            match YosysWorker::spawn(replies) {
                Ok(worker) => self.worker = Some(worker),
                Err(why) => {
                    self.status = Status::Error(why);
                    return;
                }
            }
        }
        let Some(worker) = &self.worker else { return };
        self.started_top = Some(self.top.trim().to_owned());
        self.request = self.request.wrapping_add(1);
        self.log.clear();
        match worker.synthesize(self.request, &self.files, &flow.script(), NETLIST_FILE) {
            Ok(()) => {
                self.running = true;
                self.status = Status::Running("starting yosys".into());
            }
            Err(why) => {
                self.running = false;
                self.worker = None;
                self.status = Status::Error(why);
            }
        }
    }

    fn finish(&mut self, ctx: &Context<Self>, outcome: Outcome) {
        self.running = false;
        self.log = outcome.log;
        match outcome.netlist {
            Some(netlist) => {
                let names: Vec<&str> = self.files.iter().map(|(n, _)| n.as_str()).collect();
                let label = label(&names, &self.top);
                let name = design_name(&names, &self.top, &netlist);
                self.status = Status::Ok {
                    label: label.clone(),
                    seconds: outcome.seconds,
                };
                ctx.props().on_netlist.emit(Synthesized {
                    label,
                    name,
                    netlist,
                });
            }
            None => self.status = Status::Error(error_summary(&self.log)),
        }
    }
}

/// What to call a design synthesized from `files` with top module `top` (blank: found).
pub fn label(files: &[&str], top: &str) -> String {
    let top = match top.trim() {
        "" => "the top module",
        top => top,
    };
    match files {
        [] => format!("{top} (Verilog)"),
        [one] => format!("{top} (Verilog: {one})"),
        [first, rest @ ..] => format!(
            "{top} (Verilog: {first} and {} more file{})",
            rest.len(),
            if rest.len() == 1 { "" } else { "s" }
        ),
    }
}

/// A synthesized design's short name (a league player's): its top module — as typed, else
/// the one yosys found (the netlist's module marked `top`) — else the first file's stem.
pub fn design_name(files: &[&str], top: &str, netlist: &str) -> String {
    let top = top.trim();
    if !top.is_empty() {
        return top.to_owned();
    }
    if let Ok(module) = hdl_sim::netlist::Module::from_json(netlist) {
        return module.name;
    }
    let first = files.first().copied().unwrap_or("design");
    first
        .rsplit_once('.')
        .map_or(first, |(stem, _)| stem)
        .to_owned()
}

/// The line of yosys's log that says what went wrong: its first `ERROR` (yosys writes
/// `FILE:LINE: ERROR: …` for a source's error), else the last line printed.
pub fn error_summary(log: &str) -> String {
    let lines = || log.lines().map(str::trim).filter(|l| !l.is_empty());
    lines()
        .find(|line| line.contains("ERROR"))
        .or_else(|| lines().next_back())
        .map_or_else(|| "yosys stopped without a word".into(), str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_line_names_the_file_and_line() {
        let log = "\n 1. Executing Verilog-2005 frontend: a.v\nParsing Verilog input from `a.v'\n\
                   a.v:3: ERROR: syntax error, unexpected TOK_ENDMODULE\n";
        assert_eq!(
            error_summary(log),
            "a.v:3: ERROR: syntax error, unexpected TOK_ENDMODULE"
        );
        assert_eq!(
            error_summary("some output\ncould not run yosys: TypeError\n"),
            "could not run yosys: TypeError"
        );
        assert_eq!(error_summary(""), "yosys stopped without a word");
    }

    #[test]
    fn labels_name_the_top_and_the_files() {
        assert_eq!(label(&["a.v"], "top"), "top (Verilog: a.v)");
        assert_eq!(
            label(&["a.v", "b.v", "c.v"], " "),
            "the top module (Verilog: a.v and 2 more files)"
        );
        assert_eq!(
            label(&["a.v", "b.v"], "t"),
            "t (Verilog: a.v and 1 more file)"
        );
    }

    #[test]
    fn states_are_the_tests_hooks() {
        assert_eq!(Status::Idle.state(), "idle");
        assert_eq!(Status::Running(String::new()).state(), "running");
        let ok = Status::Ok {
            label: "t".into(),
            seconds: 1.0,
        };
        assert_eq!(ok.state(), "ok");
        assert_eq!(Status::Error("x.v:3: ERROR".into()).state(), "error");
        let error = Status::Error("x.v:3: ERROR: bad".into());
        assert!(error.text(SynthFor::Board).contains("x.v:3: ERROR: bad"));
        assert!(error.text(SynthFor::League).ends_with("(no player added)"));
        assert_eq!(SynthFor::Board.hook("synth-status"), "synth-status");
        assert_eq!(SynthFor::League.hook("synth-status"), "league-synth-status");
    }

    #[test]
    fn designs_are_named_by_their_top_module_or_first_file() {
        let netlist = r#"{"modules": {"inner": {"attributes": {}, "ports": {}, "cells": {},
            "netnames": {}}, "outer": {"attributes": {"top": "00000000000000000000000000000001"},
            "ports": {}, "cells": {}, "netnames": {}}}}"#;
        assert_eq!(design_name(&["a.v", "b.v"], " mine ", netlist), "mine");
        assert_eq!(design_name(&["a.v", "b.v"], "", netlist), "outer");
        assert_eq!(design_name(&["player.sv", "b.v"], "", "{}"), "player");
    }
}
