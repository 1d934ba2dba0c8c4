//! A CDN's reading of the `_redirects` and `_headers` the build writes (the Netlify subset we
//! use), so that `saferef-serve` answers from site/ exactly as the CDN will, and so that the
//! tests can see what the CDN does with any URL.
//!
//! Semantics, as Netlify's router does them (`netlify dev`, tests/runtime/netlify_dev.rs):
//! rules are tried top to bottom and the first whose path and query conditions match decides
//! (`k=v` literally, `k=:name` any value; `:name` matches one path segment and a trailing `*`
//! the rest, `:splat`). A redirect (301, 302...) of a rule with no query condition passes the
//! request's query on to its target (https://docs.netlify.com/routing/redirects/redirect-options/,
//! "Query parameters"). An unforced rule gives way to a file at the request path (the path
//! itself, `path.html` or `path/index.html`: shadowing); a forced one (`!`) does not. A target
//! on another origin is a proxy (here: the runtime answers). When no rule matches, the file at
//! the request path is served. A rule whose target file the tree does not hold is the CDN's
//! own 404 (`Missing`): the CDN does not try the rules below it, so the route table must never
//! lead there for a URL it answers (tests/generator/site_build.rs checks every route). Headers:
//! every `_headers` block whose path matches the request path applies, values of the same name
//! joined with ", "; Content-Type comes from the served file's extension. Rules with an error
//! status are left to the runtime: it renders the same bytes with private headers. A rule to
//! the preview's `runtime-required` error (a tree built without a runtime origin) is
//! `NeedsRuntime`: what only the runtime can answer.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::routes::RUNTIME_REQUIRED;

/// What the CDN does with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// Serve this file (relative to the site root) with this status and these headers.
    File {
        file: String,
        status: u16,
        headers: Vec<(String, String)>,
    },
    /// A 301/302 to `location`.
    Redirect { status: u16, location: String },
    /// Not in the tree: the runtime answers.
    Runtime,
    /// Only the runtime can answer, and the tree was built without a runtime origin (a
    /// preview): the CDN serves this JSON error with this status (503), never a default file.
    /// A runtime serving the tree itself answers instead.
    NeedsRuntime { file: String, status: u16 },
    /// A rule rewrites to `target`, a file the tree does not hold: the CDN answers its own 404
    /// and tries no other rule. Only an id the tree does not know may get here; a runtime
    /// serving the tree answers such a request itself.
    Missing { target: String },
}

#[derive(Debug, Clone)]
enum Segment {
    Literal(String),
    Placeholder(String),
    Splat,
}

#[derive(Debug, Clone)]
struct Rule {
    from: Vec<Segment>,
    /// (name, Some(literal) | None for a `:placeholder`, placeholder name).
    query: Vec<(String, QueryCondition)>,
    to: String,
    status: u16,
    /// `!`: applies even where a file is at the request path.
    force: bool,
}

#[derive(Debug, Clone)]
enum QueryCondition {
    Literal(String),
    Placeholder(String),
}

#[derive(Debug, Clone)]
struct HeaderBlock {
    path: Vec<Segment>,
    headers: Vec<(String, String)>,
}

/// A built site/ with its routing files parsed.
#[derive(Debug)]
pub struct StaticSite {
    root: PathBuf,
    rules: Vec<Rule>,
    /// Rules whose path is all literals, by path (indexes into `rules`), so a lookup does not
    /// scan thousands of per-compound rules.
    literal: HashMap<String, Vec<usize>>,
    /// Rules with placeholders or splats (a few dozen), in file order.
    patterned: Vec<usize>,
    headers: Vec<HeaderBlock>,
    literal_headers: HashMap<String, Vec<usize>>,
    patterned_headers: Vec<usize>,
}

#[derive(Debug, thiserror::Error)]
pub enum SiteError {
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("{file}:{line}: {message}")]
    Syntax {
        file: String,
        line: usize,
        message: String,
    },
}

