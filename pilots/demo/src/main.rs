//! The demo pilot (the original kit's DEMO_2CV) as a WASI program: never faster than one cell
//! per move, so it finishes on every conforming circuit. The driving is the engine's own demo
//! pilot; this program only adds the contract (see `kit`).

use engine::racetrack::pilot::Pilot;

fn main() -> std::process::ExitCode {
    kit::run(|circuit| {
        Pilot::Demo
            .fly(circuit)
            .map(|lap| lap.positions().to_vec())
            .map_err(|e| e.to_string())
    })
}
