//! Game archives as the training tools and the book builder read them: a directory of WTHOR
//! files (or one file) and Logistello's `logbook.gam`, plain or gzipped.

use std::path::{Path, PathBuf};

use thiserror::Error;

use super::logbook::{self, LogbookGame};
use super::wthor::{self, WthorError, WthorGame};

/// The games of the archives read.
#[derive(Clone, Debug, Default)]
pub struct Archives {
    /// WTHOR games, every file in order.
    pub wthor: Vec<WthorGame>,
    /// WTHOR files read.
    pub wthor_files: usize,
    /// Logistello's games.
    pub logistello: Vec<LogbookGame>,
}

/// Why an archive could not be read.
#[derive(Debug, Error)]
pub enum ArchiveError {
    /// A file or directory cannot be read.
    #[error("cannot read {}: {error}", path.display())]
    Read {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        #[source]
        error: std::io::Error,
    },
    /// A WTHOR file is not one.
    #[error("{}: {error}", path.display())]
    Wthor {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        error: WthorError,
    },
    /// A gzipped logbook does not decompress.
    #[error("{}: {error}", path.display())]
    Gzip {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        error: std::io::Error,
    },
}

/// Reads a WTHOR directory (its `.wtb` files in name order) or one `.wtb` file, and
/// Logistello's `logbook.gam` (`.gz` for a gzipped one; a bad line is a warning); `max_games`
/// keeps a sample, spread over the WTHOR files.
pub fn read_archives(
    wthor: Option<&Path>,
    logistello: Option<&Path>,
    max_games: Option<usize>,
) -> Result<Archives, ArchiveError> {
    let read = |path: &Path| {
        std::fs::read(path).map_err(|error| ArchiveError::Read {
            path: path.to_path_buf(),
            error,
        })
    };
    let mut archives = Archives::default();
    if let Some(path) = wthor {
        let files = wthor_files(path)?;
        for file in &files {
            let mut games = wthor::parse(&read(file)?).map_err(|error| ArchiveError::Wthor {
                path: file.clone(),
                error,
            })?;
            if let Some(n) = max_games {
                games.truncate(n.div_ceil(files.len()).max(1));
            }
            archives.wthor.extend(games);
        }
        archives.wthor_files = files.len();
    }
    if let Some(file) = logistello {
        let bytes = read(file)?;
        let text = if file.to_string_lossy().ends_with(".gz") {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
                .map_err(|error| ArchiveError::Gzip {
                    path: file.to_path_buf(),
                    error,
                })?;
            text
        } else {
            String::from_utf8_lossy(&bytes).into_owned()
        };
        archives.logistello = logbook::parse(&text)
            .into_iter()
            .filter_map(|g| g.map_err(|e| log::warn!("{e}")).ok())
            .collect();
        if let Some(n) = max_games {
            archives.logistello.truncate(n);
        }
    }
    Ok(archives)
}

/// The `.wtb` files of a directory in name order, or the one file `path`.
fn wthor_files(path: &Path) -> Result<Vec<PathBuf>, ArchiveError> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|error| ArchiveError::Read {
            path: path.to_path_buf(),
            error,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    Ok(files)
}
