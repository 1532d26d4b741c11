//! Reads a recording (JSON, as serde writes `Recording`) field by field, like the scenario
//! reader: the derived `Deserialize` of the trace's big enums would cost the wasm far more than
//! this. It reads the vocabulary a real run records (the harness's `trace.rs`: no messages, no
//! partitions; the client's, storage's and the poller's notes; pauses, crashes, restarts) and
//! refuses anything else by its field path. A native test reads every committed recording and
//! writes it back byte for byte, so this reader and serde's writer cannot drift apart.

use serde_json::Value;

use super::Recording;
use crate::protocols::{AcquireFailure, BeliefEnd, ClientPhase, Event, EventKind, GrantRef, Note, Trace};
use crate::scenario::json_read::{boolean, choice, err, float, int, list, string, uint, uint32, Object, Read};
use crate::scenario::ScenarioError;
use crate::sim::{NodeInfo, Role};

/// A recording from its JSON text.
pub fn read(text: &str) -> Result<Recording, ScenarioError> {
    // The scenario reader's parser: serde_json's own `Value` reader would be more code in the wasm.
    let v = crate::scenario::strict_json::parse(text).map_err(|e| ScenarioError { path: String::new(), message: e.to_string() })?;
    let known = ["format", "id", "fencing", "fingerprint", "recorded", "server", "os", "cores", "scale", "trace"];
    let o = Object::new(&v, "", &known)?;
    let format = o.req("format", uint32)?;
    if format != super::FORMAT {
        return err("format", format!("recording format {format}, this app reads {}", super::FORMAT));
    }
    Ok(Recording {
        format,
        id: o.req("id", string)?,
        fencing: o.req("fencing", boolean)?,
        fingerprint: o.req("fingerprint", string)?,
        recorded: o.req("recorded", string)?,
        server: o.req("server", string)?,
        os: o.req("os", string)?,
        cores: o.req("cores", uint32)?,
        scale: o.req("scale", float)?,
        trace: o.req("trace", trace)?,
    })
}

fn trace(v: &Value, path: &str) -> Read<Trace> {
    let o = Object::new(v, path, &["nodes", "duration_ms", "events", "truncated"])?;
    let nodes = o.req("nodes", |v, p| list(v, p, node_info))?;
    let events = o.req("events", |v, p| list(v, p, event))?;
    if let Some(i) = events.iter().position(|e| e.node >= nodes.len()) {
        return err(&format!("{path}.events[{i}].node"), format!("no node {} (the trace has {})", events[i].node, nodes.len()));
    }
    Ok(Trace { nodes, duration_ms: o.req("duration_ms", int)?, events, truncated: o.req("truncated", boolean)? })
}

fn node_info(v: &Value, path: &str) -> Read<NodeInfo> {
    let o = Object::new(v, path, &["name", "role"])?;
    let roles = [("client", Role::Client), ("lock_server", Role::LockServer), ("storage", Role::Storage)];
    Ok(NodeInfo { name: o.req("name", string)?, role: o.req("role", |v, p| choice(v, p, &roles))? })
}

fn node(v: &Value, path: &str) -> Read<usize> {
    uint32(v, path).map(|n| n as usize)
}

fn event(v: &Value, path: &str) -> Read<Event> {
    let o = Object::new(v, path, &["at_ms", "node", "kind"])?;
    Ok(Event { at_ms: o.req("at_ms", int)?, node: o.req("node", node)?, kind: o.req("kind", kind)? })
}

/// `{"name": {fields}}` (serde's externally tagged variant): the name and its fields.
fn tagged<'a>(v: &'a Value, path: &str) -> Read<(&'a str, &'a Value)> {
    match v.as_object().filter(|m| m.len() == 1).and_then(|m| m.iter().next()) {
        Some((k, inner)) => Ok((k.as_str(), inner)),
        None => err(path, "expected a variant: a name, or an object of one name".into()),
    }
}

fn kind(v: &Value, path: &str) -> Read<EventKind> {
    match v.as_str() {
        Some("resumed") => return Ok(EventKind::Resumed),
        Some("restarted") => return Ok(EventKind::Restarted),
        Some(other) => return err(path, format!("`{other}` is not in a recording")),
        None => {}
    }
    let (name, inner) = tagged(v, path)?;
    let p = format!("{path}.{name}");
    Ok(match name {
        "paused" => EventKind::Paused { until_ms: Object::new(inner, &p, &["until_ms"])?.req("until_ms", int)? },
        "crashed" => EventKind::Crashed { machine: Object::new(inner, &p, &["machine"])?.req("machine", boolean)? },
        "note" => EventKind::Note(note(inner, &p)?),
        other => return err(path, format!("`{other}` is not in a recording")),
    })
}