impl StaticSite {
    /// Reads `root/_redirects` and `root/_headers`.
    pub fn open(root: &Path) -> Result<StaticSite, SiteError> {
        let read = |name: &str| {
            let path = root.join(name);
            std::fs::read_to_string(&path).map_err(|e| SiteError::Io(path.display().to_string(), e))
        };
        let rules = parse_redirects(&read("_redirects")?)?;
        let headers = parse_headers(&read("_headers")?)?;
        let mut site = StaticSite {
            root: root.to_path_buf(),
            rules,
            literal: HashMap::new(),
            patterned: Vec::new(),
            headers,
            literal_headers: HashMap::new(),
            patterned_headers: Vec::new(),
        };
        for (i, r) in site.rules.iter().enumerate() {
            match literal_path(&r.from) {
                Some(p) => site.literal.entry(p).or_default().push(i),
                None => site.patterned.push(i),
            }
        }
        for (i, h) in site.headers.iter().enumerate() {
            match literal_path(&h.path) {
                Some(p) => site.literal_headers.entry(p).or_default().push(i),
                None => site.patterned_headers.push(i),
            }
        }
        Ok(site)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Whether every file matches the manifest of a build of this dataset fingerprint.
    pub fn verify(&self, fingerprint: &str) -> bool {
        super::verify(&self.root, fingerprint)
    }

    /// Resolves a request path and its decoded query pairs.
    pub fn resolve(&self, path: &str, query: &[(String, String)]) -> Resolution {
        let segments: Vec<&str> = split(path);
        let mut candidates: Vec<usize> = self
            .literal
            .get(path)
            .into_iter()
            .flatten()
            .chain(&self.patterned)
            .copied()
            .collect();
        candidates.sort_unstable();
        for i in candidates {
            let rule = &self.rules[i];
            let Some(mut bound) = match_path(&rule.from, &segments) else {
                continue;
            };
            if !match_query(&rule.query, query, &mut bound) {
                continue;
            }
            if !rule.force
                && let Some(file) = self.shadowing_file(path)
            {
                return self.file(path, file, 200);
            }
            return self.apply(path, query, rule, &bound);
        }
        match self.shadowing_file(path) {
            Some(file) => self.file(path, file, 200),
            None => Resolution::Runtime,
        }
    }

    /// Whether `resolve` reads the query at `path`: a rule whose path matches it has query
    /// conditions. When none has, every query of `path` resolves alike (a runtime holding
    /// the tree's answers keeps one per path, not one per query string).
    pub fn reads_query(&self, path: &str) -> bool {
        let segments = split(path);
        self.literal
            .get(path)
            .into_iter()
            .flatten()
            .chain(&self.patterned)
            .map(|&i| &self.rules[i])
            .any(|rule| !rule.query.is_empty() && match_path(&rule.from, &segments).is_some())
    }

    /// What the CDN does with the first rule that matched.
    fn apply(
        &self,
        path: &str,
        query: &[(String, String)],
        rule: &Rule,
        bound: &[(String, String)],
    ) -> Resolution {
        let target = substitute(&rule.to, bound);
        if target.trim_start_matches('/') == RUNTIME_REQUIRED {
            return Resolution::NeedsRuntime {
                file: RUNTIME_REQUIRED.to_string(),
                status: rule.status,
            };
        }
        // A proxy, or an error status: the runtime answers (errors carry its private
        // cache headers, which the CDN's path-matched headers could not).
        if target.starts_with("http://") || target.starts_with("https://") || rule.status >= 400 {
            return Resolution::Runtime;
        }
        if matches!(rule.status, 301 | 302 | 303 | 307 | 308) {
            // A rule with no query condition passes the request's query on to its target.
            let location = match rule.query.is_empty() {
                true => {
                    let pairs: Vec<(&str, &str)> = query
                        .iter()
                        .map(|(k, v)| (k.as_str(), v.as_str()))
                        .collect();
                    crate::api::with_query(&target, &pairs)
                }
                false => target,
            };
            return Resolution::Redirect {
                status: rule.status,
                location,
            };
        }
        let file = target.trim_start_matches('/').to_string();
        if self.root.join(&file).is_file() {
            self.file(path, file, rule.status)
        } else {
            Resolution::Missing { target }
        }
    }

    /// The file the CDN serves at the request path itself (not the routing files, not build
    /// data): the path, or as a page `path.html` or `path/index.html`.
    fn shadowing_file(&self, path: &str) -> Option<String> {
        let rel = path.trim_start_matches('/');
        if rel.starts_with('_') || rel.contains("..") {
            return None;
        }
        let candidates = match rel.strip_suffix('/') {
            Some(dir) if !dir.is_empty() => {
                vec![format!("{dir}.html"), format!("{dir}/index.html")]
            }
            _ if rel.is_empty() => vec!["index.html".to_string()],
            _ => vec![
                rel.to_string(),
                format!("{rel}.html"),
                format!("{rel}/index.html"),
            ],
        };
        candidates.into_iter().find(|f| self.root.join(f).is_file())
    }

    fn file(&self, path: &str, file: String, status: u16) -> Resolution {
        let mut headers: Vec<(String, String)> =
            vec![("content-type".into(), content_type(&file).to_string())];
        let segments = split(path);
        let mut blocks: Vec<usize> = self
            .literal_headers
            .get(path)
            .into_iter()
            .flatten()
            .chain(&self.patterned_headers)
            .copied()
            .filter(|i| match_path(&self.headers[*i].path, &segments).is_some())
            .collect();
        blocks.sort_unstable();
        for i in blocks {
            for (name, value) in &self.headers[i].headers {
                let name = name.to_ascii_lowercase();
                match headers.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, v)) => {
                        v.push_str(", ");
                        v.push_str(value);
                    }
                    None => headers.push((name, value.clone())),
                }
            }
        }
        Resolution::File {
            file,
            status,
            headers,
        }
    }
}

