//! The room under a hall's load, on loopback (issue 36: "500 simulated phones, p95
//! vote-to-stage < 500 ms, no vote lost or counted twice, a voter who reconnects keeps one
//! vote"). Every phone connects and says hello; for each question the stage announces, all of
//! them vote at once; every fifth drops its socket, reconnects with its id, hears its vote back,
//! and votes again (half the same choice, half another). A vote's latency is from its send to
//! the first counts the stage receives that include it (`voted.seq`).
//!
//! `quick` runs in the test suite (500 phones, one question, a few seconds); `full` is run by
//! hand (`cargo test -p locklab-room --test load -- --ignored --nocapture`) and writes
//! its figures to target/tmp/room-load.json, from which docs/measured/room.json is copied.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use common::*;

const CHOICES: usize = 4;

struct Plan {
    phones: usize,
    questions: usize,
    /// Every this many phones reconnect once per question and vote again.
    reconnect_every: usize,
}

#[derive(Debug, Default)]
struct Figures {
    phones: usize,
    questions: usize,
    votes_sent: usize,
    /// Votes that changed the count (a first vote, or one moved to another choice).
    votes_counted: usize,
    /// Votes for the choice the phone had already voted for: counted once, not again.
    repeats: usize,
    reconnects: usize,
    /// Reconnected phones that heard their vote back.
    kept_after_reconnect: usize,
    lost: u64,
    duplicates: u64,
    latencies_ms: Vec<f64>,
    seconds: f64,
}

/// What the stage received: when, which question, the counts and their seq.
type StageLog = Arc<Mutex<Vec<(Instant, u64, u64, Vec<u32>)>>>;

/// One phone's votes on one question: (sent at, seq, counted) each, and its last choice.
struct PhoneVotes {
    votes: Vec<(Instant, u64, bool)>,
    last: usize,
    reconnected: bool,
    kept: bool,
}

/// Raises this process's open-file limit to its hard limit: each phone is a socket at both
/// ends, and a default soft limit of 1024 would refuse the 500th.
fn more_files() {
    // SAFETY: getrlimit/setrlimit read and write a plain struct owned here.
    unsafe {
        let mut l = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut l) == 0 && l.rlim_cur < l.rlim_max {
            l.rlim_cur = l.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &l);
        }
    }
}

/// Reads until the question `step` shows, then returns it.
async fn until_question(ws: &mut Ws, step: usize) -> Value {
    loop {
        let v = recv(ws).await;
        if v["type"] == "question" && v["step"] == step {
            return v;
        }
    }
}

/// Sends a vote and waits for its acknowledgement: (sent at, seq).
async fn vote(ws: &mut Ws, step: usize, choice: usize) -> (Instant, u64) {
    let sent = Instant::now();
    send(ws, json!({"type": "vote", "lesson": "clocks", "step": step, "choice": choice})).await;
    let v = recv_type(ws, "voted").await;
    (sent, v["seq"].as_u64().unwrap())
}

/// One phone's turn at question `step`: vote, maybe reconnect and vote again.
async fn phone_turn(s: &Server, mut ws: Ws, i: usize, step: usize, plan: &Plan) -> (Ws, PhoneVotes) {
    let id = format!("phone-{i:05}");
    until_question(&mut ws, step).await;
    let first = (i + step) % CHOICES;
    let (t, seq) = vote(&mut ws, step, first).await;
    let mut out = PhoneVotes { votes: vec![(t, seq, true)], last: first, reconnected: false, kept: false };
    if i % plan.reconnect_every == 0 {
        ws.close(None).await.ok();
        let (mut again, hello) = voter(s, &id).await;
        out.reconnected = true;
        out.kept = hello["yours"] == first;
        let second = if i % (2 * plan.reconnect_every) == 0 { first } else { (first + 1) % CHOICES };
        let (t, seq) = vote(&mut again, step, second).await;
        out.votes.push((t, seq, second != first));
        out.last = second;
        ws = again;
    }
    (ws, out)
}

