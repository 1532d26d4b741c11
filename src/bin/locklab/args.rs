//! The command line as clap types: every subcommand, flag and help text. Values are checked
//! here by parsers whose messages name what is wrong; `error_text` puts the flag in front, so
//! a bad input reads `--fencing: expected on or off, got "maybe"` on stderr, exit 2.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, CommandFactory, Parser, Subcommand};

use locklab::check::properties::{self, Property};
use locklab::explore::rate::Setting;
use locklab::explore::sweep::Param;
use locklab::explore::table;
use locklab::lesson::{builtin as lessons, Lesson};
use locklab::scenario::limits::MAX_FAULTS;
use locklab::scenario::{catalog, parse, Approach, Scenario};
use locklab::theme::Theme;
use locklab::timeline::draw::export;

/// Run a lock scenario (a file or a built-in) and print its verdict, draw it as an SVG figure,
/// compare it with another approach, or explore its fault space.
#[derive(Parser)]
#[command(name = "locklab", version, args_override_self = true, subcommand_required = true, arg_required_else_help = false)]
#[command(after_help = "Exit status: 0 when the command ran (a scenario's run may be safe or not), 2 for any input error.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run a scenario and print its verdict
    Run {
        #[command(flatten)]
        scenario: ScenarioArgs,
        #[command(flatten)]
        seed: SeedArg,
        /// Print the verdict as JSON
        #[arg(long)]
        json: bool,
        /// Print every event with its caption, one a line
        #[arg(long)]
        trace: bool,
        /// Print the run as a history (docs/HISTORY_FORMAT.md), one JSON object a line
        #[arg(long, conflicts_with_all = ["json", "trace"])]
        history: bool,
    },
    /// Judge a history of your own (JSON lines: acquire, grant, write…; docs/HISTORY_FORMAT.md) and print its verdict
    #[command(after_help = "A bad line is an input error (exit 2) that names the line and the field. Limits: 10 MB, 100,000 lines.")]
    CheckHistory {
        /// The history file (- for standard input)
        file: String,
        /// Print the verdict as JSON
        #[arg(long)]
        json: bool,
        /// Print every event with its caption, one a line
        #[arg(long, conflicts_with = "json")]
        trace: bool,
    },
    /// Draw the run at a moment as a self-contained SVG figure
    Svg(SvgArgs),
    /// Run a scenario and its counterpart on another approach (or a variant of its own), side by side
    Compare {
        #[command(flatten)]
        scenario: ScenarioArgs,
        #[command(flatten)]
        seed: SeedArg,
        /// The approach to compare with
        #[arg(long, value_name = "APPROACH", value_parser = compare_with)]
        with: Option<Approach>,
        /// Instead of another approach: the same one with one of its settings set otherwise
        #[arg(long, value_name = "lock.SETTING=VALUE")]
        set: Option<String>,
        /// Print both verdicts and the comparison as JSON
        #[arg(long)]
        json: bool,
    },
    /// Search a scenario's fault space for counterexamples (or measure the seed's table, or sweep one number)
    #[command(after_help = "Four forms:
  locklab explore (FILE | --builtin ID | --approach NAME) [--fencing on|off] [--faults KIND,…] [--max-faults K] [--property ID] [-o FOUND.json]
      search the scenario's fault space and shrink the worst counterexample found
      (with --property: the first run that shows that property; --properties lists them)
  locklab explore --table [--faults KIND,…] [--max-faults K]
      the seed's table: lost updates and tokens handed out again for every approach, fencing
      off and on, each row at the mix that reveals its claim (or every row at --faults/--max-faults)
  locklab explore --sweep PARAM=FROM..TO [--steps K] [FILE | --builtin ID | --approach NAME] [--fencing on|off]
      the share of lost updates as one number of the fault mix changes
  locklab explore --properties
      the named properties, one a line: id, kind (always, sometimes, eventually), statement
