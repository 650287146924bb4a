//! GTP replies: `=[id] result` or `?[id] message`, each ended by a blank line.

use std::fmt;
use std::str::FromStr;

use nom::Parser;
use nom::branch::alt;
use nom::character::complete::{char, space0, u64 as parse_u64};
use nom::combinator::{opt, rest, value};

/// A reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The id of the command.
    pub id: Option<u64>,
    /// Success (`=`) or failure (`?`).
    pub success: bool,
    /// The result or error message (may span lines; no blank line inside).
    pub text: String,
}

impl Response {
    /// `=[id] text`.
    pub fn success(id: Option<u64>, text: impl Into<String>) -> Response {
        Response {
            id,
            success: true,
            text: text.into(),
        }
    }

    /// `?[id] message`.
    pub fn failure(id: Option<u64>, message: impl Into<String>) -> Response {
        Response {
            id,
            success: false,
            text: message.into(),
        }
    }
}

impl fmt::Display for Response {
    /// The reply with its terminating blank line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", if self.success { '=' } else { '?' })?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        // Blank lines inside a result would end it early.
        let text: Vec<&str> = self.text.lines().filter(|l| !l.trim().is_empty()).collect();
        if !text.is_empty() {
            write!(f, " {}", text.join("\n"))?;
        }
        write!(f, "\n\n")
    }
}

/// Why a reply could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a GTP reply: {0}")]
pub struct ParseResponseError(pub String);

impl FromStr for Response {
    type Err = ParseResponseError;

    /// Reads one reply (its lines up to, not including, the blank line).
    fn from_str(text: &str) -> Result<Response, ParseResponseError> {
        let text = text.trim_end_matches(['\n', '\r']);
        let (first, more) = text.split_once('\n').unwrap_or((text, ""));
        let parsed: nom::IResult<&str, (bool, Option<u64>, &str, &str)> = (
            alt((value(true, char('=')), value(false, char('?')))),
            opt(parse_u64),
            space0,
            rest,
        )
            .parse(first);
        let (_, (success, id, _, head)) =
            parsed.map_err(|_| ParseResponseError(first.to_string()))?;
        let mut body = head.trim_end().to_string();
        if !more.is_empty() {
            body.push('\n');
            body.push_str(more);
        }
        Ok(Response {
            id,
            success,
            text: body,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_round_trip() {
        for r in [
            Response::success(None, ""),
            Response::success(Some(3), "F5"),
            Response::failure(Some(12), "illegal move"),
            Response::failure(None, "unknown command"),
            Response::success(Some(1), "protocol_version\nname\nversion"),
        ] {
            let text = r.to_string();
            assert!(text.ends_with("\n\n"), "{text:?}");
            assert_eq!(text.parse::<Response>(), Ok(r), "{text:?}");
        }
    }

    #[test]
    fn literal_forms() {
        assert_eq!(Response::success(None, "").to_string(), "=\n\n");
        assert_eq!(
            Response::success(Some(2), "pass").to_string(),
            "=2 pass\n\n"
        );
        assert_eq!(
            Response::failure(Some(4), "unacceptable size").to_string(),
            "?4 unacceptable size\n\n"
        );
        assert_eq!(Response::success(None, "a\n\nb").to_string(), "= a\nb\n\n");
        assert!("hello".parse::<Response>().is_err());
    }
}
