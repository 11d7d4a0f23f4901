//! Installing what the build and the tests need, when it is missing.
//!
//! Each check is cheap (a `--version` call or a file time), so `serve` and `test` run the whole
//! setup every time and a warm machine pays almost nothing. Everything comes from a package
//! registry: rustup for the wasm32 standard libraries, crates.io for trunk and wasm-bindgen-cli,
//! npm for binaryen's wasm-opt, playwright-core and yosys in WebAssembly (@yowasp/yosys, which
//! the app's build copies into `dist/`), apt for Chromium, the HDL tools, and clang
//! with wasi-libc for the example pilot written in C.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use anyhow::{Context, Result, bail};

use crate::lockfile;
use crate::process::{self, Env, output_of, run};
use crate::workspace::Workspace;

/// The wasm target every browser build and test compiles for.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The target of pilot programs (WASI preview 1), for the example pilots in `pilots/`.
pub const WASI_TARGET: &str = "wasm32-wasip1";

/// trunk's version is pinned: 0.22 needs a newer rustc than the project's.
const TRUNK_VERSION: &str = "0.21.14";

/// cargo-fuzz runs the `fuzz` stage (libFuzzer); this version builds with the project's rustc.
const CARGO_FUZZ_VERSION: &str = "0.13.2";

/// A program (or file) the tests need from the system's package manager.
struct SystemPackage {
    /// What shows the package is there.
    binary: Provides,
    /// The Debian package that provides it.
    package: &'static str,
    purpose: &'static str,
}

/// How a package shows it is installed.
#[derive(Clone, Copy)]
enum Provides {
    /// An executable on PATH.
    Binary(&'static str),
    /// A file at this path.
    File(&'static str),
    /// clang's compiler-rt builtins for wasm32-wasi (the path depends on clang's version).
    WasiBuiltins,
}

impl Provides {
    fn name(self) -> &'static str {
        match self {
            Provides::Binary(name) | Provides::File(name) => name,
            Provides::WasiBuiltins => "clang's wasm32-wasi builtins",
        }
    }
}

/// Node.js runs the Playwright suite; the Debian packages are used only if it is missing.
const NODE_PACKAGES: [SystemPackage; 2] = [
    SystemPackage {
        binary: Provides::Binary("node"),
        package: "nodejs",
        purpose: "runs the e2e suite",
    },
    SystemPackage {
        binary: Provides::Binary("npm"),
        package: "npm",
        purpose: "installs the e2e packages",
    },
];

/// What `cargo xtask test` needs besides Node.js.
const TEST_PACKAGES: [SystemPackage; 5] = [
    SystemPackage {
        binary: Provides::Binary("chromium"),
        package: "chromium",
        purpose: "the headless browser of the wasm and e2e tests",
    },
    SystemPackage {
        binary: Provides::Binary("chromedriver"),
        package: "chromium-driver",
        purpose: "drives Chromium for wasm-bindgen-test",
    },
    SystemPackage {
        binary: Provides::Binary("yosys"),
        package: "yosys",
        purpose: "synthesises hdl/ for hdl-sim",
    },
    SystemPackage {
        binary: Provides::Binary("iverilog"),
        package: "iverilog",
        purpose: "simulates hdl/ test benches",
    },
    SystemPackage {
        binary: Provides::Binary("verilator"),
        package: "verilator",
        purpose: "lints hdl/",
    },
];

/// What builds the example pilot written in C (`pilots/c/`) for WASI.
const PILOT_PACKAGES: [SystemPackage; 4] = [
    SystemPackage {
        binary: Provides::Binary("clang"),
        package: "clang",
        purpose: "compiles the example C pilot to WebAssembly",
    },
    SystemPackage {
        binary: Provides::Binary("wasm-ld"),
        package: "lld",
        purpose: "links the example C pilot",
    },
    SystemPackage {
        binary: Provides::File("/usr/lib/wasm32-wasi/libc.a"),
        package: "wasi-libc",
        purpose: "the C library of WASI programs",
    },
    SystemPackage {
        binary: Provides::WasiBuiltins,
        package: "libclang-rt-14-dev-wasm32",
        purpose: "clang's runtime builtins for wasm32",
    },
];

/// Paths of the installed tools the stages call.
#[derive(Debug, Clone)]
pub struct Tools {
    pub trunk: PathBuf,
    pub wasm_bindgen_test_runner: PathBuf,
    pub node: PathBuf,
    pub chromium: Option<PathBuf>,
    pub chromedriver: Option<PathBuf>,
    /// Set by [`Setup::everything`] only.
    pub cargo_fuzz: Option<PathBuf>,
}

/// Finds or installs the tools, printing one line per check and the installers' own progress.
pub struct Setup<'a> {
    ws: &'a Workspace,
    env: Env,
}