The first three take --runs N, --seed S, --threads T and --json.")]
    // Boxed: its many options would make every other command as large (clippy's large_enum_variant).
    Explore(Box<ExploreArgs>),
    /// Measure how often a scenario loses an update (and has two believers) over N seeds, with a 95% interval; or sweep that rate against a setting
    #[command(
        after_help = "Run i has the scenario's seed + i (`locklab run FILE --seed S+i` replays it). The interval is Wilson's score interval (docs/CLI.md)."
    )]
    Rate(Box<RateArgs>),
    /// Check a lesson file
    #[command(subcommand_required = true, arg_required_else_help = false)]
    Lesson {
        #[command(subcommand)]
        command: LessonCommand,
    },
    /// List the built-in scenarios: id and title, one a line, grouped by approach (then the real outages)
    List,
    /// Serve the app and a room in which a hall votes on a lecture's questions from phones (docs/ROOM.md)
    Room(RoomArgs),
    /// Time every built-in natively
    Bench {
        /// How many times to run each built-in
        #[arg(default_value_t = 200, value_parser = iterations)]
        iterations: usize,
    },
}

/// `locklab room`: where it listens, what it serves, and the address phones are given.
#[derive(Args)]
pub struct RoomArgs {
    /// The port to listen on (0: any free port; the printed addresses name it)
    #[arg(long, value_name = "N", default_value_t = 8080)]
    pub port: u16,
    /// The app's built dist folder (trunk build --release)
    #[arg(long, value_name = "DIR", default_value = "dist")]
    pub dist: std::path::PathBuf,
    /// The address to listen on (default: every interface, so that phones on the network reach it)
    #[arg(long, value_name = "IP", default_value = "0.0.0.0")]
    pub host: std::net::IpAddr,
    /// The server's address as phones and the stage reach it, when not this machine's (a VM behind a proxy or a name)
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
}

/// The scenario a command works on: a FILE or --builtin ID, fencing set either way.
#[derive(Args)]
pub struct ScenarioArgs {
    /// A scenario file (JSON, see docs/SCENARIO_FORMAT.md)
    #[arg(value_name = "FILE")]
    pub file: Option<String>,
    /// A built-in scenario (see `locklab list`)
    #[arg(long, value_name = "ID", value_parser = builtin_scenario)]
    pub builtin: Option<Scenario>,
    /// Turn the storage's fencing-token check on or off
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pub fencing: Option<bool>,
}

/// The scenario's seed (`explore --seed` is the explorer's own).
#[derive(Args)]
pub struct SeedArg {
    /// The scenario's seed
    #[arg(long, value_name = "N", value_parser = seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
}

#[derive(Args)]
pub struct SvgArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub seed: SeedArg,
    /// The cursor's time in ms (default: the end of the run)
    #[arg(long = "at-ms", value_name = "T", value_parser = whole_ms, allow_negative_numbers = true)]
    pub at_ms: Option<i64>,
    /// The lecture stage's look: larger words, fewer of them
    #[arg(long)]
    pub lecture: bool,
    /// The figure's width in px
    #[arg(long, value_name = "PX", value_parser = width, default_value_t = export::FIGURE_WIDTH)]
    pub width: f64,
    /// The colours: light, dark or projector (default: projector for --lecture, --strip and
    /// --animated, which are for a room; light otherwise)
    #[arg(long, value_name = "THEME", value_parser = theme)]
    pub theme: Option<Theme>,
    /// The run's key moments instead, a panel each with its caption, for a slide or a handout
    #[arg(long)]
    pub strip: bool,
    /// The whole run instead, animated with CSS (it plays in an <img>, no script)
    #[arg(long)]
    pub animated: bool,
    /// Where to write the figure (`-` for stdout)
    #[arg(short = 'o', value_name = "OUT.svg")]
    pub out: Option<String>,
}

