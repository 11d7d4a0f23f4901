//! Hash routing: every page is `index.html` plus a fragment (`#/soccer`), so the app works from
//! any static file server, and a reload or a shared link opens the same page.

use std::fmt;

/// A page of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Route {
    /// `#/`: what Quadrille is, and the way into both games.
    Home,
    /// `#/soccer`: the Paper Soccer field.
    Soccer,
    /// `#/circuits`: Racetrack circuits.
    Circuits,
    /// `#/pilots`: the Racetrack pilot lab.
    Pilots,
    /// `#/board`: FPGA players on a simulated or real DE2-115 board.
    Board,
    /// `#/league`: a Paper Soccer league of engines and boards.
    League,
    /// `#/contest`: a Racetrack pools contest of pilot programs.
    Contest,
    /// Any fragment that names no page.
    NotFound,
}

impl Route {
    /// The pages listed in the navigation bar, in order.
    pub const NAV: [Route; 7] = [
        Route::Home,
        Route::Soccer,
        Route::Circuits,
        Route::Pilots,
        Route::Board,
        Route::League,
        Route::Contest,
    ];

    /// Parses `location.hash`. The leading `#`, a trailing `/` and a `?query` are ignored, and
    /// an empty fragment is the home page, so `""`, `"#"`, `"#/"` and `"#/soccer/"` all work.
    pub fn from_hash(hash: &str) -> Route {
        let path = hash.strip_prefix('#').unwrap_or(hash);
        let path = path.split('?').next().unwrap_or_default();
        let path = path.trim_end_matches('/');
        match path {
            "" => Route::Home,
            "/soccer" => Route::Soccer,
            "/circuits" => Route::Circuits,
            "/pilots" => Route::Pilots,
            "/board" => Route::Board,
            "/league" => Route::League,
            "/contest" => Route::Contest,
            _ => Route::NotFound,
        }
    }

    /// The link to this page (`NotFound` links home).
    pub fn href(self) -> &'static str {
        match self {
            Route::Home | Route::NotFound => "#/",
            Route::Soccer => "#/soccer",
            Route::Circuits => "#/circuits",
            Route::Pilots => "#/pilots",
            Route::Board => "#/board",
            Route::League => "#/league",
            Route::Contest => "#/contest",
        }
    }

    /// The page's name, as shown in the navigation bar and the window title.
    pub fn title(self) -> &'static str {
        match self {
            Route::Home => "Home",
            Route::Soccer => "Paper Soccer",
            Route::Circuits => "Circuits",
            Route::Pilots => "Pilots",
            Route::Board => "Board",
            Route::League => "League",
            Route::Contest => "Contest",
            Route::NotFound => "Not found",
        }
    }
}

/// The value of `key` in the fragment's `?query` (`#/soccer?record=8x10%20red%3A%203`),
/// percent-decoded as `encodeURIComponent` encodes; `None` when it is absent or not UTF-8.
/// Lets one page link to another with something to show (a league game's record).
pub fn query_value(hash: &str, key: &str) -> Option<String> {
    let (_, query) = hash.split_once('?')?;
    let raw = query
        .split('&')
        .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))?;
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        let hex = bytes
            .get(k + 1..k + 3)
            .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match (bytes[k], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                k += 3;
            }
            (byte, _) => {
                out.push(byte);
                k += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

impl fmt::Display for Route {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_link_leads_back_to_its_page() {
        for route in Route::NAV {
            assert_eq!(Route::from_hash(route.href()), route);
        }
    }

    #[test]
    fn tolerant_spellings_of_the_same_page() {
        for hash in ["", "#", "#/", "#?x=1"] {
            assert_eq!(Route::from_hash(hash), Route::Home, "{hash:?}");
        }
        assert_eq!(Route::from_hash("#/soccer/"), Route::Soccer);
        assert_eq!(Route::from_hash("#/circuits?sample=ring"), Route::Circuits);
        assert_eq!(Route::from_hash("/board"), Route::Board);
    }

    #[test]
    fn query_values_are_decoded() {
        let hash = "#/soccer?x=1&record=8x10%20red%3A%203%2F1%20%23%20red%20goal";
        assert_eq!(
            query_value(hash, "record").as_deref(),
            Some("8x10 red: 3/1 # red goal")
        );
        assert_eq!(query_value(hash, "x").as_deref(), Some("1"));
        assert_eq!(query_value(hash, "rec"), None);
        assert_eq!(query_value("#/soccer", "record"), None);
        assert_eq!(query_value("#/soccer?record=%FF", "record"), None);
        assert_eq!(
            query_value("#/soccer?record=a%2", "record").as_deref(),
            Some("a%2")
        );
    }

    #[test]
    fn unknown_pages_are_not_found() {
        for hash in ["#/socc", "#/soccer/extra", "#soccer", "#/SOCCER"] {
            assert_eq!(Route::from_hash(hash), Route::NotFound, "{hash:?}");
        }
    }
}