/// Content-Type by file extension, as the CDN infers it.
pub fn content_type(file: &str) -> &'static str {
    match file.rsplit('.').next() {
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("html") => "text/html; charset=utf-8",
        Some("xml") => "application/xml",
        Some("txt") => "text/plain; charset=utf-8",
        Some("zst") => "application/zstd",
        _ => "application/octet-stream",
    }
}

fn split(path: &str) -> Vec<&str> {
    path.split('/').filter(|s| !s.is_empty()).collect()
}

fn parse_path(text: &str) -> Vec<Segment> {
    split(text)
        .into_iter()
        .map(|s| {
            if s == "*" {
                Segment::Splat
            } else if let Some(name) = s.strip_prefix(':') {
                Segment::Placeholder(name.to_string())
            } else {
                Segment::Literal(s.to_string())
            }
        })
        .collect()
}

fn literal_path(segments: &[Segment]) -> Option<String> {
    let mut out = String::new();
    for s in segments {
        match s {
            Segment::Literal(l) => {
                out.push('/');
                out.push_str(l);
            }
            _ => return None,
        }
    }
    Some(if out.is_empty() { "/".into() } else { out })
}

fn match_path(pattern: &[Segment], segments: &[&str]) -> Option<Vec<(String, String)>> {
    let mut bound = Vec::new();
    for (i, p) in pattern.iter().enumerate() {
        match p {
            Segment::Splat => {
                bound.push(("splat".into(), segments.get(i..)?.join("/")));
                return Some(bound);
            }
            Segment::Literal(l) => {
                if segments.get(i) != Some(&l.as_str()) {
                    return None;
                }
            }
            Segment::Placeholder(name) => bound.push((name.clone(), (*segments.get(i)?).into())),
        }
    }
    (pattern.len() == segments.len()).then_some(bound)
}

fn match_query(
    conditions: &[(String, QueryCondition)],
    query: &[(String, String)],
    bound: &mut Vec<(String, String)>,
) -> bool {
    for (name, condition) in conditions {
        let Some((_, value)) = query.iter().find(|(k, _)| k == name) else {
            return false;
        };
        match condition {
            QueryCondition::Literal(l) if l != value => return false,
            QueryCondition::Literal(_) => {}
            QueryCondition::Placeholder(p) => bound.push((p.clone(), value.clone())),
        }
    }
    true
}

fn substitute(target: &str, bound: &[(String, String)]) -> String {
    let mut out = target.to_string();
    // Longest names first, so `:id` never eats the start of `:identifier`.
    let mut names: Vec<&(String, String)> = bound.iter().collect();
    names.sort_by_key(|(n, _)| std::cmp::Reverse(n.len()));
    for (name, value) in names {
        out = out.replace(&format!(":{name}"), value);
    }
    out
}