#[derive(Args)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// The seed's table base of an approach (db-lease, redis, redis-replica, …)
    #[arg(long, value_name = "NAME", value_parser = approach_base)]
    pub approach: Option<Scenario>,
    /// The fault kinds to draw from, comma-separated (default: every kind)
    #[arg(long, value_name = "KIND,…")]
    pub faults: Option<String>,
    /// Each schedule has 1 to K faults
    #[arg(long = "max-faults", value_name = "K", value_parser = max_faults)]
    pub max_faults: Option<usize>,
    /// Schedules per search, table cell or sweep point (default 10,000, 2,000 or 1,000)
    #[arg(long, value_name = "N", value_parser = runs)]
    pub runs: Option<u64>,
    /// The explorer's seed (each schedule draws its own scenario seed from it)
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = seed, allow_negative_numbers = true)]
    pub seed: u64,
    /// Threads to run on (default: every core); the numbers are the same on any count
    #[arg(long, value_name = "T", value_parser = threads)]
    pub threads: Option<usize>,
    /// Print the result as JSON
    #[arg(long)]
    pub json: bool,
    /// Write the shrunk counterexample to this scenario file
    #[arg(short = 'o', value_name = "FOUND.json")]
    pub out: Option<String>,
    /// Measure the seed's table: every approach, fencing off and on
    #[arg(long)]
    pub table: bool,
    /// Sweep one number of the fault mix, PARAM=FROM..TO (pause_ttl, jump_ms, drift_ppm, delay_ms)
    #[arg(long, value_name = "PARAM=FROM..TO", value_parser = sweep)]
    pub sweep: Option<Sweep>,
    /// Points of the sweep, from 2 to 101
    #[arg(long, value_name = "K", default_value_t = 11, value_parser = steps)]
    pub steps: usize,
    /// List the named properties a search can look for, one a line: id, kind, statement
    #[arg(long)]
    pub properties: bool,
    /// Search for runs that show one named property (see --properties) instead of counting classes
    #[arg(long, value_name = "ID", value_parser = property)]
    pub property: Option<&'static Property>,
}

#[derive(Args)]
pub struct RateArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Runs (seeds) per rate: the scenario's seed, seed + 1, …
    #[arg(long, value_name = "N", default_value_t = 1_000, value_parser = rate_runs)]
    pub runs: u64,
    /// The first run's seed (default: the scenario's)
    #[arg(long, value_name = "S", value_parser = seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Threads to run on (default: every core); the numbers are the same on any count
    #[arg(long, value_name = "T", value_parser = threads)]
    pub threads: Option<usize>,
    /// Sweep the rate against a setting, SETTING=FROM..TO (ttl_ms, pause_p99_ms, drift_ppm)
    #[arg(long, value_name = "SETTING=FROM..TO", value_parser = rate_sweep)]
    pub sweep: Option<RateSweep>,
    /// Values of the sweep, from 2 to 101
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = steps)]
    pub steps: usize,
    /// Print the rate (or the sweep's rows) as JSON
    #[arg(long)]
    pub json: bool,
}

/// `rate --sweep SETTING=FROM..TO`.
#[derive(Clone, Copy)]
pub struct RateSweep {
    pub setting: Setting,
    pub from: i64,
    pub to: i64,
}

/// `--sweep PARAM=FROM..TO`.
#[derive(Clone, Copy)]
pub struct Sweep {
    pub param: Param,
    pub from: f64,
    pub to: f64,
}

#[derive(Subcommand)]
pub enum LessonCommand {
    /// Read a lesson with the app's checks and print one line per step: its run, where its cursor lands, what its question reveals
    Check {
        /// A lesson file (JSON, see docs/LESSON_FORMAT.md)
        #[arg(value_name = "FILE")]
        file: Option<String>,
        /// A built-in lesson by its id (a wrong id lists them)
        #[arg(long, value_name = "ID", value_parser = builtin_lesson)]
        builtin: Option<Lesson>,
        /// Every built-in lesson: a table of their questions' choices, right-answer positions and spoilers
        #[arg(long)]
        all: bool,
    },
    /// Write a lesson's printable handout: an HTML page of its steps, its questions with a blank for the answer, and a strip of each story's key moments
    Handout {
        /// A lesson file (JSON, see docs/LESSON_FORMAT.md)
        #[arg(value_name = "FILE")]
        file: Option<String>,
        /// A built-in lesson by its id (a wrong id lists them)
        #[arg(long, value_name = "ID", value_parser = builtin_lesson)]
        builtin: Option<Lesson>,
        /// Where to write the page (`-` for stdout)
        #[arg(short = 'o', value_name = "OUT.html")]
        out: Option<String>,
    },
    /// Write the teacher's guide to the built-in course (docs/TEACHING.md): each lesson's aims, minutes, steps with links, questions and answers
    Guide {
        /// Where to write it (default: stdout)
        #[arg(short = 'o', value_name = "OUT.md")]
        out: Option<String>,
    },
}

