//! The page's files, embedded at compile time: plain HTML, CSS and JS modules and an SVG icon
//! (the page uses the system's fonts: no font file, nothing fetched from the internet). Each is
//! served with its type and an `ETag`, so that a reload costs a 304.

/// One embedded file.
pub(crate) struct Asset {
    /// Its path on the server.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub mime: &'static str,
    /// Its bytes.
    pub body: &'static str,
}

macro_rules! asset {
    ($path:literal, $file:literal, $mime:literal) => {
        Asset {
            path: $path,
            mime: $mime,
            body: include_str!(concat!("page/", $file)),
        }
    };
}

/// Every file of the page.
pub(crate) const ASSETS: &[Asset] = &[
    asset!("/", "index.html", "text/html; charset=utf-8"),
    asset!("/style.css", "style.css", "text/css; charset=utf-8"),
    asset!("/app.js", "app.js", "text/javascript; charset=utf-8"),
    asset!("/board.js", "board.js", "text/javascript; charset=utf-8"),
    asset!("/moves.js", "moves.js", "text/javascript; charset=utf-8"),
    asset!("/graph.js", "graph.js", "text/javascript; charset=utf-8"),
    asset!("/files.js", "files.js", "text/javascript; charset=utf-8"),
    asset!("/favicon.svg", "favicon.svg", "image/svg+xml"),
];

/// The file served at `path`.
pub(crate) fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}

/// The `ETag` of a file: a hash of its bytes, quoted.
pub(crate) fn etag(asset: &Asset) -> String {
    // FNV-1a: a stable hash that needs no crate.
    let hash = asset.body.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("\"{hash:016x}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_small_and_loads_nothing_from_elsewhere() {
        let total: usize = ASSETS.iter().map(|a| a.body.len()).sum();
        assert!(
            total <= 300 * 1024,
            "the assets are {total} bytes, more than 300 kB"
        );
        for asset in ASSETS {
            for outside in ["http://", "https://", "//cdn", "@import url("] {
                // The SVG namespace is a name, not a download.
                let text = asset.body.replace("http://www.w3.org/2000/svg", "");
                assert!(!text.contains(outside), "{} mentions {outside}", asset.path);
            }
        }
        let index = find("/").unwrap().body;
        for asset in ASSETS
            .iter()
            .filter(|a| a.path.ends_with(".js") || a.path.ends_with(".css"))
        {
            // Every script and style is reachable from the page (directly or by an import).
            let name = &asset.path[1..];
            let used = ASSETS.iter().any(|a| {
                a.body.contains(&format!("./{name}")) || a.body.contains(&format!("/{name}\""))
            });
            assert!(used || index.contains(name), "{name} is not used");
        }
        assert_ne!(etag(find("/app.js").unwrap()), etag(find("/").unwrap()));
    }
}