fn failure(v: &Value, path: &str) -> Read<AcquireFailure> {
    match v.as_str() {
        Some(_) => choice(
            v,
            path,
            &[("busy", AcquireFailure::Busy), ("timeout", AcquireFailure::Timeout), ("session_expired", AcquireFailure::SessionExpired)],
        ),
        None => {
            let (name, inner) = tagged(v, path)?;
            let p = format!("{path}.{name}");
            match name {
                "no_quorum" => {
                    let o = Object::new(inner, &p, &["granted", "needed"])?;
                    Ok(AcquireFailure::NoQuorum { granted: o.req("granted", uint32)?, needed: o.req("needed", uint32)? })
                }
                "validity_exhausted" => Ok(AcquireFailure::ValidityExhausted {
                    validity_ms: Object::new(inner, &p, &["validity_ms"])?.req("validity_ms", int)?,
                }),
                other => err(path, format!("unknown failure `{other}`")),
            }
        }
    }
}

fn belief_end(v: &Value, path: &str) -> Read<BeliefEnd> {
    let table = [
        ("validity_expired", BeliefEnd::ValidityExpired),
        ("released", BeliefEnd::Released),
        ("write_rejected", BeliefEnd::WriteRejected),
        ("session_expired", BeliefEnd::SessionExpired),
    ];
    choice(v, path, &table)
}

fn phase(v: &Value, path: &str) -> Read<ClientPhase> {
    let table = [
        ("waiting", ClientPhase::Waiting),
        ("acquiring", ClientPhase::Acquiring),
        ("holding", ClientPhase::Holding),
        ("releasing", ClientPhase::Releasing),
        ("done", ClientPhase::Done),
    ];
    choice(v, path, &table)
}

fn grant(v: &Value, path: &str) -> Read<GrantRef> {
    let o = Object::new(v, path, &["client", "attempt"])?;
    Ok(GrantRef { client: o.req("client", node)?, attempt: o.req("attempt", uint32)? })
}

/// A note a real run records (serde's internally tagged `{"note": "name", fields…}`).
fn note(v: &Value, path: &str) -> Read<Note> {
    let tag = v.get("note").and_then(Value::as_str).unwrap_or("");
    // Each note's fields, the tag among them.
    let o = |fields: &[&str]| Object::new(v, path, &[&["note"], fields].concat());
    Ok(match tag {
        "acquire_started" => Note::AcquireStarted { attempt: o(&["attempt"])?.req("attempt", uint32)? },
        "acquire_failed" => {
            let o = o(&["attempt", "reason", "retry_in_ms"])?;
            Note::AcquireFailed {
                attempt: o.req("attempt", uint32)?,
                reason: o.req("reason", failure)?,
                retry_in_ms: o.req("retry_in_ms", int)?,
            }
        }
        "belief_started" => {
            let o = o(&["attempt", "token", "validity_ms"])?;
            Note::BeliefStarted {
                attempt: o.req("attempt", uint32)?,
                token: o.opt("token", uint)?,
                validity_ms: o.opt("validity_ms", int)?,
            }
        }
        "belief_ended" => Note::BeliefEnded { reason: o(&["reason"])?.req("reason", belief_end)? },
        "write_sent" => {
            let o = o(&["n", "token"])?;
            Note::WriteSent { n: o.req("n", uint32)?, token: o.opt("token", uint)? }
        }
        "write_timed_out" => Note::WriteTimedOut { n: o(&["n"])?.req("n", uint32)? },
        "release_sent" => o(&[]).map(|_| Note::ReleaseSent)?,
        "finished" => o(&[]).map(|_| Note::Finished)?,
        "started_over" => {
            let o = o(&["incarnation", "predecessor"])?;
            Note::StartedOver { incarnation: o.req("incarnation", uint32)?, predecessor: o.req("predecessor", phase)? }
        }
        "lock_committed" => {
            let o = o(&["client", "attempt", "token", "expires_wall_ms"])?;
            Note::LockCommitted {
                client: o.req("client", node)?,
                attempt: o.req("attempt", uint32)?,
                token: o.opt("token", uint)?,
                expires_wall_ms: o.opt("expires_wall_ms", int)?,
            }
        }
        "version_read" => {
            let o = o(&["client", "attempt", "version"])?;
            Note::VersionRead { client: o.req("client", node)?, attempt: o.req("attempt", uint32)?, version: o.req("version", uint)? }
        }
        "write_applied" => {
            let o = o(&["client", "grant", "token", "accepted", "highest_before"])?;
            Note::WriteApplied {
                client: o.req("client", node)?,
                grant: o.req("grant", grant)?,
                token: o.opt("token", uint)?,
                accepted: o.req("accepted", boolean)?,
                highest_before: o.opt("highest_before", uint)?,
            }
        }
        "lock_expired" => Note::LockExpired { holder: o(&["holder"])?.req("holder", node)? },
        "lock_released" => {
            let o = o(&["holder", "by"])?;
            Note::LockReleased { holder: o.req("holder", node)?, by: o.req("by", node)? }
        }
        "promoted" => Note::Promoted { epoch: o(&["epoch"])?.req("epoch", uint)? },
        "demoted" => {
            let o = o(&["epoch", "primary"])?;
            Note::Demoted { epoch: o.req("epoch", uint)?, primary: o.req("primary", node)? }
        }
        "state_lost" => Note::StateLost { token_counter_was: o(&["token_counter_was"])?.req("token_counter_was", uint)? },
        other => return err(&format!("{path}.note"), format!("`{other}` is not a note a real run records")),
    })
}