impl ScenarioArgs {
    /// The one scenario given (a FILE read and checked now), fencing applied; `cmd` names the
    /// command in the messages.
    pub fn scenario(self, cmd: &str) -> Result<Scenario, String> {
        let mut scenario = match (self.file, self.builtin) {
            (Some(_), Some(_)) => return Err(format!("{cmd}: give one scenario (a FILE or --builtin ID), not two\n{}", usage(cmd))),
            (None, None) => return Err(format!("{cmd}: give a scenario FILE or --builtin ID\n{}", usage(cmd))),
            (None, Some(s)) => s,
            (Some(path), None) => read_scenario(&path)?,
        };
        if let Some(f) = self.fencing {
            scenario.storage.fencing = f;
        }
        Ok(scenario)
    }
}

impl SeedArg {
    pub fn apply(&self, mut scenario: Scenario) -> Scenario {
        if let Some(s) = self.seed {
            scenario.seed = s;
        }
        scenario
    }
}

pub fn read_scenario(path: &str) -> Result<Scenario, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot read: {e}"))?;
    parse(&text).map_err(|e| format!("{path}: {e}"))
}

/// `cmd`'s usage line(s), for a message about how it was called.
pub fn usage(cmd: &str) -> String {
    let mut command = Cli::command();
    let usage = match command.find_subcommand_mut(cmd) {
        Some(sub) => sub.clone().bin_name(format!("locklab {cmd}")).render_usage(),
        None => command.render_usage(),
    };
    format!("{usage}\nFor more information, try 'locklab help {cmd}'.")
}

/// A clap error as the CLI's one message: the flag it is about, then what is wrong.
pub fn error_text(e: &clap::Error) -> String {
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => s.clone(),
        _ => String::new(),
    };
    // "--runs <N>" → "--runs"; "[ITERATIONS]" → "ITERATIONS".
    let arg = context(ContextKind::InvalidArg);
    let flag = arg.split([' ', '=']).next().unwrap_or_default().trim_matches(['[', ']', '<', '>']).to_string();
    let what = match e.kind() {
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(e).map_or_else(String::new, |s| s.to_string());
            format!("{flag}: {why}")
        }
        ErrorKind::InvalidValue if context(ContextKind::InvalidValue).is_empty() => format!("{flag}: missing value"),
        ErrorKind::UnknownArgument if arg.starts_with('-') => format!("unknown flag \"{arg}\""),
        ErrorKind::UnknownArgument => format!("unexpected argument \"{arg}\""),
        ErrorKind::InvalidSubcommand => format!("unknown command \"{}\"", context(ContextKind::InvalidSubcommand)),
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            match context(ContextKind::InvalidSubcommand).strip_prefix("locklab ") {
                Some(parent) => format!("{parent}: missing command"),
                None => "missing command".to_string(),
            }
        }
        _ => {
            let rendered = e.render().to_string();
            rendered.lines().next().unwrap_or_default().trim_start_matches("error: ").to_string()
        }
    };
    match e.get(ContextKind::Usage) {
        Some(ContextValue::StyledStr(usage)) => format!("{what}\n{usage}\nFor more information, try '--help'."),
        _ => what,
    }
}

fn on_off(v: &str) -> Result<bool, String> {
    match v {
        "on" => Ok(true),
        "off" => Ok(false),
        v => Err(format!("expected on or off, got \"{v}\"")),
    }
}

fn theme(v: &str) -> Result<Theme, String> {
    Theme::by_id(v).ok_or_else(|| format!("expected light, dark or projector, got \"{v}\""))
}

fn builtin_scenario(id: &str) -> Result<Scenario, String> {
    catalog::get(id).ok_or_else(|| format!("no built-in scenario \"{id}\" (see `locklab list`)"))
}

fn builtin_lesson(id: &str) -> Result<Lesson, String> {
    lessons::get(id).ok_or_else(|| format!("no built-in lesson \"{id}\" (there are {})", lessons::ids_quoted()))
}

fn compare_with(id: &str) -> Result<Approach, String> {
    locklab::compare::approach_by_id(id).ok_or_else(|| {
        let ids: Vec<&str> = Approach::ALL.iter().map(|a| a.id()).collect();
        format!("unknown approach \"{id}\" (one of {})", ids.join(", "))
    })
}

