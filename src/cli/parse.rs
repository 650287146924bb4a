//! Reading the command line: engine options given before the subcommand count for it.
//!
//! The options of plain `iago` (threads, hash table, book, evaluation, …) stand at the top level
//! for the protocol session or console that runs without a subcommand. Given before a
//! subcommand (`iago --threads 1 solve`), each one is moved after the subcommand's name and
//! the line is read again, so it means exactly what it means there; one the subcommand does
//! not take is refused with a message that names the subcommands that take it. Nothing given
//! is dropped.

use std::ffi::OsString;

use clap::error::ErrorKind;
use clap::{ArgMatches, Command, CommandFactory, FromArgMatches, parser::ValueSource};

use super::Cli;

/// The command line `args` (the program's name first) read into a [`Cli`], or clap's error
/// (help and version included) for the caller to print and exit with.
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut command = Cli::command();
    let matches = command.try_get_matches_from_mut(&args)?;
    let given = given_first(&command, &matches);
    if given.is_empty() || matches.subcommand().is_none() {
        return Cli::from_arg_matches(&matches);
    }
    let moved = options_after_subcommand(&command, &matches, &args, &given)?;
    let matches = command.try_get_matches_from_mut(&moved)?;
    Cli::from_arg_matches(&matches)
}

/// The long names of the top-level options given on the command line, in the order of their
/// declaration.
fn given_first(command: &Command, matches: &ArgMatches) -> Vec<String> {
    command
        .get_arguments()
        .filter(|arg| matches.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine))
        .filter_map(|arg| arg.get_long().map(str::to_string))
        .collect()
}

/// `args` with the top-level options (`given`, before the first subcommand's name) moved
/// after the name of the innermost subcommand; an error when that subcommand does not take
/// one of them.
fn options_after_subcommand(
    top: &Command,
    matches: &ArgMatches,
    args: &[OsString],
    given: &[String],
) -> Result<Vec<OsString>, clap::Error> {
    // The chain of subcommands named on the line (`book build`: two).
    let mut path = Vec::new();
    let mut level = matches;
    while let Some((name, sub)) = level.subcommand() {
        path.push(name.to_string());
        level = sub;
    }
    let mut leaf = top;
    for name in &path {
        leaf = leaf
            .find_subcommand(name)
            .expect("clap matched this subcommand");
    }
    let name = format!("iago {}", path.join(" "));
    for long in given {
        if !leaf.get_arguments().any(|a| a.get_long() == Some(long)) {
            let takers = takers(top, long);
            let message = format!(
                "'{name}' does not take '--{long}', given before it (options before a \
                 subcommand count for it; '--{long}' is an option of {takers})"
            );
            return Err(leaf.clone().error(ErrorKind::ArgumentConflict, message));
        }
    }
    // Where each level's name stands: skip the options of the level above it.
    let mut at = 1;
    let mut command = top;
    let mut leaf_at = 0;
    for name in &path {
        at = skip_options(command, args, at);
        leaf_at = at;
        command = command
            .find_subcommand(name)
            .expect("clap matched this subcommand");
        at += 1;
    }
    let first_end = skip_options(top, args, 1);
    let first = &args[1..first_end];
    let mut moved = Vec::with_capacity(args.len());
    moved.push(args[0].clone());
    moved.extend_from_slice(&args[first_end..=leaf_at]);
    moved.extend_from_slice(first);
    moved.extend_from_slice(&args[leaf_at + 1..]);
    Ok(moved)
}

/// The index of the first argument from `from` that is not an option of `command` (nor an
/// option's value): a subcommand's name. The line has been read by clap already, so each
/// option is one of `command`'s, written `--name`, `--name=value` or `--name value`.
fn skip_options(command: &Command, args: &[OsString], from: usize) -> usize {
    let mut at = from;
    while let Some(text) = args.get(at).and_then(|a| a.to_str()) {
        let Some(long) = text.strip_prefix("--").filter(|l| !l.is_empty()) else {
            break;
        };
        let (name, inline_value) = match long.split_once('=') {
            Some((name, _)) => (name, true),
            None => (long, false),
        };
        let takes_value = command
            .get_arguments()
            .find(|a| a.get_long() == Some(name))
            .is_some_and(|a| a.get_action().takes_values());
        at += if takes_value && !inline_value { 2 } else { 1 };
    }
    at
}