impl<'a> Setup<'a> {
    pub fn new(ws: &'a Workspace) -> Result<Self> {
        let mut prefix = vec![ws.node_bin()];
        prefix.extend(process::cargo_bin_dir());
        let env = Env::with_path_prefix(&prefix)?;
        Ok(Self { ws, env })
    }

    /// The environment (PATH) children must run with to find the installed tools.
    pub fn env(&self) -> &Env {
        &self.env
    }

    /// What `serve` needs: the wasm target, wasm-bindgen-cli, trunk, and Node.js with the npm
    /// packages (every build copies @yowasp/yosys into `dist/`; release builds also run
    /// wasm-opt).
    pub fn for_build(&self) -> Result<Tools> {
        self.system_packages(&NODE_PACKAGES)?;
        self.build_tools()
    }

    /// Everything `cargo xtask test` needs.
    pub fn everything(&self) -> Result<Tools> {
        self.system_packages(NODE_PACKAGES.iter().chain(&TEST_PACKAGES))?;
        self.for_pilots()?;
        let mut tools = self.build_tools()?;
        tools.chromium = self.env.which("chromium");
        tools.chromedriver = self.env.which("chromedriver");
        tools.cargo_fuzz = Some(self.cargo_fuzz()?);
        Ok(tools)
    }

    /// cargo-fuzz, for the `fuzz` stage and `cargo xtask fuzz`.
    pub fn cargo_fuzz(&self) -> Result<PathBuf> {
        self.cargo_tool("cargo-fuzz", "cargo-fuzz", CARGO_FUZZ_VERSION, true, "2")
    }

    /// What `cargo xtask pilots` needs: the WASI target and clang with wasi-libc.
    pub fn for_pilots(&self) -> Result<()> {
        self.rust_target(WASI_TARGET)?;
        // After the packages clang needs, which apt installs in this order.
        self.system_packages(&PILOT_PACKAGES)
    }

    fn build_tools(&self) -> Result<Tools> {
        self.rust_target(WASM_TARGET)?;
        let wasm_bindgen_test_runner = self.wasm_bindgen()?;
        let trunk = self.cargo_tool("trunk", "trunk", TRUNK_VERSION, true, "7")?;
        let node = self.npm_packages()?;
        Ok(Tools {
            trunk,
            wasm_bindgen_test_runner,
            node,
            chromium: None,
            chromedriver: None,
            cargo_fuzz: None,
        })
    }

    fn rust_target(&self, target: &str) -> Result<()> {
        let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
        let sysroot = output_of(self.env.command(rustc).args(["--print", "sysroot"]));
        let installed = sysroot.is_some_and(|root| {
            Path::new(root.trim())
                .join("lib/rustlib")
                .join(target)
                .join("lib")
                .is_dir()
        });
        if installed {
            println!("setup: rust target {target}: present");
            return Ok(());
        }
        println!("setup: rust target {target}: missing, installing it with rustup");
        if self.env.which("rustup").is_none() {
            bail!(
                "the Rust standard library for {target} is missing and rustup is not \
                 installed; install the target with your Rust distribution and run again"
            );
        }
        run(self.env.command("rustup").args(["target", "add", target]))
            .with_context(|| format!("could not install the {target} target"))
    }

    /// Where `provides` is found, if it is.
    fn find(&self, provides: Provides) -> Option<PathBuf> {
        match provides {
            Provides::Binary(name) => self.env.which(name),
            Provides::File(path) => Path::new(path).is_file().then(|| PathBuf::from(path)),
            Provides::WasiBuiltins => {
                let clang = self.env.which("clang")?;
                let path = output_of(
                    self.env
                        .command(clang)
                        .args(["--target=wasm32-wasi", "--print-libgcc-file-name"]),
                )?;
                let path = PathBuf::from(path.trim());
                path.is_file().then_some(path)
            }
        }
    }

    /// wasm-bindgen-cli at exactly the `wasm-bindgen` version of Cargo.lock; returns the test
    /// runner it ships.
    fn wasm_bindgen(&self) -> Result<PathBuf> {
        let lock = std::fs::read_to_string(self.ws.lock_file()).context("reading Cargo.lock")?;
        let version = lockfile::locked_version(&lock, "wasm-bindgen")?;
        // Without --locked: the CLI's own lock file pins dependencies that no longer build.
        self.cargo_tool("wasm-bindgen", "wasm-bindgen-cli", &version, false, "4")?;
        self.env
            .which("wasm-bindgen-test-runner")
            .context("wasm-bindgen-cli is installed but wasm-bindgen-test-runner is not on PATH")
    }

