//! What of a scenario can run on real servers, and the fault schedule it becomes. Anything the
//! harness cannot do for real is refused with a message naming the fault; nothing is skipped.

use locklab::scenario::{Approach, FaultSpec, Scenario};

/// One step of the fault schedule, at scenario time `at_ms`.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub at_ms: i64,
    pub node: String,
    pub action: Action,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// SIGSTOP; `until_ms` is when the matching SIGCONT comes.
    Freeze { until_ms: i64 },
    /// SIGCONT.
    Thaw,
    /// kill -9.
    Kill,
    /// A client: a new process; a server: started again on the same data dir.
    Restart,
}

/// The time scale used unless one is given: 1 s of scenario time takes 250 ms of wall time,
/// so a 20 s scenario runs in 5 s, and the scenarios' 500 ms margins are 125 ms of wall time.
pub const DEFAULT_SCALE: f64 = 0.25;

/// The approaches with a real harness so far.
pub fn supported(approach: Approach) -> Result<(), String> {
    match approach {
        Approach::Redis | Approach::DbLease => Ok(()),
        other => Err(format!("approach: {} is not run on real servers yet (locklab-real runs redis and db-lease)", other.id())),
    }
}

/// The schedule of `scenario`'s faults, or the first one that cannot be done for real.
pub fn schedule(scenario: &Scenario) -> Result<Vec<Step>, String> {
    supported(scenario.approach)?;
    let clients: Vec<&str> = scenario.clients.iter().map(|c| c.name.as_str()).collect();
    let mut steps = Vec::new();
    for (i, fault) in scenario.faults.iter().enumerate() {
        let refuse = |why: &str| Err(format!("faults[{i}] ({}): {why}", locklab::scenario::fault::words(fault)));
        match fault {
            FaultSpec::Pause(p) => {
                if !clients.contains(&p.node.as_str()) && !p.node.starts_with("redis") {
                    return refuse(&format!("a pause of {} is not supported on real servers (SIGSTOP freezes clients and Redis)", p.node));
                }
                let until_ms = p.at_ms + p.duration_ms;
                steps.push(Step { at_ms: p.at_ms, node: p.node.clone(), action: Action::Freeze { until_ms } });
                steps.push(Step { at_ms: until_ms, node: p.node.clone(), action: Action::Thaw });
            }
            FaultSpec::Crash(c) => {
                if c.machine {
                    return refuse("a machine crash (power loss) is not supported on real servers; a process crash (kill -9) is");
                }
                if !clients.contains(&c.node.as_str()) && !c.node.starts_with("redis") {
                    return refuse(&format!("a crash of {} is not supported on real servers (kill -9 ends clients and Redis)", c.node));
                }
                steps.push(Step { at_ms: c.at_ms, node: c.node.clone(), action: Action::Kill });
                if let Some(after) = c.restart_after_ms {
                    steps.push(Step { at_ms: c.at_ms + after, node: c.node.clone(), action: Action::Restart });
                }
            }
            _ => {
                return refuse(&format!("the fault kind {} is not supported on real servers (only pause and crash are)", fault.kind().id()))
            }
        }
    }
    // Stable: a thaw and a later freeze at the same instant keep the scenario's order.
    steps.sort_by_key(|s| s.at_ms);
    Ok(steps)
}