fn approach_base(id: &str) -> Result<Scenario, String> {
    table::row(id).map(|r| r.base).ok_or_else(|| {
        let ids: Vec<String> = table::rows().into_iter().map(|r| r.id).collect();
        format!("unknown approach \"{id}\" (one of {})", ids.join(", "))
    })
}

fn property(id: &str) -> Result<&'static Property, String> {
    properties::by_id(id).ok_or_else(|| {
        let ids: Vec<&str> = properties::all().iter().map(|p| p.id).collect();
        format!("unknown property \"{id}\" (one of {}; --properties lists them)", ids.join(", "))
    })
}

/// `v` as a number `ok` accepts, or the message saying it is not `what`.
fn number<T: std::str::FromStr>(v: &str, what: &str, ok: impl Fn(&T) -> bool) -> Result<T, String> {
    v.parse().ok().filter(|n| ok(n)).ok_or_else(|| format!("\"{v}\" is not {what}"))
}

fn seed(v: &str) -> Result<u64, String> {
    number(v, "an unsigned 64-bit integer", |_| true)
}

fn whole_ms(v: &str) -> Result<i64, String> {
    number(v, "a whole number of milliseconds", |_| true)
}

/// Narrowest and widest figure `--width` accepts (the diagram's layout needs 300 px).
const WIDTHS: (f64, f64) = (300.0, 8000.0);

fn width(v: &str) -> Result<f64, String> {
    number(v, "", |w| (WIDTHS.0..=WIDTHS.1).contains(w)).map_err(|_| format!("expected {} to {} px, got \"{v}\"", WIDTHS.0, WIDTHS.1))
}

fn max_faults(v: &str) -> Result<usize, String> {
    number(v, &format!("a number of faults from 1 to {MAX_FAULTS}"), |k| (1..=MAX_FAULTS).contains(k))
}

fn runs(v: &str) -> Result<u64, String> {
    number(v, "a number of schedules (1 or more)", |n| *n >= 1)
}

/// At most a million runs a rate: about as many as a minute's work on a laptop's cores for the
/// seed's small scenarios; the interval is already ±0.1% at 1,000,000.
pub const MAX_RATE_RUNS: u64 = 1_000_000;

fn rate_runs(v: &str) -> Result<u64, String> {
    number(v, &format!("a number of runs from 1 to {MAX_RATE_RUNS}"), |n| (1..=MAX_RATE_RUNS).contains(n))
}

fn rate_sweep(v: &str) -> Result<RateSweep, String> {
    let ids: Vec<&str> = Setting::ALL.iter().map(|s| s.id()).collect();
    let bad = || format!("expected SETTING=FROM..TO with SETTING one of {} and whole numbers FROM ≤ TO, got \"{v}\"", ids.join(", "));
    let (setting, range) = v.split_once('=').ok_or_else(bad)?;
    let setting = Setting::by_id(setting).ok_or_else(bad)?;
    let (from, to) = range.split_once("..").ok_or_else(bad)?;
    let (from, to): (i64, i64) = (from.parse().map_err(|_| bad())?, to.parse().map_err(|_| bad())?);
    if from > to {
        return Err(bad());
    }
    Ok(RateSweep { setting, from, to })
}

fn threads(v: &str) -> Result<usize, String> {
    number(v, "a number of threads (1 or more)", |n| *n >= 1)
}

fn steps(v: &str) -> Result<usize, String> {
    number(v, "a number of points from 2 to 101", |n| (2..=101).contains(n))
}

fn iterations(v: &str) -> Result<usize, String> {
    number(v, "a number of iterations", |_| true)
}

fn sweep(v: &str) -> Result<Sweep, String> {
    let ids: Vec<&str> = Param::all().iter().map(|p| p.id()).collect();
    let bad = || format!("expected PARAM=FROM..TO with PARAM one of {}, got \"{v}\"", ids.join(", "));
    let (param, range) = v.split_once('=').ok_or_else(bad)?;
    let param = Param::by_id(param).ok_or_else(bad)?;
    let (from, to) = range.split_once("..").ok_or_else(bad)?;
    let (from, to): (f64, f64) = (from.parse().map_err(|_| bad())?, to.parse().map_err(|_| bad())?);
    if !(from.is_finite() && to.is_finite()) || from > to {
        return Err(bad());
    }
    Ok(Sweep { param, from, to })
}