async fn load(plan: Plan) -> Figures {
    more_files();
    let started = Instant::now();
    let s = start().await;
    let (mut stage_tx, mut stage_rx) = stage(&s).await.split();
    let log: StageLog = Arc::default();
    let reader = {
        let log = log.clone();
        tokio::spawn(async move {
            while let Some(Ok(m)) = stage_rx.next().await {
                let Message::Text(t) = m else { continue };
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == "counts" {
                    let counts = v["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap() as u32).collect();
                    log.lock().unwrap().push((Instant::now(), v["step"].as_u64().unwrap(), v["seq"].as_u64().unwrap(), counts));
                }
            }
        })
    };
    let s = Arc::new(s);
    // Every phone connects and says hello (no question yet: each hears "idle").
    let mut phones: Vec<Ws> = futures_util::future::join_all((0..plan.phones).map(|i| {
        let s = s.clone();
        async move {
            let (ws, first) = voter(&s, &format!("phone-{i:05}")).await;
            assert_eq!(first["type"], "idle");
            ws
        }
    }))
    .await;
    let plan = Arc::new(plan);
    let mut f = Figures { phones: plan.phones, questions: plan.questions, ..Figures::default() };
    for step in 0..plan.questions {
        let q = question(step, CHOICES);
        stage_tx.send(Message::Text(q.to_string().into())).await.unwrap();
        let turns = futures_util::future::join_all(phones.into_iter().enumerate().map(|(i, ws)| {
            let (s, plan) = (s.clone(), plan.clone());
            tokio::spawn(async move { phone_turn(&s, ws, i, step, &plan).await })
        }))
        .await;
        let mut expected = vec![0u32; CHOICES];
        let mut last_seq = 0;
        phones = Vec::new();
        for turn in turns {
            let (ws, p) = turn.unwrap();
            phones.push(ws);
            expected[p.last] += 1;
            f.reconnects += p.reconnected as usize;
            f.kept_after_reconnect += p.kept as usize;
            for (sent, seq, counted) in p.votes {
                f.votes_sent += 1;
                last_seq = last_seq.max(seq);
                if counted {
                    f.votes_counted += 1;
                    f.latencies_ms.push(stage_latency(&log, sent, seq).await);
                } else {
                    f.repeats += 1;
                }
            }
        }
        // The stage's last counts of this question against each phone's last vote.
        let got = log.lock().unwrap().iter().rev().find(|e| e.1 == step as u64 && e.2 >= last_seq).map(|e| e.3.clone()).unwrap();
        for (g, e) in got.iter().zip(&expected) {
            f.lost += u64::from(e.saturating_sub(*g));
            f.duplicates += u64::from(g.saturating_sub(*e));
        }
    }
    reader.abort();
    f.seconds = started.elapsed().as_secs_f64();
    f
}

/// From `sent` to the first counts the stage received that include seq `seq` (waiting for
/// them up to 10 s).
async fn stage_latency(log: &StageLog, sent: Instant, seq: u64) -> f64 {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(at) = log.lock().unwrap().iter().find(|e| e.2 >= seq).map(|e| e.0) {
            return at.saturating_duration_since(sent).as_secs_f64() * 1000.0;
        }
        assert!(Instant::now() < until, "the stage never saw seq {seq}");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// The value at quantile `q` (nearest rank) of `xs`.
fn quantile(xs: &[f64], q: f64) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1]
}

fn figures_json(f: &Figures) -> Value {
    let r = |x: f64| (x * 10.0).round() / 10.0;
    json!({
        "phones": f.phones,
        "questions": f.questions,
        "votes_sent": f.votes_sent,
        "votes_counted": f.votes_counted,
        "repeat_votes_counted_once": f.repeats,
        "reconnects": f.reconnects,
        "reconnected_phones_that_kept_their_vote": f.kept_after_reconnect,
        "lost": f.lost,
        "counted_twice": f.duplicates,
        "vote_to_stage_ms": {
            "p50": r(quantile(&f.latencies_ms, 0.5)),
            "p95": r(quantile(&f.latencies_ms, 0.95)),
            "max": r(quantile(&f.latencies_ms, 1.0)),
        },
        "seconds": r(f.seconds),
    })
}

fn assert_held(f: &Figures) {
    let p95 = quantile(&f.latencies_ms, 0.95);
    assert!(p95 < 500.0, "p95 vote-to-stage {p95:.1} ms is over 500 ms: {}", figures_json(f));
    assert_eq!((f.lost, f.duplicates), (0, 0), "no vote lost or counted twice: {}", figures_json(f));
    assert_eq!(f.kept_after_reconnect, f.reconnects, "every phone that reconnected kept its vote");
    assert_eq!(f.reconnects, f.questions * f.phones.div_ceil(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick() {
    let f = load(Plan { phones: 500, questions: 1, reconnect_every: 5 }).await;
    println!("{}", figures_json(&f));
    assert_held(&f);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "the full figures, by hand: docs/measured/room.json"]
async fn full() {
    let f = load(Plan { phones: 500, questions: 5, reconnect_every: 5 }).await;
    let out = figures_json(&f);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("room-load.json");
    std::fs::write(&path, serde_json::to_string_pretty(&out).unwrap()).unwrap();
    println!("{out}\n(written to {})", path.display());
    assert_held(&f);
}
