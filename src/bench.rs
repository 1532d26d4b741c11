//! Simulation speed: every catalog scenario run `iterations` times, timed by a clock the caller
//! passes in (the core reads no clock of its own). The CLI (`locklab bench`) times it natively,
//! tests/web_bench.rs in headless Chromium; scripts/bench-sim.sh prints both and their ratio.

use crate::lab;
use crate::scenario::catalog;

/// One scenario's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub id: String,
    pub simulated_ms: i64,
    pub events: usize,
    /// Mean wall time per run (simulate + check), in microseconds.
    pub micros: f64,
}

/// Times `lab::run` on every built-in. `now_ms` is a monotonic clock in milliseconds.
pub fn catalog(iterations: usize, now_ms: &dyn Fn() -> f64) -> Vec<Figure> {
    let iterations = iterations.max(1);
    catalog::all()
        .into_iter()
        .map(|s| {
            let events = lab::run(&s).trace.events.len(); // also warms up
            let start = now_ms();
            for _ in 0..iterations {
                std::hint::black_box(lab::run(std::hint::black_box(&s)));
            }
            let micros = (now_ms() - start) * 1000.0 / iterations as f64;
            Figure { id: s.id.clone(), simulated_ms: s.duration_ms, events, micros }
        })
        .collect()
}

/// The figures as lines `id events simulated_ms micros` (what scripts/bench-sim.sh reads).
pub fn report(figures: &[Figure]) -> String {
    figures.iter().map(|f| format!("bench {} {} {} {:.1}\n", f.id, f.events, f.simulated_ms, f.micros)).collect()
}
