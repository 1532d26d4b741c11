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
    catalog::compiled()
        .scenarios
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

/// Times what choosing "pause" in the fault menu costs the model on every built-in: the session
/// injects a pause on the first client at the middle of the run and re-simulates, re-draws the
/// timeline and re-tells the story (`Session::apply`). `micros` is the mean per injection; the
/// browser's redraw of the diagram comes on top (scripts/bench-browser.mjs measures the whole).
pub fn inject(iterations: usize, now_ms: &dyn Fn() -> f64) -> Vec<Figure> {
    use crate::session::{Action, Session, Start};
    let iterations = iterations.max(1);
    catalog::compiled()
        .scenarios
        .into_iter()
        .map(|s| {
            let start = Start { search: format!("?scenario={}&t={}", s.id, s.duration_ms / 2), ..Start::default() };
            let session = Session::new(&start);
            let node = s.clients[0].name.clone();
            let pause = || Action::Inject { kind: "pause".into(), node: node.clone() };
            let events = session.clone().apply(pause()).run.trace.events.len();
            let t0 = now_ms();
            for _ in 0..iterations {
                std::hint::black_box(session.clone().apply(pause()));
            }
            let micros = (now_ms() - t0) * 1000.0 / iterations as f64;
            Figure { id: format!("inject:{}", s.id), simulated_ms: s.duration_ms, events, micros }
        })
        .collect()
}

/// The figures as lines `id events simulated_ms micros` (what scripts/bench-sim.sh reads).
pub fn report(figures: &[Figure]) -> String {
    figures.iter().map(|f| format!("bench {} {} {} {:.1}\n", f.id, f.events, f.simulated_ms, f.micros)).collect()
}
