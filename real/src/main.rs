//! `locklab-real`: Lock Lab's scenarios on real servers (Redis 7, PostgreSQL 15, etcd 3.4), recorded as a
//! Lock Lab trace, judged by the same `check`, and compared with the model. Also Redlock (N
//! Redis instances), Redisson's watchdog, and conditional writes on PostgreSQL.
//!
//!   locklab-real run (FILE | --builtin ID) [--fencing on|off] [--json] [--scale X] [--trace OUT]
//!   locklab-real compare (FILE | --builtin ID) [--fencing on|off] [--json] [--scale X]
//!   locklab-real record (FILE | --builtin ID) [--fencing on|off] [--scale X] -o FILE
//!
//! `run` exits 0 when the scenario ran; `compare` exits 0 when the verdicts agree, 1 when they
//! do not; both exit 2 on bad input or a scenario the harness refuses (the message names the
//! field or the fault).

mod client;
mod clock;
mod compare;
mod fidelity_doc;
mod harness;
mod http;
mod plan;
mod poller;
mod record;
mod recording;
mod run;
mod servers;
mod services;
mod storage;
mod suite;
mod trace;

use clap::{Args, Parser, Subcommand};
use locklab::scenario::{catalog, Scenario};

#[derive(Parser)]
#[command(name = "locklab-real", about = "Lock Lab's scenarios on real Redis, PostgreSQL, etcd and ZooKeeper, judged by the same check")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario on real servers and print its verdict.
    Run {
        #[command(flatten)]
        scenario: ScenarioArgs,
        /// The verdict JSON (as `locklab run --json` prints it).
        #[arg(long)]
        json: bool,
        /// Also write the recorded trace (JSON) to this file.
        #[arg(long, value_name = "OUT")]
        trace: Option<String>,
    },
    /// Run a scenario on real servers and in the model; exit 0 when the verdicts agree.
    Compare {
        #[command(flatten)]
        scenario: ScenarioArgs,
        #[arg(long)]
        json: bool,
    },
    /// Run a scenario on real servers and write its recording for the app (compact JSON:
    /// the trace, when and on what it ran, the scenario's fingerprint). scripts/record-real.sh
    /// records the built-ins the app shows into src/recorded/recordings/.
    Record {
        #[command(flatten)]
        scenario: ScenarioArgs,
        /// The recording's file.
        #[arg(short = 'o', long = "out", value_name = "FILE")]
        out: String,
    },
    /// The fidelity suite: every case of FILE compared, fencing off and on; exit 0 when all agree.
    Suite {
        /// The suite file (real/cases/suite.txt).
        file: String,
        /// Also write the measured table as Markdown to this file (docs/FIDELITY.md is made from it).
        #[arg(long, value_name = "OUT")]
        markdown: Option<String>,
        /// How many cases run at once, each on servers and ports of its own.
        #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=16))]
        jobs: u16,
    },
    /// A client process (started by the harness; reads its job on stdin).
    #[command(hide = true)]
    Client,
}

#[derive(Args)]
struct ScenarioArgs {
    /// A scenario file (docs/SCENARIO_FORMAT.md).
    file: Option<String>,
    /// A built-in scenario's id (`locklab list`).
    #[arg(long, value_name = "ID")]
    builtin: Option<String>,
    /// Storage's fencing check; compare runs both when not given.
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    fencing: Option<bool>,
    /// Wall ms per scenario ms (default 0.25: a 20 s scenario runs in 5 s).
    #[arg(long, value_name = "X", value_parser = scale)]
    scale: Option<f64>,
}

fn on_off(s: &str) -> Result<bool, String> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("expected on or off, got \"{other}\"")),
    }
}

fn scale(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.05..=10.0).contains(&x) => Ok(x),
        _ => Err(format!("expected a number from 0.05 to 10, got \"{s}\"")),
    }
}

impl ScenarioArgs {
    fn scenario(&self) -> Result<Scenario, String> {
        let mut scenario = match (&self.file, &self.builtin) {
            (Some(_), Some(_)) => return Err("give one scenario (a FILE or --builtin ID), not two".into()),
            (None, None) => return Err("give a scenario FILE or --builtin ID".into()),
            (None, Some(id)) => catalog::get(id).ok_or_else(|| format!("--builtin: no built-in scenario \"{id}\" (see `locklab list`)"))?,
            (Some(path), None) => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
                locklab::scenario::parse(&text).map_err(|e| format!("{path}: {e}"))?
            }
        };
        if let Some(f) = self.fencing {
            scenario.storage.fencing = f;
        }
        plan::schedule(&scenario)?;
        Ok(scenario)
    }
}

