//! `cargo xtask test`: every test of the project, Rust and Python, in one command.
//!
//! 1. `cargo test --release` (the engine's unit, integration and doc tests);
//! 2. a virtual environment in `target/python-venv` (made with `python3 -m venv`, or the
//!    interpreter `IAGO_PYTHON` names), with maturin, numpy, pytest, gymnasium and mypy
//!    installed by pip when missing;
//! 3. `pip install ./python` into it (the package as a user installs it);
//! 4. `pytest python/tests` (against the binary of step 1) and `mypy --strict` on the package,
//!    its stubs and the examples.
//!
//! `cargo xtask test --python` skips step 1.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const PYTHON_PACKAGES: [&str; 5] = ["maturin", "numpy", "pytest", "gymnasium", "mypy"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => test(args.iter().any(|a| a == "--python")),
        _ => Err("usage: cargo xtask test [--python]   (every test, Rust and Python)".into()),
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

fn test(python_only: bool) -> Result<(), String> {
    let root = root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    if !python_only {
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
        .args(["-c", "import maturin, numpy, pytest, gymnasium, mypy"])
        .status()
        .is_ok_and(|s| s.success());
    if !have_all {
        run(Command::new(&python)
            .args(["-m", "pip", "install", "--quiet"])
            .args(PYTHON_PACKAGES))?;
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
        .env("IAGO_BIN", target.join("release").join("iago"))
        .current_dir(&root))?;
    run(Command::new(&python)
        .args([
            "-m",
            "mypy",
            "--strict",
            "python/iago",
            "python/examples",
            "python/bench",
        ])
        .current_dir(&root))
}

/// `PATH` with `dir` first (so that pip's build finds the environment's maturin).
fn path_with(dir: &Path) -> std::ffi::OsString {
    let mut paths = vec![dir.to_path_buf()];
    if let Some(old) = std::env::var_os("PATH") {
        paths.extend(std::env::split_paths(&old));
    }
    std::env::join_paths(paths).unwrap_or_default()
}
