//! The trace invariants (the library's `check::properties::invariants()`) on generated traces of every approach,
//! with any fault the format allows and with faults that end; tests/properties.rs checks them
//! on every run it generates too.

mod common;

use common::{invariants, scale, scenario, shapes, FaultMix};
use locklab::check::properties;
use locklab::lab;
use locklab::sim::rng::Stream;

#[test]
fn every_generated_trace_keeps_the_invariants() {
    let mut rng = Stream::new(2026, 6);
    let n = 400 * scale();
    for shape in shapes() {
        let mut events = 0;
        for k in 0..n {
            // Mostly anything the format allows; some with only faults that end (more grants).
            let mix = if k % 3 == 2 { FaultMix::Ending } else { FaultMix::Any };
            let s = scenario(&mut rng, shape, mix, k % 2 == 0);
            let run = lab::run(&s);
            events += run.trace.events.len();
            if let Err(e) = invariants::check(&run) {
                panic!("{}: {e}\n{}", shape.name(), serde_json::to_string(&s).unwrap());
            }
        }
        println!("invariants, {}: {n} traces, {events} events, {} invariants each", shape.name(), properties::invariants().len());
    }
}
