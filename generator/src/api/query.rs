//! A request's query as the edge reads it: parameters by name, before any is parsed. Each
//! endpoint parses the ones it declares into its typed query once (e.g.
//! `render::compound::CompoundQuery`); past that, a render function never sees a string.

/// A request's query parameters by name (a repeated parameter is refused before this).
pub trait Query {
    fn get(&self, name: &str) -> Option<&str>;

    /// Every parameter, in the order the query holds them.
    fn each(&self) -> Vec<(&str, &str)>;
}

impl Query for Vec<(String, String)> {
    fn get(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn each(&self) -> Vec<(&str, &str)> {
        self.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect()
    }
}

/// `path` with the query's parameters after it, encoded (`?` only when there are some): the
/// `Location` of a forward that keeps the request's query, from the runtime and the static
/// tree's reading of `_redirects` alike.
pub fn with_query(path: &str, query: &[(&str, &str)]) -> String {
    match serde_urlencoded::to_string(query) {
        Ok(q) if !q.is_empty() => format!("{path}?{q}"),
        _ => path.to_string(),
    }
}

/// The pairs of a query the build writes itself (`context=dog&style=pill`): names and values
/// are the catalogue's literal values, so nothing is percent-decoded.
pub fn pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (name, value) = p.split_once('=').unwrap_or((p, ""));
            (name.to_string(), value.to_string())
        })
        .collect()
}

/// A boolean query value (`Kind::Bool`): `true`/`false` as the reference writes them, and the
/// usual spellings clients send (`True` from Python's `str(True)`, `1`, `yes`, `on`), in any
/// case; `None` for anything else, which the endpoint answers with a 400.
pub fn boolean(raw: &str) -> Option<bool> {
    match raw.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_forward_keeps_every_parameter_encoded_and_adds_no_empty_query() {
        assert_eq!(super::with_query("/p/b", &[]), "/p/b");
        assert_eq!(
            super::with_query("/p/b", &[("context", "dog"), ("label", "a b&c")]),
            "/p/b?context=dog&label=a+b%26c"
        );
    }

    #[test]
    fn booleans_take_the_usual_spellings_and_nothing_else() {
        for yes in ["true", "True", "TRUE", "1", "yes", "On"] {
            assert_eq!(super::boolean(yes), Some(true), "{yes}");
        }
        for no in ["false", "False", "0", "no", "OFF"] {
            assert_eq!(super::boolean(no), Some(false), "{no}");
        }
        for neither in ["", "2", "truth", " true", "y"] {
            assert_eq!(super::boolean(neither), None, "{neither:?}");
        }
    }
}
