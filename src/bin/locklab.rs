//! `locklab`: run a scenario file or a built-in and print its verdict (docs/SCENARIO_FORMAT.md,
//! "The CLI"), draw it as an SVG figure, or explore its fault space (explore.rs). Exit 0 when
//! the scenario ran (safe or not), 2 for any input error; `locklab help` lists the commands.

// Files beside this one would be taken for binaries of their own (src/bin/*.rs). Cargo also
// builds this binary for the wasm32 browser tests; the CLI (clap, and rayon for exploring) is
// native only, so there it is an empty main rather than the tests' build broken.
#[cfg(not(target_arch = "wasm32"))]
#[path = "locklab/args.rs"]
mod args;
#[cfg(not(target_arch = "wasm32"))]
#[path = "locklab/commands.rs"]
mod commands;
#[cfg(not(target_arch = "wasm32"))]
#[path = "locklab/explore.rs"]
mod explore;
#[cfg(not(target_arch = "wasm32"))]
#[path = "locklab/lesson.rs"]
mod lesson;
#[cfg(not(target_arch = "wasm32"))]
#[path = "locklab/rate.rs"]
mod rate;
#[cfg(not(target_arch = "wasm32"))]
#[path = "locklab/room.rs"]
mod room;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::Parser;
    use std::process::ExitCode;

    let result = match args::Cli::try_parse() {
        Ok(cli) => commands::dispatch(cli.command),
        // --help, help CMD and --version: printed on stdout, exit 0.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => Err(args::error_text(&e)),
    };
    match result {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("locklab: {message}");
            ExitCode::from(2)
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
