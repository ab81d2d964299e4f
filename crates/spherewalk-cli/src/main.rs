//! `spherewalk-cli run SCENE [--steps N] [--trace OUT.jsonl] [--serial] [--max-* N]`: steps a
//! scene file headless, optionally writes the JSON Lines trace of every character after every
//! step, and prints a summary (grounded ratio, deepest penetration, steps per second). The
//! `--max-*` flags raise the scene budget (`SceneOptions`).

#![forbid(unsafe_code)]

use spherewalk::scene::{self, SceneError, SceneOptions};
use spherewalk::trace::{TraceRecord, TraceWriter, records};
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use thiserror::Error;

const USAGE: &str = "usage: spherewalk-cli run SCENE.ron [--steps N] [--trace OUT.jsonl] [--serial]
                         [--max-colliders N] [--max-triangles N] [--max-characters N]
                         [--max-characters-per-m2 X]

  --steps N          fixed steps to run (default 600)
  --trace OUT.jsonl  write one JSON object per character per step
  --serial           step characters on one thread (results are identical)
  --max-colliders N  scene budget: most colliders (default 100000)
  --max-triangles N  scene budget: most heightfield and mesh triangles (default 4000000)
  --max-characters N scene budget: most characters (default 20000)
  --max-characters-per-m2 X
                     scene budget: densest crowd on a sphere, per m² (default 1)";

/// Most steps one run accepts.
const MAX_STEPS: u64 = 100_000_000;

/// What went wrong, for the message and the exit code.
#[derive(Debug, Error)]
enum CliError {
    #[error("{0}\n\n{USAGE}")]
    Usage(String),
    #[error(transparent)]
    Scene(#[from] SceneError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// A parsed `run` command line.
#[derive(Debug)]
struct Run {
    scene: PathBuf,
    steps: u64,
    trace: Option<PathBuf>,
    serial: bool,
    /// The scene budget, the defaults raised (or lowered) by the `--max-*` flags.
    options: SceneOptions,
}

/// The value of a `--max-*` count flag: a whole number.
fn count_flag(flag: &str, value: Option<&String>) -> Result<u64, CliError> {
    let value = value.ok_or_else(|| CliError::Usage(format!("{flag} needs a number")))?;
    value
        .parse()
        .map_err(|_| CliError::Usage(format!("{flag} wants a whole number, got `{value}`")))
}

fn parse(args: &[String]) -> Result<Run, CliError> {
    let usage = |m: &str| CliError::Usage(m.to_owned());
    let (command, rest) = args
        .split_first()
        .ok_or_else(|| usage("no command given"))?;
    if command != "run" {
        return Err(usage(&format!("unknown command `{command}`")));
    }
    let mut run = Run {
        scene: PathBuf::new(),
        steps: 600,
        trace: None,
        serial: false,
        options: SceneOptions::default(),
    };
    let mut scene = None;
    let mut it = rest.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--steps" => {
                let value = it.next().ok_or_else(|| usage("--steps needs a number"))?;
                run.steps = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=MAX_STEPS).contains(n))
                    .ok_or_else(|| {
                        usage(&format!("--steps wants 1..={MAX_STEPS}, got `{value}`"))
                    })?;
            }
            "--trace" => {
                let value = it.next().ok_or_else(|| usage("--trace needs a file"))?;
                run.trace = Some(PathBuf::from(value));
            }
            "--serial" => run.serial = true,
            "--max-colliders" => run.options.max_colliders = count_flag(arg, it.next())?,
            "--max-triangles" => run.options.max_triangles = count_flag(arg, it.next())?,
            "--max-characters" => run.options.max_characters = count_flag(arg, it.next())?,
            "--max-characters-per-m2" => {
                let value = it
                    .next()
                    .ok_or_else(|| usage("--max-characters-per-m2 needs a number"))?;
                run.options.max_characters_per_m2 = value
                    .parse()
                    .ok()
                    .filter(|x: &f64| *x >= 0.0)
                    .ok_or_else(|| {
                        usage(&format!(
                            "--max-characters-per-m2 wants a number >= 0 (or inf), got `{value}`"
                        ))
                    })?;
            }
            "-h" | "--help" => return Err(usage("")),
            flag if flag.starts_with('-') => return Err(usage(&format!("unknown flag `{flag}`"))),
            path if scene.is_none() => scene = Some(PathBuf::from(path)),
            extra => return Err(usage(&format!("unexpected argument `{extra}`"))),
        }
    }
    run.scene = scene.ok_or_else(|| usage("no scene file given"))?;
    Ok(run)
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
    fn new(total: u64) -> Self {
        Self {
            total,
            shown: None,
            start: Instant::now(),
            enabled: std::io::stderr().is_terminal(),
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
    let mut progress = Progress::new(run.steps);
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
    print_summary(&scene.name, run, &summary, scene.sim.dt());
    Ok(())
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = parse(&args).and_then(|r| run(&r));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let message = match &e {
                // A bad scene shows its line with a caret: the file is read again by the
                // loader's own rule (regular files of sane size, never a FIFO or a device).
                CliError::Scene(scene) => {
                    let text = args
                        .get(1)
                        .and_then(|path| scene::read_scene_text(Path::new(path)).ok());
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
            match e {
                CliError::Usage(_) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let expected = SceneOptions {
            max_colliders: 200_000,
            max_triangles: 5,
            max_characters: 30_000,
            max_characters_per_m2: 2.5,
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
            assert!(
                matches!(parse(&args(line)), Err(CliError::Usage(_))),
                "accepted `{line}`"
            );
        }
    }
}
