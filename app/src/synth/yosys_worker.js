// The Verilog synthesis worker: yosys compiled to WebAssembly (npm @yowasp/yosys, installed by
// `cargo xtask setup` and copied into dist/yowasp-yosys/ by trunk: no CDN, works offline once
// served) runs the script the page sends (`hdl_sim::flow::VerilogFlow`, the project's netlist
// flow) on the files the user picked. The page starts this module worker only when a user first
// picks Verilog files, and yosys (a 30 MB module) is fetched and compiled at the first request.
//
// In:  { id, files: { name: Uint8Array }, script, netlistFile }
// Out: { id, kind: 'loading' }                 fetching and compiling yosys (first request)
//      { id, kind: 'progress', line }          a numbered section of yosys's log has begun
//      { id, kind: 'done', ok, netlist, log, seconds }
//                                              netlist: the JSON text (ok) or null; log: all
//                                              yosys printed (or why it could not run)
// Requests are served one at a time, in order.

let yosys = null;

function loadYosys() {
  if (yosys === null) {
    yosys = import('./yowasp-yosys/bundle.js').then(async (module) => {
      // Fetches and compiles the WebAssembly and the share/ files once.
      await module.runYosys();
      return module;
    });
    // A failed load is tried again at the next request.
    yosys.catch(() => {
      yosys = null;
    });
  }
  return yosys;
}

// Splits yosys's output into lines; numbered section headers ("4. Executing PROC pass.",
// "4.3. Executing PROC_MUX pass") go to the page as progress.
function lineCollector(id) {
  const lines = [];
  const decoder = new TextDecoder();
  let partial = '';
  const take = (line) => {
    lines.push(line);
    if (/^\d+(\.\d+)*\. \S/.test(line)) self.postMessage({ id, kind: 'progress', line });
  };
  return {
    lines,
    output(bytes) {
      if (bytes === null) return;
      partial += decoder.decode(bytes, { stream: true });
      let newline;
      while ((newline = partial.indexOf('\n')) >= 0) {
        take(partial.slice(0, newline));
        partial = partial.slice(newline + 1);
      }
    },
    finish() {
      partial += decoder.decode();
      if (partial !== '') take(partial);
      partial = '';
    },
  };
}

async function synthesize({ id, files, script, netlistFile }) {
  const started = performance.now();
  const log = lineCollector(id);
  let ok = false;
  let netlist = null;
  try {
    self.postMessage({ id, kind: 'loading' });
    const { runYosys, Exit } = await loadYosys();
    const tree = { ...files, 'synth.ys': script };
    try {
      const out = await runYosys(['-s', 'synth.ys'], tree, {
        stdout: (bytes) => log.output(bytes),
        stderr: (bytes) => log.output(bytes),
        decodeASCII: true,
      });
      const written = out[netlistFile];
      netlist = typeof written === 'string' ? written : new TextDecoder().decode(written);
      ok = true;
    } catch (error) {
      if (!(error instanceof Exit)) throw error;
    }
  } catch (error) {
    log.finish();
    log.lines.push(`could not run yosys: ${error}`);
  }
  log.finish();
  self.postMessage({
    id,
    kind: 'done',
    ok,
    netlist,
    log: log.lines.join('\n'),
    seconds: (performance.now() - started) / 1000,
  });
}

let queue = Promise.resolve();
self.onmessage = (event) => {
  queue = queue.then(() => synthesize(event.data));
};
