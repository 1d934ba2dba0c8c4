//! A request's query as the edge reads it: parameters by name, before any is parsed. Each
//! endpoint parses the ones it declares into its typed query once (e.g.
//! `render::compound::CompoundQuery`); past that, a render function never sees a string.

/// A request's query parameters by name (a repeated parameter is refused before this).
pub trait Query {
    fn get(&self, name: &str) -> Option<&str>;
}

impl Query for Vec<(String, String)> {
    fn get(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
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