fn parse_redirects(text: &str) -> Result<Vec<Rule>, SiteError> {
    let mut rules = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let syntax = |message: &str| SiteError::Syntax {
            file: "_redirects".into(),
            line: n + 1,
            message: message.into(),
        };
        let (from, rest) = fields.split_first().ok_or_else(|| syntax("empty rule"))?;
        let mut query = Vec::new();
        let mut i = 0;
        // Conditions are `k=v` fields before the target (which is a path or a URL, and may
        // hold `=` in its own query).
        while let Some((k, v)) = rest
            .get(i)
            .filter(|f| !f.starts_with('/') && !f.contains("://"))
            .and_then(|f| f.split_once('='))
        {
            let condition = match v.strip_prefix(':') {
                Some(p) => QueryCondition::Placeholder(p.to_string()),
                None => QueryCondition::Literal(v.to_string()),
            };
            query.push((k.to_string(), condition));
            i += 1;
        }
        let to = rest.get(i).ok_or_else(|| syntax("no target"))?;
        let (status, force) = match rest.get(i + 1) {
            Some(s) => (
                s.trim_end_matches('!')
                    .parse()
                    .map_err(|_| syntax("status is not a number"))?,
                s.ends_with('!'),
            ),
            None => (301, false),
        };
        rules.push(Rule {
            from: parse_path(from),
            query,
            to: to.to_string(),
            status,
            force,
        });
    }
    Ok(rules)
}