/// The commands that take `--long`, as a user would type them: `plain iago, play, nboard, gtp`.
fn takers(top: &Command, long: &str) -> String {
    let mut names = vec!["plain iago".to_string()];
    let mut stack: Vec<(String, &Command)> = top
        .get_subcommands()
        .map(|c| (c.get_name().to_string(), c))
        .collect();
    stack.reverse();
    while let Some((name, command)) = stack.pop() {
        if command.has_subcommands() {
            let mut subs: Vec<_> = command
                .get_subcommands()
                .map(|c| (format!("{name} {}", c.get_name()), c))
                .collect();
            subs.reverse();
            stack.extend(subs);
        } else if command.get_arguments().any(|a| a.get_long() == Some(long)) {
            names.push(name);
        }
    }
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal valid line for every subcommand (after its name), so that each can be read
    /// with an option before it and after it.
    const LINES: &[(&str, &[&str])] = &[
        ("play", &[]),
        ("nboard", &[]),
        ("gtp", &[]),
        ("perft", &["3"]),
        ("solve", &["x.obf"]),
        ("analyze", &["--depth", "4", "x.obf"]),
        ("bench", &[]),
        ("web", &["--listen", "127.0.0.1:0"]),
        ("probcut-fit", &["w.wtb"]),
        ("train", &["--wthor", "w", "--out", "o.w"]),
        ("datagen", &["--out", "d", "--games", "2"]),
        ("match", &["--engine", "iago", "--engine", "iago,name=b"]),
        (
            "tournament",
            &["--engine", "iago", "--engine", "iago,name=b"],
        ),
        ("merge", &["a.jsonl"]),
        ("book build", &["--out", "b.book", "--wthor", "w"]),
        ("book deepen", &["b.book"]),
        ("book learn", &["b.book", "f5d6"]),
        ("book info", &["b.book"]),
        ("book probe", &["b.book", "f5"]),
        ("book export", &["b.book"]),
        ("book import", &["--out", "b.book", "b.txt"]),
        ("review", &["g.ggf"]),
        ("show", &["f5"]),
    ];

    /// A value for each top-level option that every subcommand taking it accepts.
    fn sample(long: &str) -> Option<&'static str> {
        Some(match long {
            "threads" => "3",
            "hash" => "32",
            "depth" => "7",
            "time" => "1.5",
            "selectivity" => "73",
            "rows" => "top",
            "eval" => "hand",
            "book" => "my.book",
            "book-randomness" => "2",
            "move-overhead" => "40",
            "level" => "3",
            "seed" => "9",
            "rules" => "anti",
            "discs" => "20",
            "size" => "6",
            _ => return None,
        })
    }

    fn line(parts: &[&str]) -> Vec<String> {
        std::iter::once("iago")
            .chain(parts.iter().copied())
            .map(str::to_string)
            .collect()
    }

    /// The leaf subcommands of the command line, as typed (`book build`).
    fn leaves(command: &Command) -> Vec<String> {
        let mut out = Vec::new();
        for sub in command.get_subcommands() {
            if sub.has_subcommands() {
                for name in leaves(sub) {
                    out.push(format!("{} {name}", sub.get_name()));
                }
            } else {
                out.push(sub.get_name().to_string());
            }
        }
        out
    }

    #[test]
    fn every_subcommand_has_a_sample_line() {
        let mut listed: Vec<&str> = LINES.iter().map(|(name, _)| *name).collect();
        listed.sort_unstable();
        let top = Cli::command();
        let mut names = leaves(&top);
        names.sort();
        assert_eq!(listed, names, "LINES must name every subcommand");
        for (name, rest) in LINES {
            let mut parts: Vec<&str> = name.split(' ').collect();
            parts.extend_from_slice(rest);
            if let Err(e) = parse(line(&parts)) {
                panic!("{name}: {e}");
            }
        }
    }

    /// Every top-level option, before each subcommand that takes it, means what it means
    /// after; before one that does not, it is refused with a message that says where it
    /// belongs.
    #[test]
    fn options_before_a_subcommand_count_for_it_or_are_refused() {
        let top = Cli::command();
        let options: Vec<(String, Option<&str>)> = top
            .get_arguments()
            .filter_map(|a| {
                let long = a.get_long()?;
                if long == "help" || long == "version" {
                    return None;
                }
                let value = a.get_action().takes_values().then(|| {
                    sample(long).unwrap_or_else(|| panic!("no sample value for --{long}"))
                });
                Some((long.to_string(), value))
            })
            .collect();
        assert!(options.len() >= 10, "{options:?}");
        let (mut honoured, mut refused) = (0, 0);
        for (name, rest) in LINES {
            let sub: Vec<&str> = name.split(' ').collect();
            let leaf = sub
                .iter()
                .fold(&top, |c, n| c.find_subcommand(n).expect("a subcommand"));
            for (long, value) in &options {
                let flag = format!("--{long}");
                if rest.contains(&flag.as_str()) {
                    continue;
                }
                let mut option = vec![flag.as_str()];
                option.extend(value);
                let first: Vec<&str> = option
                    .iter()
                    .chain(&sub)
                    .chain(rest.iter())
                    .copied()
                    .collect();
                // After the subcommand's name (at the very end, `show`'s words would take it).
                let last: Vec<&str> = sub
                    .iter()
                    .chain(&option)
                    .chain(rest.iter())
                    .copied()
                    .collect();
                let takes = leaf.get_arguments().any(|a| a.get_long() == Some(long));
                let read_first = parse(line(&first));
                if takes {
                    // The same reading, or the same kind of error (an option that conflicts
                    // with one of the sample line's: clap names the later one first).
                    let read_last = parse(line(&last));
                    let text = |r: &Result<Cli, clap::Error>| match r {
                        Ok(cli) => format!("{cli:?}"),
                        Err(e) => format!("error of kind {:?}", e.kind()),
                    };
                    assert_eq!(
                        text(&read_first),
                        text(&read_last),
                        "{first:?} and {last:?}"
                    );
                    honoured += 1;
                } else {
                    let e = read_first.expect_err(&format!("{first:?} was accepted"));
                    assert_eq!(e.kind(), ErrorKind::ArgumentConflict, "{first:?}: {e}");
                    let text = e.to_string();
                    assert!(
                        text.contains(&format!(
                            "'iago {name}' does not take '--{long}', given before it"
                        )) && text.contains("plain iago"),
                        "{text}"
                    );
                    refused += 1;
                }
            }
        }
        assert!(honoured > 30 && refused > 30, "{honoured} / {refused}");
    }

    #[test]
    fn an_option_given_before_and_after_is_refused_as_given_twice() {
        let e = parse(line(&["--threads", "2", "solve", "--threads", "3"])).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::ArgumentConflict, "{e}");
        assert!(
            e.to_string().contains("cannot be used multiple times"),
            "{e}"
        );
    }

    #[test]
    fn inline_values_flags_and_nested_subcommands_move_whole() {
        let args = line(&[
            "--threads=2",
            "--no-book",
            "--hash",
            "8",
            "nboard",
            "--depth",
            "3",
        ]);
        let command = Cli::command();
        let matches = command.clone().get_matches_from(&args);
        let given = given_first(&command, &matches);
        let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
        let moved = options_after_subcommand(&command, &matches, &args, &given).unwrap();
        assert_eq!(
            moved,
            line(&[
                "nboard",
                "--threads=2",
                "--no-book",
                "--hash",
                "8",
                "--depth",
                "3"
            ])
            .into_iter()
            .map(OsString::from)
            .collect::<Vec<_>>()
        );
        let cli = parse(line(&["--threads", "2", "book", "deepen", "b.book"])).unwrap();
        let Some(super::super::Command::Book(book)) = cli.command else {
            panic!("{cli:?}");
        };
        assert!(format!("{book:?}").contains("threads: 2"), "{book:?}");
    }
}
