//! `spherewalk-cli run SCENE [--steps N] [--trace OUT.jsonl] [--serial] [--max-* N] [--quiet | --json]`: steps a
//! scene file headless, optionally writes the JSON Lines trace of every character after every
//! step, and prints a summary (grounded ratio, deepest penetration, steps per second). The
//! `--max-*` flags raise the scene budget (`SceneOptions`). `spherewalk-cli completions SHELL`
//! prints a shell completion script. The command line is clap's: `--help`, `--version`,
//! `--flag=value`; exit codes 0 done, 1 a bad scene or I/O error, 2 a bad command line.

#![forbid(unsafe_code)]

use clap::{CommandFactory, Parser, Subcommand};
use spherewalk::scene::{self, SceneError, SceneOptions};
use spherewalk::trace::{TraceRecord, TraceWriter, records};
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Most steps one run accepts.
const MAX_STEPS: u64 = 100_000_000;

/// Steps spherewalk scene files headless: traces, summaries and shell completions.
#[derive(Debug, Parser)]
#[command(name = "spherewalk-cli", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Steps a scene file headless, writes its trace when asked, and prints a summary.
    Run(RunArgs),
    /// Prints a shell completion script for this tool to stdout.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
}

/// The `run` command line.
#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The scene file (RON).
    #[arg(value_name = "SCENE.ron")]
    scene: PathBuf,
    /// Fixed steps to run.
    #[arg(long, default_value_t = 600, value_parser = steps)]
    steps: u64,
    /// Writes one JSON object per character per step to this file.
    #[arg(long, value_name = "OUT.jsonl")]
    trace: Option<PathBuf>,
    /// Steps characters on one thread (the results are identical).
    #[arg(long)]
    serial: bool,
    /// Scene budget: most colliders [default: 100000].
    #[arg(long, value_name = "N")]
    max_colliders: Option<u64>,
    /// Scene budget: most heightfield and mesh triangles [default: 4000000].
    #[arg(long, value_name = "N")]
    max_triangles: Option<u64>,
    /// Scene budget: most characters [default: 20000].
    #[arg(long, value_name = "N")]
    max_characters: Option<u64>,
    /// Scene budget: densest crowd on a sphere, per m² (`inf`: no limit) [default: 1].
    #[arg(long, value_name = "X", value_parser = density)]
    max_characters_per_m2: Option<f64>,
    /// Prints nothing but errors: no progress bar, no summary.
    #[arg(long, short, conflicts_with = "json")]
    quiet: bool,
    /// Prints the summary as one JSON object instead of text, for scripts.
    #[arg(long)]
    json: bool,
}

/// A step count: a whole number in 1..=[`MAX_STEPS`].
fn steps(value: &str) -> Result<u64, String> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| (1..=MAX_STEPS).contains(n))
        .ok_or_else(|| format!("wants 1..={MAX_STEPS}, got `{value}`"))
}

/// A crowd density limit: a number >= 0, or `inf`.
fn density(value: &str) -> Result<f64, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|x| *x >= 0.0)
        .ok_or_else(|| format!("wants a number >= 0 (or inf), got `{value}`"))
}

