//! Who may talk to the server. A web page from another site must not drive the engine: a
//! request must name the server by `localhost`, an IP address or a host name given with
//! `--allow-host` (DNS rebinding gives a request the attacker's own host name), and a browser's
//! `Origin`, when it sends one, must be the page's own (cross-site WebSocket hijacking,
//! cross-site uploads). Requests that fail get a 403.

use std::net::IpAddr;

/// The host name of a `Host` header (`localhost:8080` → `localhost`, `[::1]:8080` → `::1`).
fn host_name(host: &str) -> Option<&str> {
    let host = host.trim();
    if let Some(rest) = host.strip_prefix('[') {
        let (name, after) = rest.split_once(']')?;
        return (after.is_empty() || after.strip_prefix(':').is_some_and(is_port)).then_some(name);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if is_port(port) => Some(name),
        Some(_) => None,
        None => Some(host),
    }
}

fn is_port(text: &str) -> bool {
    !text.is_empty() && text.len() <= 5 && text.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a request whose `Host` header is `host` may be served.
pub(crate) fn host_allowed(host: &str, allow: &[String]) -> bool {
    let Some(name) = host_name(host).filter(|n| !n.is_empty()) else {
        return false;
    };
    name.eq_ignore_ascii_case("localhost")
        || name.parse::<IpAddr>().is_ok()
        || allow.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// Whether a request with the `Origin` header `origin` (if any) and the `Host` header `host`
/// comes from the page itself (or from a program that is not a browser, which sends none).
pub(crate) fn origin_allowed(origin: Option<&str>, host: &str) -> bool {
    let Some(origin) = origin else {
        return true;
    };
    let origin = origin.trim();
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    rest.eq_ignore_ascii_case(host.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_loopback_names_addresses_or_allowed_names() {
        let allow = vec!["othello.lan".to_string()];
        for host in [
            "localhost:8080",
            "LOCALHOST",
            "127.0.0.1:8080",
            "[::1]:8080",
            "[::1]",
            "192.168.1.20:80",
            "othello.lan:8080",
        ] {
            assert!(host_allowed(host, &allow), "{host}");
        }
        for host in [
            "evil.example:8080",
            "evil.example",
            "localhost.evil.example",
            "",
            ":8080",
            "[::1]x",
            "127.0.0.1:80:80",
            "othello.lan.evil:1",
        ] {
            assert!(!host_allowed(host, &allow), "{host}");
        }
    }

    #[test]
    fn origins_must_be_the_pages_own() {
        assert!(origin_allowed(None, "127.0.0.1:8080"));
        assert!(origin_allowed(
            Some("http://127.0.0.1:8080"),
            "127.0.0.1:8080"
        ));
        assert!(origin_allowed(
            Some("http://LOCALHOST:8080"),
            "localhost:8080"
        ));
        for origin in [
            "http://evil.example",
            "http://127.0.0.1:8081",
            "null",
            "file://",
            "http://127.0.0.1:8080.evil.example",
        ] {
            assert!(!origin_allowed(Some(origin), "127.0.0.1:8080"), "{origin}");
        }
    }
}