fn parse_headers(text: &str) -> Result<Vec<HeaderBlock>, SiteError> {
    let mut blocks: Vec<HeaderBlock> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if !line.starts_with(char::is_whitespace) {
            blocks.push(HeaderBlock {
                path: parse_path(line.trim()),
                headers: Vec::new(),
            });
            continue;
        }
        let syntax = |message: &str| SiteError::Syntax {
            file: "_headers".into(),
            line: n + 1,
            message: message.into(),
        };
        let (name, value) = line
            .trim()
            .split_once(':')
            .ok_or_else(|| syntax("expected `Name: value`"))?;
        blocks
            .last_mut()
            .ok_or_else(|| syntax("a header before any path"))?
            .headers
            .push((name.trim().to_string(), value.trim().to_string()));
    }
    Ok(blocks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(redirects: &str, headers: &str, files: &[&str]) -> (tempfile::TempDir, StaticSite) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("_redirects"), redirects).unwrap();
        std::fs::write(dir.path().join("_headers"), headers).unwrap();
        for f in files {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        let site = StaticSite::open(dir.path()).unwrap();
        (dir, site)
    }

    fn q(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn file_of(r: Resolution) -> Option<(String, u16)> {
        match r {
            Resolution::File { file, status, .. } => Some((file, status)),
            _ => None,
        }
    }

    #[test]
    fn first_matching_rule_wins_and_query_conditions_must_all_hold() {
        let (_d, s) = site(
            "/a/:id x=1 /a/:id/one.json 200\n/a/:id x=:v https://rt.example/a/:id?x=:v 200\n/a/:id /a/:id.json 200\n",
            "",
            &["a/k/one.json", "a/k.json"],
        );
        assert_eq!(
            file_of(s.resolve("/a/k", &q(&[("x", "1")]))),
            Some(("a/k/one.json".into(), 200))
        );
        assert_eq!(s.resolve("/a/k", &q(&[("x", "2")])), Resolution::Runtime);
        assert_eq!(
            file_of(s.resolve("/a/k", &[])),
            Some(("a/k.json".into(), 200))
        );
        // Unknown id: the first matching rule's target is missing, and the CDN says 404 without
        // trying the rules below it.
        assert_eq!(
            s.resolve("/a/zz", &[]),
            Resolution::Missing {
                target: "/a/zz.json".into()
            }
        );
        assert_eq!(s.resolve("/a/k/extra", &[]), Resolution::Runtime);
    }

    #[test]
    fn only_a_path_a_rule_with_query_conditions_matches_reads_the_query() {
        let (_d, s) = site(
            "/a/:id x=1 /a/:id/one.json 200\n/b/:id /b/:id.json 200\n/c /c.json 200\n",
            "",
            &["a/k/one.json", "b/k.json", "c.json"],
        );
        assert!(s.reads_query("/a/k"));
        assert!(!s.reads_query("/b/k"));
        assert!(!s.reads_query("/c"));
        assert!(!s.reads_query("/a/k/deeper"));
        // What `reads_query` promises: a path that does not read it resolves alike whatever
        // the query.
        for path in ["/b/k", "/c", "/a/k/deeper"] {
            assert_eq!(s.resolve(path, &[]), s.resolve(path, &q(&[("x", "1")])));
        }
        assert_ne!(s.resolve("/a/k", &[]), s.resolve("/a/k", &q(&[("x", "1")])));
    }

    #[test]
    fn redirects_substitute_placeholders_and_splats_take_the_rest() {
        let (_d, s) = site(
            "/c/:cas go=true ctx=:ctx /x/:cas?ctx=:ctx 302\n/d/* /e/:splat 200\n",
            "",
            &["e/f/g.json"],
        );
        assert_eq!(
            s.resolve("/c/50-00-0", &q(&[("go", "true"), ("ctx", "dog")])),
            Resolution::Redirect {
                status: 302,
                location: "/x/50-00-0?ctx=dog".into()
            }
        );
        assert_eq!(
            file_of(s.resolve("/d/f/g.json", &[])),
            Some(("e/f/g.json".into(), 200))
        );
    }

    #[test]
    fn a_redirect_without_query_conditions_keeps_the_request_query() {
        let (_d, s) = site(
            "/p/old /p/new 301!\n/p/:id /p/:id.json 200\n",
            "",
            &["p/new.json"],
        );
        assert_eq!(
            s.resolve("/p/old", &q(&[("style", "pill"), ("label", "a b")])),
            Resolution::Redirect {
                status: 301,
                location: "/p/new?style=pill&label=a+b".into()
            }
        );
        assert_eq!(
            s.resolve("/p/old", &[]),
            Resolution::Redirect {
                status: 301,
                location: "/p/new".into()
            }
        );
    }

    #[test]
    fn headers_of_every_matching_block_apply_and_repeat_names_are_joined() {
        let (_d, s) = site(
            "/a/:id /a/:id.json 200\n",
            "# c\n/a/*\n  X-One: 1\n/a/k\n  X-One: 2\n  Surrogate-Key: k\n/b/*\n  X-Two: 2\n",
            &["a/k.json"],
        );
        let Resolution::File { headers, .. } = s.resolve("/a/k", &[]) else {
            panic!("not a file")
        };
        assert_eq!(
            headers,
            vec![
                ("content-type".into(), "application/json".into()),
                ("x-one".into(), "1, 2".into()),
                ("surrogate-key".into(), "k".into()),
            ]
        );
    }

    #[test]
    fn a_rule_to_the_runtime_required_error_needs_the_runtime_and_serves_no_default() {
        let (_d, s) = site(
            "/a/:id x=1 /a/:id/one.json 200!\n/a/:id x=:x /api/runtime-required.json 503!\n/a/:id /a/:id.json 200\n",
            "",
            &["a/k/one.json", "a/k.json", "api/runtime-required.json"],
        );
        assert_eq!(
            s.resolve("/a/k", &q(&[("x", "2")])),
            Resolution::NeedsRuntime {
                file: "api/runtime-required.json".into(),
                status: 503
            }
        );
        assert_eq!(
            file_of(s.resolve("/a/k", &q(&[("x", "1")]))),
            Some(("a/k/one.json".into(), 200))
        );
    }

    #[test]
    fn a_page_at_the_request_path_shadows_unforced_rules_only() {
        let (_d, s) = site(
            "/p/:id q=1 /other.json 200!\n/p/:id /other.json 200\n/p/* https://rt.example/p/:splat 200\n",
            "",
            &["p/k.html", "d/index.html", "other.json"],
        );
        assert_eq!(
            file_of(s.resolve("/p/k", &[])),
            Some(("p/k.html".into(), 200))
        );
        assert_eq!(
            file_of(s.resolve("/p/k", &q(&[("q", "1")]))),
            Some(("other.json".into(), 200))
        );
        assert_eq!(
            file_of(s.resolve("/p/zz", &[])),
            Some(("other.json".into(), 200))
        );
        assert_eq!(
            file_of(s.resolve("/d", &[])),
            Some(("d/index.html".into(), 200))
        );
        assert_eq!(
            file_of(s.resolve("/d/", &[])),
            Some(("d/index.html".into(), 200))
        );
    }

    #[test]
    fn a_file_at_the_request_path_shadows_the_rules_but_routing_files_are_not_served() {
        let (_d, s) = site("/* /x.json 200\n", "", &["api/x.svg", "x.json"]);
        assert_eq!(
            file_of(s.resolve("/api/x.svg", &[])),
            Some(("api/x.svg".into(), 200))
        );
        assert_eq!(
            file_of(s.resolve("/_redirects", &[])),
            Some(("x.json".into(), 200))
        );
        let (_d, s) = site("/_data/* /404.json 404!\n", "", &["_data/x", "404.json"]);
        assert_eq!(s.resolve("/_data/x", &[]), Resolution::Runtime);
    }
}
