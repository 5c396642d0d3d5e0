//! Who may ask the server anything, as Jupyter's notebook server decides it:
//!
//! - a random token made at each launch and printed in the URL (`/?token=...`); every request
//!   must carry it, as that query parameter, as `Authorization: token ...` or in the cookie
//!   that a request with the token in its query sets (`HttpOnly`, `SameSite=Strict`, named
//!   after the port, since cookies do not tell ports apart);
//! - the `Host` header must name this machine as the browser reached it: `localhost`, an IP
//!   address, or the `--host` given (a page on another name that resolves here, DNS
//!   rebinding, is refused);
//! - an `Origin` header, which browsers send with cross-site requests, must be this server's
//!   own (`http://` and the `Host`);
//! - a `POST` must say `Content-Type: application/json`, which a cross-site form cannot send.

use std::net::IpAddr;

use http::header::{AUTHORIZATION, CONTENT_TYPE, COOKIE, HOST, ORIGIN};
use http::{HeaderMap, Method};

/// Why a request is refused, with the status it is answered with.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub why: &'static str,
}

/// The checks and what they compare with.
pub struct Guard {
    token: String,
    /// The `--host` given, lower case, without brackets.
    host: String,
    cookie: String,
}

/// A new token: 32 random bytes, in hex.
pub fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Compares two strings in time that depends only on their lengths.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// The value of `key` in a query string.
fn query_value<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

/// A `Host` (or an origin's authority) without its port, lower case, without brackets.
fn host_name(authority: &str) -> String {
    let a = authority.trim();
    let name = if let Some(rest) = a.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        match a.rsplit_once(':') {
            Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
            _ => a,
        }
    };
    name.to_ascii_lowercase()
}

impl Guard {
    pub fn new(token: String, host: &str, port: u16) -> Guard {
        Guard {
            token,
            host: host_name(host),
            cookie: format!("zrf-token-{port}"),
        }
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// The `Set-Cookie` value that lets the page's later requests carry the token.
    pub fn set_cookie(&self) -> String {
        format!(
            "{}={}; Path=/; HttpOnly; SameSite=Strict",
            self.cookie, self.token
        )
    }

    fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host);
        !name.is_empty()
            && (name == "localhost"
                || name == self.host
                || name.parse::<IpAddr>().is_ok()
                || name.strip_suffix('.') == Some("localhost"))
    }

    /// Checks a request's headers; `Ok(true)` when its token came in the query (the answer
    /// then sets the cookie).
    pub fn admit(
        &self,
        method: &Method,
        query: Option<&str>,
        headers: &HeaderMap,
    ) -> Result<bool, Refusal> {
        let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
        let Some(host) = text(HOST) else {
            return Err(Refusal {
                status: 400,
                why: "the request has no Host header",
            });
        };
        if !self.host_allowed(host) {
            return Err(Refusal {
                status: 403,
                why: "the Host header names another site",
            });
        }
        if let Some(origin) = headers.get(ORIGIN) {
            let own = origin
                .to_str()
                .ok()
                .and_then(|o| o.strip_prefix("http://"))
                .is_some_and(|o| o.eq_ignore_ascii_case(host.trim()));
            if !own {
                return Err(Refusal {
                    status: 403,
                    why: "cross-site requests are refused",
                });
            }
        }
        let from_query = query
            .and_then(|q| query_value(q, "token"))
            .is_some_and(|t| same(t, &self.token));
        let from_header = text(AUTHORIZATION)
            .and_then(|a| a.strip_prefix("token ").or(a.strip_prefix("Bearer ")))
            .is_some_and(|t| same(t.trim(), &self.token));
        let from_cookie = headers.get_all(COOKIE).iter().any(|v| {
            v.to_str().ok().is_some_and(|c| {
                c.split(';').any(|kv| {
                    kv.trim()
                        .strip_prefix(self.cookie.as_str())
                        .and_then(|r| r.strip_prefix('='))
                        .is_some_and(|t| same(t, &self.token))
                })
            })
        });
        if !(from_query || from_header || from_cookie) {
            return Err(Refusal {
                status: 403,
                why: "this server needs the token it printed when it started: open the URL it \
                      printed (…/?token=…)",
            });
        }
        if *method == Method::POST {
            let json = text(CONTENT_TYPE).is_some_and(|t| {
                t.split(';')
                    .next()
                    .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
            if !json {
                return Err(Refusal {
                    status: 415,
                    why: "a request body must be sent as Content-Type: application/json",
                });
            }
        }
        Ok(from_query)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn guard() -> Guard {
        Guard::new("abc".into(), "127.0.0.1", 8080)
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn hosts() {
        let g = guard();
        for ok in [
            "localhost:8080",
            "127.0.0.1:8080",
            "[::1]:8080",
            "10.1.2.3",
            "LOCALHOST",
        ] {
            assert!(g.host_allowed(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "",
            "127.0.0.1.nip.io",
            "localhost.evil",
        ] {
            assert!(!g.host_allowed(bad), "{bad}");
        }
        let named = Guard::new("abc".into(), "board.lan", 80);
        assert!(named.host_allowed("Board.LAN:80"));
    }

    #[test]
    fn tokens() {
        let g = guard();
        let get = Method::GET;
        let h = headers(&[("host", "127.0.0.1:8080")]);
        assert_eq!(g.admit(&get, Some("token=abc"), &h), Ok(true));
        assert_eq!(
            g.admit(&get, Some("x=1&token=abd"), &h).unwrap_err().status,
            403
        );
        assert_eq!(g.admit(&get, None, &h).unwrap_err().status, 403);
        let h = headers(&[("host", "127.0.0.1:8080"), ("authorization", "token abc")]);
        assert_eq!(g.admit(&get, None, &h), Ok(false));
        let h = headers(&[
            ("host", "127.0.0.1:8080"),
            ("cookie", "a=b; zrf-token-8080=abc"),
        ]);
        assert_eq!(g.admit(&get, None, &h), Ok(false));
        let h = headers(&[("host", "127.0.0.1:8080"), ("cookie", "zrf-token-8081=abc")]);
        assert!(g.admit(&get, None, &h).is_err(), "another port's cookie");
    }

    #[test]
    fn origins_and_types() {
        let g = guard();
        let post = Method::POST;
        let base = [("host", "127.0.0.1:8080"), ("authorization", "token abc")];
        let with = |extra: &[(&'static str, &str)]| {
            let mut all = base.to_vec();
            all.extend_from_slice(extra);
            g.admit(&post, None, &headers(&all))
        };
        assert!(with(&[("content-type", "application/json; charset=utf-8")]).is_ok());
        assert_eq!(
            with(&[("content-type", "text/plain")]).unwrap_err().status,
            415
        );
        assert_eq!(with(&[]).unwrap_err().status, 415);
        let json = ("content-type", "application/json");
        assert!(with(&[json, ("origin", "http://127.0.0.1:8080")]).is_ok());
        for o in [
            "http://evil.example",
            "null",
            "https://127.0.0.1:8080",
            "http://127.0.0.1:9",
        ] {
            assert_eq!(with(&[json, ("origin", o)]).unwrap_err().status, 403, "{o}");
        }
    }
}