/// What went wrong running a scene; exit code 1 (command-line errors are clap's, code 2).
#[derive(Debug, Error)]
enum CliError {
    #[error(transparent)]
    Scene(#[from] SceneError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A checked `run`: the arguments and the scene budget they give.
#[derive(Debug)]
struct Run {
    scene: PathBuf,
    steps: u64,
    trace: Option<PathBuf>,
    serial: bool,
    quiet: bool,
    json: bool,
    /// The scene budget, the defaults raised (or lowered) by the `--max-*` flags.
    options: SceneOptions,
}

impl From<RunArgs> for Run {
    fn from(a: RunArgs) -> Self {
        let d = SceneOptions::default();
        Self {
            options: {
                let mut v = SceneOptions::default();
                v.max_colliders = a.max_colliders.unwrap_or(d.max_colliders);
                v.max_triangles = a.max_triangles.unwrap_or(d.max_triangles);
                v.max_characters = a.max_characters.unwrap_or(d.max_characters);
                v.max_characters_per_m2 =
                    a.max_characters_per_m2.unwrap_or(d.max_characters_per_m2);
                v
            },
            scene: a.scene,
            steps: a.steps,
            trace: a.trace,
            serial: a.serial,
            quiet: a.quiet,
            json: a.json,
        }
    }
}

/// What the run measured.
#[derive(Default)]
struct Summary {
    characters: usize,
    records: u64,
    grounded: u64,
    deepest: Option<TraceRecord>,
    stepping: Duration,
}

impl Summary {
    fn add(&mut self, rows: &[TraceRecord]) {
        self.characters = rows.len();
        for row in rows {
            self.records += 1;
            self.grounded += u64::from(row.grounded);
            let deeper = self
                .deepest
                .as_ref()
                .is_none_or(|d| row.max_penetration > d.max_penetration);
            if deeper {
                self.deepest = Some(row.clone());
            }
        }
    }
}

/// A one-line progress bar on stderr, drawn only when stderr is a terminal and the run is
/// long enough to need one.
struct Progress {
    total: u64,
    shown: Option<u64>,
    start: Instant,
    enabled: bool,
}

impl Progress {
    fn new(total: u64, wanted: bool) -> Self {
        Self {
            total,
            shown: None,
            start: Instant::now(),
            enabled: wanted && std::io::stderr().is_terminal(),
        }
    }

    fn update(&mut self, done: u64) {
        // Quiet for the first half second: short runs need no bar.
        if !self.enabled || self.start.elapsed() < Duration::from_millis(500) {
            return;
        }
        let percent = done * 100 / self.total.max(1);
        if self.shown == Some(percent) {
            return;
        }
        self.shown = Some(percent);
        let filled = (percent / 4) as usize;
        eprint!(
            "\r[{}{}] {percent:3}% {done}/{} steps",
            "#".repeat(filled),
            " ".repeat(25 - filled),
            self.total
        );
    }

    fn finish(&self) {
        if self.shown.is_some() {
            eprintln!();
        }
    }
}

fn io_err(path: &std::path::Path) -> impl FnOnce(std::io::Error) -> CliError + '_ {
    move |source| CliError::Io {
        path: path.to_owned(),
        source,
    }
}

fn run(run: &Run) -> Result<(), CliError> {
    let mut scene = scene::load_with(&run.scene, &run.options)?;
    scene.sim.parallel = !run.serial;
    let mut trace = match &run.trace {
        Some(path) => Some(TraceWriter::new(BufWriter::new(
            File::create(path).map_err(io_err(path))?,
        ))),
        None => None,
    };
    let mut summary = Summary::default();
    let mut rows = Vec::new();
    let mut progress = Progress::new(run.steps, !run.quiet);
    for done in 1..=run.steps {
        let start = Instant::now();
        scene.sim.step();
        summary.stepping += start.elapsed();
        match (&mut trace, &run.trace) {
            (Some(writer), Some(path)) => {
                let written = writer.write_step(&scene.sim).map_err(io_err(path))?;
                summary.add(written);
            }
            _ => {
                rows.clear();
                records(&scene.sim, &mut rows);
                summary.add(&rows);
            }
        }
        progress.update(done);
    }
    progress.finish();
    if let (Some(writer), Some(path)) = (trace, &run.trace) {
        writer.finish().map_err(io_err(path))?;
    }
    if run.json {
        println!(
            "{}",
            json_summary(&scene.name, run, &summary, scene.sim.dt())
        );
    } else if !run.quiet {
        print_summary(&scene.name, run, &summary, scene.sim.dt());
    }
    Ok(())
}

/// The summary as one JSON object: the same figures as the text, in SI units.
fn json_summary(name: &str, run: &Run, s: &Summary, dt: f32) -> serde_json::Value {
    let seconds = s.stepping.as_secs_f64().max(1e-9);
    let steps = run.steps as f64;
    serde_json::json!({
        "scene": name,
        "path": run.scene.display().to_string(),
        "steps": run.steps,
        "dt": dt,
        "characters": s.characters,
        "grounded_ratio": s.grounded as f64 / (s.records.max(1)) as f64,
        "max_penetration": s.deepest.as_ref().map(|d| d.max_penetration),
        "max_penetration_character": s.deepest.as_ref().map(|d| d.character.clone()),
        "max_penetration_step": s.deepest.as_ref().map(|d| d.step),
        "steps_per_second": steps / seconds,
        "stepping_seconds": seconds,
        "parallel": !run.serial,
        "trace": run.trace.as_ref().map(|p| p.display().to_string()),
    })
}

fn print_summary(name: &str, run: &Run, s: &Summary, dt: f32) {
    let seconds = s.stepping.as_secs_f64().max(1e-9);
    let steps = run.steps as f64;
    println!("scene          {name} ({})", run.scene.display());
    println!(
        "steps          {} x {:.4} s = {:.2} s simulated, {} characters",
        run.steps,
        dt,
        steps * f64::from(dt),
        s.characters
    );
    let ratio = s.grounded as f64 / (s.records.max(1)) as f64;
    println!("grounded       {:.1} % of character-steps", 100.0 * ratio);
    match &s.deepest {
        Some(d) => println!(
            "penetration    {:.3} mm deepest ({} at step {})",
            1000.0 * d.max_penetration,
            d.character,
            d.step
        ),
        None => println!("penetration    no characters"),
    }
    println!(
        "speed          {:.0} steps/s, {:.0} character-steps/s ({}, {:.3} s stepping)",
        steps / seconds,
        steps * s.characters as f64 / seconds,
        if run.serial { "serial" } else { "parallel" },
        seconds
    );
    if let Some(path) = &run.trace {
        println!("trace          {}", path.display());
    }
}

fn main() -> ExitCode {
    // Usage errors exit 2 and --help/--version 0, as clap does.
    let cli = Cli::parse();
    let run_args = match cli.command {
        Command::Run(a) => Run::from(a),
        Command::Completions { shell } => {
            let mut command = Cli::command();
            clap_complete::generate(
                shell,
                &mut command,
                "spherewalk-cli",
                &mut std::io::stdout(),
            );
            return ExitCode::SUCCESS;
        }
    };
    match run(&run_args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let message = match &e {
                // A bad scene shows its line with a caret: the file is read again by the
                // loader's own rule (regular files of sane size, never a FIFO or a device).
                CliError::Scene(scene) => {
                    let text = scene::read_scene_text(&run_args.scene).ok();
                    let mut message = scene.report(text.as_deref());
                    if let SceneError::OverBudget { excess, .. } = scene {
                        let flag = excess.option().replace('_', "-");
                        message.push_str(&format!("\n  = help: `--{flag}` raises it for this run"));
                    }
                    message
                }
                other => format!("error: {other}"),
            };
            let _ = writeln!(std::io::stderr(), "spherewalk-cli: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses a `run` command line (without the program name).
    fn parse(args: &[String]) -> Result<Run, clap::Error> {
        let argv = std::iter::once("spherewalk-cli".to_owned()).chain(args.iter().cloned());
        match Cli::try_parse_from(argv)?.command {
            Command::Run(a) => Ok(a.into()),
            Command::Completions { .. } => {
                Err(clap::Error::new(clap::error::ErrorKind::InvalidSubcommand))
            }
        }
    }

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn parses_the_documented_command_line() {
        let r = parse(&args(
            "run scenes/planet.ron --steps 120 --trace out.jsonl --serial",
        ))
        .expect("valid");
        assert_eq!(r.scene, PathBuf::from("scenes/planet.ron"));
        assert_eq!(r.steps, 120);
        assert_eq!(r.trace, Some(PathBuf::from("out.jsonl")));
        assert!(r.serial);
        let r = parse(&args("run a.ron")).expect("valid");
        assert_eq!((r.steps, r.trace, r.serial), (600, None, false));
    }

    #[test]
    fn budget_flags_raise_the_scene_options() {
        let r = parse(&args(
            "run a.ron --max-colliders 200000 --max-triangles 5 --max-characters 30000 \
             --max-characters-per-m2 2.5",
        ))
        .expect("valid");
        let expected = {
            let mut v = SceneOptions::default();
            v.max_colliders = 200_000;
            v.max_triangles = 5;
            v.max_characters = 30_000;
            v.max_characters_per_m2 = 2.5;
            v
        };
        assert_eq!(r.options, expected);
        let r = parse(&args("run a.ron --max-characters-per-m2 inf")).expect("valid");
        assert_eq!(r.options.max_characters_per_m2, f64::INFINITY);
        assert_eq!(r.options.max_colliders, 100_000);
    }

    #[test]
    fn refuses_bad_command_lines_with_usage_errors() {
        for line in [
            "",
            "walk a.ron",
            "run",
            "run a.ron --steps",
            "run a.ron --steps 0",
            "run a.ron --steps -5",
            "run a.ron --steps NaN",
            "run a.ron --bogus",
            "run a.ron b.ron",
            "run a.ron --max-colliders",
            "run a.ron --max-colliders -1",
            "run a.ron --max-triangles 1e6",
            "run a.ron --max-characters many",
            "run a.ron --max-characters-per-m2",
            "run a.ron --max-characters-per-m2 -1",
            "run a.ron --max-characters-per-m2 NaN",
        ] {
            assert!(parse(&args(line)).is_err(), "accepted `{line}`");
        }
    }
}
