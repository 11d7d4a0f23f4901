//! The UART transactors beside a compiled design whose state stays in the module between
//! chunks of cycles: one loop for every host (wasmtime natively, the browser's WebAssembly).

use crate::sim::{InputPin, Probe};
use crate::{UartDriver, UartMonitor};

/// The UART transactors a host runs beside the design (see `run_uart` on a host).
pub struct UartLink<'a> {
    /// The receive input, its driver, and the level the pin has now.
    pub rx: Option<(InputPin, &'a mut UartDriver, &'a mut bool)>,
    /// The transmit output and its monitor (the module should watch the probe's bits:
    /// [`super::Options::watching`]; without that it is only sampled when the monitor needs it).
    pub tx: Option<(&'a Probe, &'a mut UartMonitor)>,
}

#[cfg(any(
    all(feature = "compiled", not(target_arch = "wasm32")),
    all(feature = "browser", target_arch = "wasm32")
))]
pub(crate) use hosted::{Loaded, run_stored, run_uart_stored};

/// What needs a host of the compiled back end (one is built for this target).
#[cfg(any(
    all(feature = "compiled", not(target_arch = "wasm32")),
    all(feature = "browser", target_arch = "wasm32")
))]
mod hosted {
    use super::UartLink;
    use crate::sim::{InputPin, Probe};
    use crate::{Simulator, StampedByte};

    /// A compiled module holding a simulator's state between calls.
    pub(crate) trait Loaded {
        type Error;
        /// Runs up to `n` cycles on the loaded state; returns how many ran (`run(0)` settles).
        fn run_loaded(&mut self, n: u64) -> Result<u64, Self::Error>;
        /// Sets an input of the loaded state; the logic settles at the next run.
        fn set_loaded(&mut self, sim: &Simulator, pin: InputPin, value: u64);
        /// The low 64 bits of `probe` in the loaded state.
        fn get_loaded(&self, probe: &Probe) -> u64;
        /// Copies `sim`'s state into the module.
        fn load(&mut self, sim: &Simulator) -> Result<(), Self::Error>;
        /// Copies the loaded state back into `sim`.
        fn store(&mut self, sim: &mut Simulator);
    }

    /// `run(n)` on a host: exactly `n` cycles of `sim`, as `sim.run(n)` would, between loading its
    /// state into the module and storing it back (also after an error, so `sim` keeps the cycles
    /// that did run; nothing at all for `n == 0`).
    pub(crate) fn run_stored<L: Loaded>(
        host: &mut L,
        sim: &mut Simulator,
        n: u64,
    ) -> Result<(), L::Error> {
        if n == 0 {
            return Ok(());
        }
        host.load(sim)?;
        let mut left = n;
        let result = loop {
            if left == 0 {
                break Ok(());
            }
            match host.run_loaded(left) {
                Ok(ran) => left -= ran,
                Err(e) => break Err(e),
            }
        };
        host.store(sim);
        result
    }

    /// `run_uart` on a host: [`run_uart`] between loading `sim`'s state into the module and
    /// storing it back (nothing at all for `max == 0`).
    pub(crate) fn run_uart_stored<L: Loaded>(
        host: &mut L,
        sim: &mut Simulator,
        link: UartLink<'_>,
        max: u64,
        until_byte: bool,
        byte: impl FnMut(StampedByte),
    ) -> Result<u64, L::Error> {
        if max == 0 {
            return Ok(0);
        }
        host.load(sim)?;
        let result = run_uart(host, sim, link, max, until_byte, byte);
        host.store(sim);
        result
    }

    /// Runs up to `max` cycles of the loaded state of `sim` (whose clock says cycle `base` at the
    /// start) with UART transactors, exactly as a loop of `max` iterations of "drive the receive
    /// pin with the driver's next level; give the monitor the transmit pin at the cycle; step"
    /// would, calling `byte` with every byte the monitor decodes; with `until_byte`, stops after
    /// the iteration that decodes one. Returns the cycles run.
    ///
    /// The module runs in chunks: until the receive line next changes level, the monitor next
    /// samples the transmit line, or the transmit line changes (watched).
    fn run_uart<L: Loaded>(
        host: &mut L,
        sim: &Simulator,
        mut link: UartLink<'_>,
        max: u64,
        until_byte: bool,
        mut byte: impl FnMut(StampedByte),
    ) -> Result<u64, L::Error> {
        let base = sim.cycle();
        let mut done = 0;
        while done < max {
            let cycle = base + done;
            let mut chunk = max - done;
            if let Some((pin, driver, level_now)) = &mut link.rx {
                let (level, steady) = driver.peek();
                if level != **level_now {
                    **level_now = level;
                    host.set_loaded(sim, *pin, u64::from(level));
                    host.run_loaded(0)?;
                }
                chunk = chunk.min(steady);
            }
            let mut got = None;
            if let Some((probe, monitor)) = &mut link.tx {
                let tx = host.get_loaded(probe) & 1 == 1;
                got = monitor.sample(tx, cycle);
                if let Some(at) = monitor.next_sample().filter(|&at| at > cycle) {
                    chunk = chunk.min(at - cycle);
                }
            }
            if got.is_some() && until_byte {
                chunk = 1;
            }
            let ran = host.run_loaded(chunk)?;
            if let Some((_, driver, _)) = &mut link.rx {
                driver.advance(ran);
            }
            done += ran;
            if let Some(b) = got {
                byte(b);
                if until_byte {
                    break;
                }
            }
        }
        Ok(done)
    }
}
