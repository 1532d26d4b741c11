//! `delay`: messages from `from` to `to` sent in a window of `duration_ms` arrive `by_ms`
//! late.

#[cfg(not(target_arch = "wasm32"))]
use serde::Deserialize;
use serde::Serialize;

use super::kind::{ms, Kind, Need, Param, Place, Spot, Sweep, AT, FROM, TO};
use crate::decimal::seconds;
use crate::sim::{Fault, NodeId};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(Deserialize))]
#[serde(deny_unknown_fields)]
pub struct Delay {
    pub at_ms: i64,
    pub from: String,
    pub to: String,
    pub by_ms: i64,
    #[serde(default = "one_ms")]
    pub duration_ms: i64,
}

const fn one_ms() -> i64 {
    1
}

const BY: Param = ms("by_ms", Need::Required, 0, (0, 5_000), Some("delayed by"));
const WINDOW: Param = ms("duration_ms", Need::Default(one_ms()), 1, (1, 10_000), None);

impl Kind for Delay {
    const ID: &'static str = "delay";
    const NOUN: &'static str = "delay";
    const SWEEP: Option<&'static Sweep> =
        Some(&Sweep { id: "delay_ms", words: "network delay (ms)", param: &BY, per_ttl: false, on_clients: false });

    fn at_ms(&self) -> i64 {
        self.at_ms
    }
    fn fields(&mut self) -> Vec<(&'static Param, Place<'_>)> {
        vec![
            (&AT, Place::Int(&mut self.at_ms)),
            (&FROM, Place::Name(&mut self.from)),
            (&TO, Place::Name(&mut self.to)),
            (&BY, Place::Int(&mut self.by_ms)),
            (&WINDOW, Place::Int(&mut self.duration_ms)),
        ]
    }
    fn words(&self) -> String {
        format!("delay {} → {} by {} at {}", self.from, self.to, seconds(self.by_ms), seconds(self.at_ms))
    }
    fn build(&self, id: &dyn Fn(&str) -> NodeId) -> Fault {
        Fault::Delay { from: id(&self.from), to: id(&self.to), by_ms: self.by_ms, duration_ms: self.duration_ms }
    }
    fn label(&self) -> &'static str {
        "Delay"
    }
    fn rule(&self, param: &str) -> Option<&'static str> {
        super::kind::same_link_end(param, &self.from, &self.to)
    }
    /// Its next message held back past the lease: it arrives after the lease it was sent under.
    fn here(spot: &Spot, _: &[&Self]) -> Option<Self> {
        let (to, next_ms) = &spot.next_send;
        Some(Delay {
            at_ms: spot.at_ms,
            from: spot.node.clone(),
            to: to.clone(),
            by_ms: spot.past_lease_ms(),
            duration_ms: next_ms - spot.at_ms + 1,
        })
    }
}
