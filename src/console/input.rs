//! Where the console's lines come from (a line editor at a terminal, plain lines from a pipe),
//! and Ctrl-C: it stops the running search, and at the prompt it is a line of its own.

use std::io::BufRead;
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
    /// A terminal, with line editing and history.
    Editor(Box<rustyline::DefaultEditor>),
    /// Lines from a pipe or a file (no prompt, no editing).
    Plain(Box<dyn BufRead + Send>),
}

impl Input {
    /// Line editing on the terminal (plain standard input where the editor cannot start).
    pub fn terminal() -> Input {
        match rustyline::DefaultEditor::new() {
            Ok(editor) => Input::Editor(Box::new(editor)),
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
            Input::Editor(editor) => match editor.readline(prompt) {
                Ok(line) => {
                    if !line.trim().is_empty()
                        && let Err(e) = editor.add_history_entry(line.as_str())
                    {
                        log::debug!("history: {e}");
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
        matches!(self, Input::Editor(_))
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