    /// Makes sure `binary --version` reports `version`, installing `krate` from crates.io if not.
    fn cargo_tool(
        &self,
        binary: &str,
        krate: &str,
        version: &str,
        locked: bool,
        minutes: &str,
    ) -> Result<PathBuf> {
        let found = self.env.which(binary);
        let found_version = found
            .as_ref()
            .and_then(|path| output_of(self.env.command(path).arg("--version")))
            .and_then(|out| out.split_whitespace().nth(1).map(str::to_owned));
        match (&found, found_version.as_deref()) {
            (Some(path), Some(v)) if v == version => {
                println!("setup: {binary} {version}: present ({})", path.display());
                return Ok(path.clone());
            }
            (Some(_), Some(other)) => {
                println!("setup: {binary} {other} found but {version} is required: installing it")
            }
            _ => println!("setup: {binary} {version}: missing, installing it"),
        }
        println!(
            "setup: cargo install {krate} {version} (compiles from crates.io, about {minutes} \
             minutes on 2 cores; cargo shows its progress below)"
        );
        let mut install = self.env.cargo();
        install.args(["install", krate, "--version", version, "--force"]);
        if locked {
            install.arg("--locked");
        }
        run(&mut install).with_context(|| {
            format!(
                "could not install {krate} {version} (is crates.io reachable?); install it by \
                 hand with `{}` and run again",
                process::display(&install)
            )
        })?;
        self.env.which(binary).with_context(|| {
            format!("{krate} was installed but `{binary}` is not on PATH nor in cargo's bin dir")
        })
    }

    /// Runs `npm ci` in `e2e/` unless `node_modules` is newer than `package-lock.json`;
    /// returns the path of node.
    fn npm_packages(&self) -> Result<PathBuf> {
        let node = self.env.which("node").context("node is not installed")?;
        let e2e = self.ws.e2e();
        let lock = e2e.join("package-lock.json");
        let stamp = e2e.join("node_modules/.package-lock.json");
        let fresh = match (modified(&stamp), modified(&lock)) {
            (Some(installed), Some(locked)) => installed >= locked,
            _ => false,
        };
        let yosys = e2e.join("node_modules/@yowasp/yosys/gen/bundle.js");
        if fresh && self.ws.node_bin().join("wasm-opt").exists() && yosys.is_file() {
            println!("setup: e2e npm packages: present (e2e/node_modules)");
            return Ok(node);
        }
        println!(
            "setup: e2e npm packages: installing them from e2e/package-lock.json \
             (playwright-core, binaryen's wasm-opt, @yowasp/yosys: a 9 MB download)"
        );
        let npm = self.env.which("npm").context("npm is not installed")?;
        let mut command = self.env.command(npm);
        command
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&e2e);
        run(&mut command)
            .context("could not install the e2e npm packages (is registry.npmjs.org reachable?)")?;
        Ok(node)
    }

    /// Installs the missing `packages` with apt when running as root on Debian; otherwise says
    /// exactly what to install.
    fn system_packages<'p>(
        &self,
        packages: impl IntoIterator<Item = &'p SystemPackage>,
    ) -> Result<()> {
        let mut missing = Vec::new();
        for package in packages {
            match self.find(package.binary) {
                Some(path) => println!(
                    "setup: {}: present ({})",
                    package.binary.name(),
                    path.display()
                ),
                None => missing.push(package),
            }
        }
        if missing.is_empty() {
            return Ok(());
        }
        let names: Vec<&str> = missing.iter().map(|p| p.package).collect();
        for package in &missing {
            println!(
                "setup: {}: missing ({})",
                package.binary.name(),
                package.purpose
            );
        }
        let apt = self.env.which("apt-get");
        if !(is_root() && Path::new("/etc/debian_version").exists() && apt.is_some()) {
            bail!(
                "missing system packages: {}.\nInstall them with your package manager and run \
                 again; on Debian or Ubuntu: sudo apt-get install {}",
                missing
                    .iter()
                    .map(|p| p.binary.name())
                    .collect::<Vec<_>>()
                    .join(", "),
                names.join(" ")
            );
        }
        println!("setup: installing {} with apt-get", names.join(" "));
        let apt = apt.expect("checked above");
        let apt_env = |command: &mut std::process::Command| {
            command.env("DEBIAN_FRONTEND", "noninteractive");
        };
        let mut update = self.env.command(&apt);
        update.args(["update", "-q"]);
        apt_env(&mut update);
        run(&mut update).context("apt-get update failed")?;
        let mut install = self.env.command(&apt);
        install
            .args(["install", "-y", "-q", "--no-install-recommends"])
            .args(&names);
        apt_env(&mut install);
        run(&mut install).with_context(|| format!("could not install {}", names.join(" ")))?;
        if let Some(still) = missing.iter().find(|p| self.find(p.binary).is_none()) {
            bail!(
                "apt-get installed {} but {} is still missing",
                still.package,
                still.binary.name()
            );
        }
        Ok(())
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    path.metadata().and_then(|m| m.modified()).ok()
}

/// Whether this process runs as root (apt-get needs it).
fn is_root() -> bool {
    output_of(std::process::Command::new("id").arg("-u")).is_some_and(|uid| uid.trim() == "0")
}
