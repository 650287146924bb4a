//! `cargo xtask test`: every test of the project, Rust, Python and the browser, in one command.
//!
//! 1. `cargo test --release` (the engine's unit, integration and doc tests);
//! 2. a virtual environment in `target/python-venv` (made with `python3 -m venv`, or the
//!    interpreter `IAGO_PYTHON` names), with maturin, numpy, pytest, gymnasium, mypy and
//!    Playwright installed by pip when missing;
//! 3. `pip install ./python` into it (the package as a user installs it);
//! 4. `pytest python/tests` (against the binary of step 1) and `mypy --strict` on the package,
//!    its stubs, the examples (one of which uses every public name), the tests and the browser
//!    tests;
//! 5. `pytest tests/browser`: `iago web` clicked in a real headless Chromium (Debian's
//!    `chromium`, or the browser `IAGO_CHROMIUM` names; Playwright drives it and downloads no
//!    browser of its own); screenshots and figures go to `target/web-screenshots`.
//!
//! `cargo xtask test --python` skips step 1; `cargo xtask test --browser` runs step 5 alone
//! (after building the binary).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const PYTHON_PACKAGES: [&str; 6] = [
    "maturin",
    "numpy",
    "pytest",
    "gymnasium",
    "mypy",
    "playwright",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(
            args.iter().any(|a| a == "--python"),
            args.iter().any(|a| a == "--browser"),
        ),
        _ => Err(
            "usage: cargo xtask test [--python | --browser]   (every test: Rust, Python, browser)"
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lies in the repository")
        .to_path_buf()
}

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

/// Runs `command`, failing with its description when it fails.
fn run(command: &mut Command) -> Result<(), String> {
    eprintln!("xtask: running {command:?}");
    let status = command
        .status()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed ({status})"))
    }
}

fn test(python_only: bool, browser_only: bool) -> Result<(), String> {
    let root = root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    if !python_only && !browser_only {
        run(Command::new(&cargo)
            .args(["test", "--release"])
            .current_dir(&root))?;
    }
    // The binary the Python tests compare with (built by the tests above, or now).
    run(Command::new(&cargo)
        .args(["build", "--release", "--bin", "iago"])
        .current_dir(&root))?;
    let target = target_dir(&root);
    let venv = target.join("python-venv");
    let python = venv.join("bin").join("python");
    if !python.exists() {
        let base = std::env::var("IAGO_PYTHON").unwrap_or_else(|_| "python3".into());
        run(Command::new(base).args(["-m", "venv"]).arg(&venv))?;
    }
    let have_all = Command::new(&python)
        .args([
            "-c",
            "import maturin, numpy, pytest, gymnasium, mypy, playwright",
        ])
        .status()
        .is_ok_and(|s| s.success());
    if !have_all {
        run(Command::new(&python)
            .args(["-m", "pip", "install", "--quiet"])
            .args(PYTHON_PACKAGES))?;
    }
    let binary = target.join("release").join("iago");
    if browser_only {
        return browser_tests(&root, &python, &binary, &target);
    }
    run(Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--force-reinstall",
            "--no-deps",
            "--no-build-isolation",
        ])
        .arg(root.join("python"))
        .env("VIRTUAL_ENV", &venv)
        .env("PATH", path_with(&venv.join("bin"))))?;
    run(Command::new(&python)
        .args(["-m", "pytest", "-q", "python/tests"])
        .env("IAGO_BIN", &binary)
        .current_dir(&root))?;
    run(Command::new(&python)
        .args([
            "-m",
            "mypy",
            "--strict",
            "python/iago",
            "python/examples",
            "python/bench",
            "python/tests",
        ])
        .current_dir(&root))?;
    run(Command::new(&python)
        .args(["-m", "mypy", "--strict", "tests/browser"])
        .current_dir(&root))?;
    browser_tests(&root, &python, &binary, &target)
}

/// The page of `iago web` in a real headless Chromium (`tests/browser`).
fn browser_tests(root: &Path, python: &Path, binary: &Path, target: &Path) -> Result<(), String> {
    let chromium = std::env::var("IAGO_CHROMIUM")
        .ok()
        .or_else(|| {
            ["chromium", "chromium-browser", "google-chrome"]
                .into_iter()
                .find(|name| on_path(name))
                .map(String::from)
        })
        .ok_or(
            "the browser tests need Chromium: apt-get install chromium (Debian), or name a \
             Chromium or Chrome with IAGO_CHROMIUM",
        )?;
    let shots = target.join("web-screenshots");
    // Fresh figures for this run.
    let _ = std::fs::remove_file(shots.join("figures.txt"));
    run(Command::new(python)
        .args(["-m", "pytest", "-q", "tests/browser"])
        .env("IAGO_BIN", binary)
        .env("IAGO_CHROMIUM", chromium)
        .env("IAGO_SCREENSHOTS", &shots)
        .current_dir(root))?;
    eprintln!(
        "xtask: browser screenshots and figures in {}",
        shots.display()
    );
    Ok(())
}

/// Whether a program named `name` is on the `PATH`.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
}

/// `PATH` with `dir` first (so that pip's build finds the environment's maturin).
fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut paths = vec![dir.to_path_buf()];
    if let Some(old) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&old));
    }
    std::env::join_paths(paths).unwrap_or_default()
}
