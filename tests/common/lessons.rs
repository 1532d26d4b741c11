//! Reading a lesson's runs, for the suites that check what lessons say against them
//! (tests/course.rs, tests/in_the_wild.rs): a step with its run and timeline worked out once,
//! and the helpers those checks share.

use locklab::check::Grant;
use locklab::lab::{self, Run};
use locklab::lesson::{builtin, locate, At, Lesson};
use locklab::protocols::{Msg, Note};
use locklab::scenario::Scenario;
use locklab::sim::EventKind;
use locklab::timeline::{KeyKind, Timeline};

/// One step of a lesson, its run worked out once.
pub struct Step<'a> {
    pub lesson: &'a Lesson,
    pub i: usize,
    pub run: Run,
    pub timeline: Timeline,
}

impl<'a> Step<'a> {
    pub fn new(lesson: &'a Lesson, i: usize) -> Step<'a> {
        let run = lesson.steps[i].run().unwrap();
        let timeline = Timeline::of_run(&run);
        Step { lesson, i, run, timeline }
    }
    pub fn text(&self) -> &str {
        &self.lesson.steps[self.i].text
    }
    /// The step's text, or its question, says each of `words` (numbers as the room hears them).
    pub fn says(&self, words: &[&str]) {
        let step = &self.lesson.steps[self.i];
        let q = step.question.iter().flat_map(|q| std::iter::once(&q.prompt).chain(&q.choices));
        let all: Vec<&str> = std::iter::once(&step.text).chain(q).map(String::as_str).collect();
        for w in words {
            assert!(all.iter().any(|t| t.contains(w)), "{} step {}: the step does not say {w:?}", self.lesson.id, self.i);
        }
    }
    pub fn s(&self) -> &Scenario {
        &self.run.scenario
    }
    pub fn ms(&self, at: At) -> i64 {
        locate(at, &self.timeline).unwrap().ms
    }
    pub fn at(&self) -> i64 {
        self.ms(self.lesson.steps[self.i].at)
    }
    pub fn reveal(&self) -> i64 {
        self.ms(self.lesson.steps[self.i].question.as_ref().unwrap().reveal_at)
    }
    pub fn name(&self, node: usize) -> &str {
        self.run.trace.name(node)
    }
    /// Every protocol note: (time, node, note).
    pub fn notes(&self) -> impl Iterator<Item = (i64, &str, &Note)> + '_ {
        self.run.trace.events.iter().filter_map(|e| match &e.kind {
            EventKind::Note(n) => Some((e.at_ms, self.name(e.node), n)),
            _ => None,
        })
    }
    /// Every message sent: (time, from, to, message).
    pub fn sent(&self) -> impl Iterator<Item = (i64, &str, &str, &Msg)> + '_ {
        self.run.trace.events.iter().filter_map(|e| match &e.kind {
            EventKind::Sent { to, msg, .. } => Some((e.at_ms, self.name(e.node), self.name(*to), msg)),
            _ => None,
        })
    }
    pub fn grants(&self, client: &str) -> Vec<&Grant> {
        self.run.verdict.grants.iter().filter(|g| g.client == client).collect()
    }
    pub fn grant(&self, client: &str) -> &Grant {
        self.grants(client).into_iter().next().unwrap_or_else(|| panic!("step {}: {client} never gets the lock", self.i))
    }
    /// When `client` came to believe it holds the lock, and when that belief ended (None: never).
    pub fn beliefs(&self, client: &str) -> Vec<(i64, Option<i64>)> {
        let mut out: Vec<(i64, Option<i64>)> = Vec::new();
        for (at, node, n) in self.notes().filter(|(_, node, _)| *node == client) {
            let _ = node;
            match n {
                Note::BeliefStarted { .. } => out.push((at, None)),
                Note::BeliefEnded { .. } => out.last_mut().unwrap().1 = Some(at),
                _ => {}
            }
        }
        out
    }
    pub fn believes_at(&self, client: &str, ms: i64) -> bool {
        self.beliefs(client).iter().any(|&(from, to)| from <= ms && to.is_none_or(|t| t > ms))
    }
    /// The first time `client`'s note matching `f` happened.
    pub fn first_note(&self, node: &str, f: impl Fn(&Note) -> bool) -> i64 {
        self.notes()
            .find(|(_, n, note)| *n == node && f(note))
            .map(|(at, ..)| at)
            .unwrap_or_else(|| panic!("step {}: no such note of {node}", self.i))
    }
    pub fn released_at(&self, client: &str) -> i64 {
        self.first_note(client, |n| matches!(n, Note::ReleaseSent))
    }
    /// The servers where `client`'s lock was committed before `ms`.
    pub fn committed_on(&self, client: &str, until: i64) -> Vec<&str> {
        let id = self.node(client);
        self.notes()
            .filter(|(at, _, n)| *at <= until && matches!(n, Note::LockCommitted { client: c, .. } if *c == id))
            .map(|(_, node, _)| node)
            .collect()
    }
    pub fn node(&self, name: &str) -> usize {
        self.run.trace.nodes.iter().position(|n| n.name == name).unwrap_or_else(|| panic!("no node {name}"))
    }
    /// Lock expiries at servers: (time, server, holder).
    pub fn expiries(&self) -> Vec<(i64, &str, &str)> {
        self.notes()
            .filter_map(|(at, node, n)| match n {
                Note::LockExpired { holder } => Some((at, node, self.name(*holder))),
                _ => None,
            })
            .collect()
    }
    pub fn stale_writers(&self) -> Vec<&str> {
        self.run.verdict.writes.iter().filter(|w| w.stale && w.accepted).map(|w| w.client.as_str()).collect()
    }
    pub fn has_moment(&self, kind: KeyKind) -> bool {
        self.timeline.key_moments.iter().any(|k| k.kind == kind)
    }
    /// The scenario's faults as JSON objects (kind, node, by_ms, ppm, …).
    pub fn faults(&self) -> Vec<serde_json::Value> {
        serde_json::to_value(self.s()).unwrap()["faults"].as_array().cloned().unwrap_or_default()
    }
    pub fn fault_kinds(&self) -> Vec<String> {
        self.faults().iter().map(|f| f["kind"].as_str().unwrap().to_string()).collect()
    }
    pub fn client(&self, name: &str) -> &locklab::scenario::ClientSpec {
        self.s().clients.iter().find(|c| c.name == name).unwrap()
    }
    /// The text's claim of a time, "10.3 s": `ms` to one decimal of a second.
    pub fn says_secs(&self, ms: i64) {
        let s = format!("{}.{} s", ms / 1000, (ms % 1000 + 50) / 100);
        self.says(&[s.as_str()]);
    }
}

pub fn lesson(id: &str) -> Lesson {
    builtin::get(id).unwrap_or_else(|| panic!("no built-in lesson {id}"))
}

pub fn fault(s: &Step, kind: &str) -> serde_json::Value {
    s.faults().into_iter().find(|f| f["kind"] == kind).unwrap_or_else(|| panic!("step {}: no {kind} fault", s.i))
}

pub fn run_with(s: &Scenario, change: impl FnOnce(&mut Scenario)) -> Run {
    let mut s = s.clone();
    change(&mut s);
    lab::run(&s)
}

/// Runs `check` on every step of lesson `id`; it must know every step.
pub fn checks(id: &str, check: fn(&Step)) {
    let l = lesson(id);
    for i in 0..l.steps.len() {
        check(&Step::new(&l, i));
    }
}
