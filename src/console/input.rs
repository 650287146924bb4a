//! Where the console's lines come from (a line editor at a terminal, with a history kept
//! between sessions; plain lines from a pipe), and Ctrl-C: it stops the running search, and at
//! the prompt it is a line of its own.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rustyline::error::ReadlineError;

use crate::engine::StopHandle;

/// What the person gave.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line {
    /// A line of text.
    Text(String),
    /// Ctrl-C at the prompt.
    Interrupted,
    /// Ctrl-D, the end of the input, or an input that cannot be read.
    End,
}

/// The source of lines.
pub(crate) enum Input {
    /// A terminal, with line editing, and the history file the lines go to (if any).
    Editor(Box<rustyline::DefaultEditor>, Option<PathBuf>),
    /// Lines from a pipe or a file (no prompt, no editing).
    Plain(Box<dyn BufRead + Send>),
}

/// The most lines the history keeps, in the editor and in its file.
pub(crate) const HISTORY_LINES: usize = 1000;

impl Input {
    /// Line editing on the terminal (plain standard input where the editor cannot start), with
    /// the history of earlier sessions from [`history_file`].
    pub fn terminal() -> Input {
        let editor = rustyline::Config::builder()
            .max_history_size(HISTORY_LINES)
            .and_then(|config| rustyline::DefaultEditor::with_config(config.build()));
        match editor {
            Ok(mut editor) => {
                let path = history_file();
                if let Some(path) = &path {
                    for line in load_history(path) {
                        if let Err(e) = editor.add_history_entry(line) {
                            log::debug!("history: {e}");
                        }
                    }
                }
                Input::Editor(Box::new(editor), path)
            }
            Err(e) => {
                log::warn!("no line editing ({e}); reading plain lines");
                Input::stdin()
            }
        }
    }

    /// Plain lines of standard input.
    pub fn stdin() -> Input {
        Input::Plain(Box::new(std::io::BufReader::new(std::io::stdin())))
    }

    /// The next line, after `prompt` where there is an editor.
    pub fn read(&mut self, prompt: &str) -> Line {
        match self {
            Input::Editor(editor, path) => match editor.readline(prompt) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        if let Err(e) = editor.add_history_entry(line.as_str()) {
                            log::debug!("history: {e}");
                        }
                        if let Some(path) = path {
                            append_history(path, &line);
                        }
                    }
                    Line::Text(line)
                }
                Err(ReadlineError::Interrupted) => Line::Interrupted,
                Err(ReadlineError::Eof) => Line::End,
                Err(e) => {
                    log::warn!("cannot read the terminal: {e}");
                    Line::End
                }
            },
            Input::Plain(reader) => match crate::protocol::read_line(reader) {
                Some(line) => Line::Text(line),
                None => Line::End,
            },
        }
    }

    /// Whether lines come from a terminal with a prompt.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Input::Editor(..))
    }
}

/// The console's history file: `$XDG_STATE_HOME/iago/history`, or
/// `~/.local/state/iago/history` (the XDG default); `None` when neither variable is set.
pub(crate) fn history_file() -> Option<PathBuf> {
    let state = match std::env::var_os("XDG_STATE_HOME").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").filter(|d| !d.is_empty())?)
            .join(".local")
            .join("state"),
    };
    Some(state.join("iago").join("history"))
}

/// The last [`HISTORY_LINES`] lines of the history file at `path` (none when it cannot be
/// read); a longer file is cut to them, so that it stays bounded.
pub(crate) fn load_history(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    let keep = lines[lines.len().saturating_sub(HISTORY_LINES)..].to_vec();
    if keep.len() < lines.len() {
        let mut text = keep.join("\n");
        text.push('\n');
        if let Err(e) = std::fs::write(path, text) {
            log::debug!("history {}: {e}", path.display());
        }
    }
    keep
}

/// Appends `line` to the history file at `path`, made with its directory if missing (a file
/// that cannot be written is only logged).
pub(crate) fn append_history(path: &Path, line: &str) {
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
        })
        .and_then(|mut file| writeln!(file, "{}", line.trim_end()));
    if let Err(e) = written {
        log::debug!("history {}: {e}", path.display());
    }
}

/// The search that Ctrl-C stops now, if any.
static RUNNING: Mutex<Option<StopHandle>> = Mutex::new(None);

/// Routes Ctrl-C (SIGINT) to the running search, for the life of the process. With nothing
/// running, Ctrl-C ends the process when `exit_when_idle` (lines from a pipe: nothing else
/// would end it) and is ignored otherwise (at a terminal, the line editor reads Ctrl-C at the
/// prompt as a key of its own).
pub(crate) fn catch_interrupts(exit_when_idle: bool) {
    let installed = ctrlc::set_handler(move || {
        let running = RUNNING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match running.as_ref() {
            Some(stop) => stop.stop(),
            None if exit_when_idle => std::process::exit(130),
            None => {}
        }
    });
    if let Err(e) = installed {
        log::warn!("Ctrl-C will not stop a search: {e}");
    }
}

/// While it lives, Ctrl-C stops the search of `stop` (see [`catch_interrupts`]).
pub(crate) struct Interruptible;

impl Interruptible {
    /// Ctrl-C stops `stop`'s searches until the value is dropped.
    pub fn new(stop: StopHandle) -> Interruptible {
        *RUNNING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(stop);
        Interruptible
    }
}

impl Drop for Interruptible {
    fn drop(&mut self) {
        *RUNNING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_history_file_keeps_its_last_lines() {
        let dir = std::env::temp_dir().join(format!("iago-history-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("iago").join("history");
        assert!(load_history(&path).is_empty(), "no file yet");
        for k in 0..HISTORY_LINES + 5 {
            append_history(&path, &format!("level {k}"));
        }
        let lines = load_history(&path);
        assert_eq!(lines.len(), HISTORY_LINES);
        assert_eq!(lines[0], "level 5");
        assert_eq!(
            lines.last().unwrap(),
            &format!("level {}", HISTORY_LINES + 4)
        );
        // The file was cut to them.
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), HISTORY_LINES);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
