//! What of a scenario can run on real servers, and the fault schedule it becomes. Anything the
//! harness cannot do for real is refused with a message naming the fault; nothing is skipped.

use locklab::scenario::{FaultSpec, Scenario};

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

/// Why a server's clock cannot be jumped or drifted here (docs/FIDELITY.md says more).
pub const CLOCKS: &str = "is not supported on real servers: a server's clock would be stepped through libfaketime (Debian's faketime 0.9.10), which cannot start redis-server 7 (its jemalloc calls clock_gettime while libfaketime is still initialising: \"Cannot recover from unexpected recursive calls to clock_gettime()\") and is not set up for etcd, ZooKeeper or PostgreSQL";

/// The schedule of `scenario`'s faults, or the first one that cannot be done for real.
pub fn schedule(scenario: &Scenario) -> Result<Vec<Step>, String> {
    let harness = crate::harness::of(scenario.approach)?;
    // The processes the harness can signal: the clients, and the lock service's servers where
    // they are processes of their own (`Harness::signals_servers`).
    let mut processes: Vec<String> = scenario.clients.iter().map(|c| c.name.clone()).collect();
    if harness.signals_servers {
        processes.extend(locklab::scenario::nodes::service_names(scenario));
    }
    let real = |node: &str| processes.iter().any(|p| p == node);
    let mut steps = Vec::new();
    for (i, fault) in scenario.faults.iter().enumerate() {
        let refuse = |why: &str| Err(format!("faults[{i}] ({}): {why}", locklab::scenario::fault::words(fault)));
        match fault {
            FaultSpec::Pause(p) => {
                if !real(&p.node) {
                    return refuse(&format!(
                        "a pause of {} is not supported on real servers (SIGSTOP freezes clients, Redis, etcd and ZooKeeper)",
                        p.node
                    ));
                }
                let until_ms = p.at_ms + p.duration_ms;
                steps.push(Step { at_ms: p.at_ms, node: p.node.clone(), action: Action::Freeze { until_ms } });
                steps.push(Step { at_ms: until_ms, node: p.node.clone(), action: Action::Thaw });
            }
            FaultSpec::Crash(c) => {
                if c.machine {
                    return refuse("a machine crash (power loss) is not supported on real servers; a process crash (kill -9) is");
                }
                if !real(&c.node) {
                    return refuse(&format!(
                        "a crash of {} is not supported on real servers (kill -9 ends clients, Redis, etcd and ZooKeeper)",
                        c.node
                    ));
                }
                steps.push(Step { at_ms: c.at_ms, node: c.node.clone(), action: Action::Kill });
                if let Some(after) = c.restart_after_ms {
                    steps.push(Step { at_ms: c.at_ms + after, node: c.node.clone(), action: Action::Restart });
                }
            }
            FaultSpec::ClockJump(_) | FaultSpec::ClockDrift(_) => return refuse(&format!("{} {CLOCKS}", fault.kind().id())),
            _ => {
                return refuse(&format!("the fault kind {} is not supported on real servers (only pause and crash are)", fault.kind().id()))
            }
        }
    }
    // Stable: a thaw and a later freeze at the same instant keep the scenario's order.
    steps.sort_by_key(|s| s.at_ms);
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use locklab::scenario::catalog;

    fn with_fault_list(approach: &str, json: &str) -> Vec<FaultSpec> {
        let text = format!(r#"{{"version":1,"approach":"{approach}","faults":[{json}]}}"#);
        locklab::scenario::parse(&text).unwrap().faults
    }

    fn with_fault(json: &str) -> Result<Vec<Step>, String> {
        let mut s = catalog::get("redis-gc-pause").unwrap();
        s.faults = with_fault_list("redis", json);
        schedule(&s)
    }

    #[test]
    fn a_pause_becomes_sigstop_then_sigcont() {
        let steps = with_fault(r#"{"at_ms":500,"kind":"pause","node":"A","duration_ms":1000}"#).unwrap();
        assert_eq!(steps[0], Step { at_ms: 500, node: "A".into(), action: Action::Freeze { until_ms: 1500 } });
        assert_eq!(steps[1], Step { at_ms: 1500, node: "A".into(), action: Action::Thaw });
    }

    #[test]
    fn a_crash_kills_then_restarts_and_without_restart_stays_down() {
        let steps = with_fault(r#"{"at_ms":100,"kind":"crash","node":"redis","restart_after_ms":50}"#).unwrap();
        assert_eq!(
            steps.iter().map(|s| (s.at_ms, s.action.clone())).collect::<Vec<_>>(),
            vec![(100, Action::Kill), (150, Action::Restart)]
        );
        assert_eq!(with_fault(r#"{"at_ms":100,"kind":"crash","node":"A"}"#).unwrap().len(), 1);
    }

    #[test]
    fn what_cannot_be_done_for_real_is_refused_by_name() {
        let err = with_fault(r#"{"at_ms":100,"kind":"clock_jump","node":"redis","by_ms":5000}"#).unwrap_err();
        assert!(err.starts_with("faults[0] (") && err.contains("clock_jump is not supported"), "{err}");
        let err = with_fault(r#"{"at_ms":100,"kind":"crash","node":"redis","machine":true}"#).unwrap_err();
        assert!(err.contains("machine crash"), "{err}");
        let err = with_fault(r#"{"at_ms":100,"kind":"pause","node":"storage","duration_ms":10}"#).unwrap_err();
        assert!(err.contains("a pause of storage is not supported"), "{err}");
        let mut consul = catalog::get("consul-lock-delay").unwrap();
        consul.faults.clear();
        assert!(schedule(&consul).unwrap_err().starts_with("approach: consul"));
        let mut db = catalog::get("db-lease-gc-pause").unwrap();
        db.faults = with_fault_list("db-lease", r#"{"at_ms":100,"kind":"crash","node":"db","restart_after_ms":50}"#);
        assert!(schedule(&db).unwrap_err().contains("a crash of db is not supported"));
    }

    #[test]
    fn redlock_clock_jump_is_refused_naming_the_fault_and_why() {
        // The built-in: its first fault that cannot be done, a dropped link, is named.
        let s = catalog::get("redlock-clock-jump").unwrap();
        let err = schedule(&s).unwrap_err();
        assert!(err.starts_with("faults[0] (") && err.contains("the fault kind drop is not supported"), "{err}");
        // Without the drops, the clock jump itself, with libfaketime's failure.
        let mut s = s;
        s.faults.retain(|f| f.kind().id() != "drop");
        let err = schedule(&s).unwrap_err();
        assert!(err.starts_with("faults[0] (") && err.contains("clock_jump is not supported on real servers"), "{err}");
        assert!(err.contains("libfaketime") && err.contains("redis-server"), "{err}");
        let drift = with_fault(r#"{"at_ms":100,"kind":"clock_drift","node":"redis","ppm":10000}"#).unwrap_err();
        assert!(
            drift.contains("clock_drift is not supported on real servers: a server's clock would be stepped through libfaketime"),
            "{drift}"
        );
    }

    #[test]
    fn pg_advisory_runs_pauses_and_client_crashes_and_refuses_the_cut_off_by_name() {
        for id in ["happy-path-pg-advisory", "pg-advisory-gc-pause"] {
            assert!(schedule(&catalog::get(id).unwrap()).is_ok(), "{id}");
        }
        let err = schedule(&catalog::get("pg-advisory-cut-off").unwrap()).unwrap_err();
        assert!(err.starts_with("faults[0] (") && err.contains("the fault kind drop is not supported"), "{err}");
        let mut s = catalog::get("pg-advisory-gc-pause").unwrap();
        s.faults = with_fault_list("pg-advisory", r#"{"at_ms":100,"kind":"crash","node":"A"}"#);
        assert_eq!(schedule(&s).unwrap(), vec![Step { at_ms: 100, node: "A".into(), action: Action::Kill }]);
        s.faults = with_fault_list("pg-advisory", r#"{"at_ms":100,"kind":"pause","node":"postgres","duration_ms":50}"#);
        assert!(schedule(&s).unwrap_err().contains("a pause of postgres is not supported"));
    }

    #[test]
    fn redlock_redisson_and_conditional_write_are_run() {
        for id in ["redlock-gc-pause", "happy-path-redlock", "redisson-watchdog", "happy-path-redisson", "conditional-write-race"] {
            assert!(schedule(&catalog::get(id).unwrap()).is_ok(), "{id}");
        }
        let mut s = catalog::get("redlock-gc-pause").unwrap();
        s.faults = with_fault_list("redlock", r#"{"at_ms":100,"kind":"crash","node":"redis-3","restart_after_ms":50}"#);
        assert_eq!(schedule(&s).unwrap().len(), 2, "an instance can be killed and restarted");
        let mut s = catalog::get("conditional-write-race").unwrap();
        s.faults = with_fault_list("conditional-write", r#"{"at_ms":100,"kind":"pause","node":"storage","duration_ms":50}"#);
        assert!(schedule(&s).unwrap_err().contains("a pause of storage is not supported"));
    }
}