fn main() {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Client => client::main().map(|()| 0),
        Command::Run { scenario, json, trace } => run(&scenario, json, trace),
        Command::Compare { scenario, json } => compare(&scenario, json),
        Command::Record { scenario, out } => record(&scenario, &out),
        Command::Suite { file, markdown, jobs } => suite(&file, markdown, jobs as usize),
    };
    match code {
        Ok(code) => std::process::exit(code),
        Err(message) => {
            eprintln!("locklab-real: {message}");
            std::process::exit(2);
        }
    }
}

fn run(args: &ScenarioArgs, json: bool, trace: Option<String>) -> Result<i32, String> {
    let scenario = args.scenario()?;
    let real = run::run(&scenario, args.scale.unwrap_or(plan::DEFAULT_SCALE))?;
    if let Some(path) = trace {
        let text = serde_json::to_string_pretty(&real.trace).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("--trace: cannot write {path}: {e}"))?;
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&real.verdict).map_err(|e| e.to_string())?);
    } else {
        print!("{}", summary(&real));
    }
    Ok(0)
}

/// A short readable verdict of a real run.
fn summary(real: &run::RealRun) -> String {
    let v = &real.verdict;
    let tok = |t: Option<u64>| v.approach.token_label(t);
    let mut out = format!("{} on real servers (fencing {}, scale {})\n", v.id, if v.fencing { "on" } else { "off" }, real.scale);
    out += &format!("verdict: {}\n", if v.safe { "SAFE" } else { "UNSAFE (a stale write was accepted: lost update)" });
    for g in &v.grants {
        out += &format!("  grant  {:>7} ms  {} ({})\n", g.at_ms, g.client, tok(g.token));
    }
    for w in &v.writes {
        let result = if !w.accepted {
            "rejected"
        } else if w.stale {
            "STALE, ACCEPTED"
        } else {
            "accepted"
        };
        out += &format!("  write  {:>7} ms  {} ({}) {result}\n", w.at_ms, w.client, tok(w.token));
    }
    out += &format!(
        "stale writes accepted {}, rejected {}; most concurrent holders {}\n",
        v.stale_writes_accepted, v.stale_writes_rejected, v.max_concurrent_holders
    );
    out
}

fn record(args: &ScenarioArgs, out: &str) -> Result<i32, String> {
    let scenario = args.scenario()?;
    let real = run::run(&scenario, args.scale.unwrap_or(plan::DEFAULT_SCALE))?;
    let recording = recording::recording(&scenario, &real);
    let text = recording::to_json(&recording)?;
    std::fs::write(out, &text).map_err(|e| format!("-o: cannot write {out}: {e}"))?;
    print!("{}", summary(&real));
    let model = locklab::lab::run(&scenario);
    println!("{}", locklab::recorded::agreement(&model.verdict, &real.verdict));
    println!("wrote {out} ({} bytes; {}, {})", text.len(), recording.server, recording.recorded);
    Ok(0)
}

fn compare(args: &ScenarioArgs, json: bool) -> Result<i32, String> {
    let scenario = args.scenario()?;
    let case = suite::Case { source: scenario.id.clone(), scenario, scale: args.scale.unwrap_or(plan::DEFAULT_SCALE) };
    let all = match args.fencing {
        // Fencing off and on side by side, as the suite runs them.
        None => suite::run_case(&case)?,
        Some(_) => {
            let model = locklab::lab::run(&case.scenario);
            vec![compare::compare(&model.verdict, &run::run(&case.scenario, case.scale)?.verdict)]
        }
    };
    if !json {
        all.iter().for_each(|c| print!("{}", compare::render(c)));
    } else {
        println!("{}", serde_json::to_string_pretty(&all).map_err(|e| e.to_string())?);
    }
    Ok(if all.iter().all(|c| c.agree) { 0 } else { 1 })
}

fn suite(file: &str, markdown: Option<String>, jobs: usize) -> Result<i32, String> {
    let cases = suite::read(file)?;
    let load = || {
        std::fs::read_to_string("/proc/loadavg").map_or("unknown".into(), |l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
    };
    let before = load();
    let (results, seconds) = suite::run(&cases, jobs)?;
    let runs: Vec<_> = results.iter().flat_map(|(_, c)| c).collect();
    let agree = runs.iter().filter(|c| c.agree).count();
    println!("fidelity: {agree} of {} runs agree ({} cases, {jobs} at a time), {seconds:.1} s", runs.len(), cases.len());
    if let Some(path) = markdown {
        let doc = fidelity_doc::document(&cases, &suite::markdown(&results, seconds, &cases, jobs), (&before, &load()));
        std::fs::write(&path, doc).map_err(|e| format!("--markdown: cannot write {path}: {e}"))?;
    }
    Ok(if agree == runs.len() { 0 } else { 1 })
}
