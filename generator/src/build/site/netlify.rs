//! `_redirects` and `_headers` for the CDN (Netlify syntax), rendered from the route table.
//! `cdn.rs` reads them back the way the CDN does; the runtime serves site/ through it.
//!
//! Routing (ARCHITECTURE.md, "How the CDN routes"): the rules are placeholders, and rules
//! naming an id only for the exceptions, within a fixed budget, so their number does not grow
//! past `MAX_RULES` with the corpus. A request whose query names an
//! enumerated value (one of the 19 contexts, a badge style, `all_contexts=true`,
//! `format=json|postman`) is rewritten to its precomputed file only when every id the
//! placeholder takes has that file with a 200, but the ids that exception rules above it send
//! to the runtime: the CDN answers a rewrite to a missing file with its own 404 and tries no
//! other rule. An id that answers a variant otherwise (a critical threat's 403, a 422 for a
//! context without evidence) gets such a rule of its own, as many as fit in `MAX_RULES`
//! (`exceptions.rs`); a variant whose exceptions do not fit, or that a kind of id lacks
//! altogether (a material's 400 badge in another context), goes to the runtime for every id.
//! Any other value of an enumerated parameter (aliases, custom badge labels), `redirect=true`
//! CAS lookups and everything else go to the runtime too; without a runtime origin (a
//! preview) they get the JSON 503 saying so. Pages and files whose path is
//! their file (`/compound/{id}` is `compound/{id}.html`, `/sitemap.xml`) need no rule: the CDN
//! serves a file at the request path, and an id without a page falls to the runtime's rule.
//! Every rule with a query condition is forced (`!`): the CDN serves a file at the request
//! path, including a page's `index.html` under it, before any unforced rule, so
//! `/api/release-notes?format=json` would otherwise get the HTML page. `/api/v1/` is the
//! runtime's alone (forced, first): a key in the `X-API-Key` header reaches the runtime there.
//! A retired material or product id (`data/retired.tsv`) gets a forced 301 per path that names
//! it, to the same path for its replacement, right after: the CDN passes the query on.
//!
//! Headers: one block per request path of a 200 response, so no two blocks set the same
//! header for a path (the CDN would join their values); Content-Type comes from the file
//! extension. One `/*` block before them lets any page read every public file (CORS, as the
//! docs page's "Browser access" section says); it sets no header the path blocks set.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::exceptions::{self, Exceptions};
use super::routes::{PATTERNS, RUNTIME_REQUIRED, Route, RouteMeta, every_id_has, expand};
use crate::model::Dataset;
use crate::render::{Cache, Rendered};

/// A pattern's query (if any) and file, for one path.
type Variant<'a> = (Option<&'a str>, &'a str);

/// A route path's query (if any) and where the CDN finds its answer, the patterns'
/// placeholders filled in.
type Filled = (Option<String>, Target);

/// Where a precomputed variant is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Target {
    /// This file, which every id the path's placeholder takes has, with a 200, but those an
    /// exception rule sends to the runtime first.
    File(String),
    /// The file at the request path itself (a page, `/sitemap.xml`): the CDN serves it before
    /// any unforced rule, so it needs none.
    AtPath,
    /// The runtime, for every id: some id has no such file or answers otherwise.
    Runtime,
}

/// The first segment of the entity pages' paths (`/compound/{id}`...).
const PAGE_PREFIXES: [&str; 3] = ["compound", "material", "product"];

/// What `redirects` and `headers` need of a group of routes: every response that is not 200,
/// and the first 200 of each path. Fails if two 200 variants of a path disagree on headers
/// (the CDN matches headers by path only, so it could not tell them apart).
pub fn routing_entries(routes: &[Route]) -> anyhow::Result<Vec<RouteMeta>> {
    let mut out: Vec<RouteMeta> = Vec::new();
    let mut first: BTreeMap<&str, &Route> = BTreeMap::new();
    for r in routes {
        if r.rendered.status != 200 {
            out.push(r.meta());
            continue;
        }
        match first.get(r.path.as_str()) {
            // The headers are a function of these two.
            Some(other)
                if (other.rendered.cache, &other.rendered.surrogate_key)
                    != (r.rendered.cache, &r.rendered.surrogate_key) =>
            {
                anyhow::bail!(
                    "{} answers with other headers for {:?} than for {:?}: the CDN matches headers by path only",
                    r.path,
                    r.query,
                    other.query
                );
            }
            Some(_) => {}
            None => {
                first.insert(&r.path, r);
                out.push(r.meta());
            }
        }
    }
    Ok(out)
}

/// Most rules `_redirects` may hold: Netlify advises placeholders beyond 10,000 rules and
/// fails a deploy whose rules are too large. The placeholders do not grow with the corpus;
/// the exceptions fill the rest, and no more.
pub const MAX_RULES: usize = 2_000;

/// The `_redirects` text and its number of rules, from the routing entries of every route:
/// the placeholder rules, and before them as many exception rules as fit in `MAX_RULES`
/// (`exceptions::plan`).
pub fn redirects(
    routes: &[RouteMeta],
    dataset: &Dataset,
    runtime_origin: Option<&str>,
) -> (String, usize) {
    let (_, placeholders) = render_redirects(dataset, runtime_origin, &exceptions::plan(routes, 0));
    let planned = exceptions::plan(routes, MAX_RULES.saturating_sub(placeholders));
    render_redirects(dataset, runtime_origin, &planned)
}

/// `_redirects` with these exceptions.
fn render_redirects(
    dataset: &Dataset,
    runtime_origin: Option<&str>,
    exceptions: &Exceptions,
) -> (String, usize) {
    let origin = runtime_origin.map(|o| o.trim_end_matches('/'));
    let mut out = String::from(
        "# Generated by `saferef-generate build` from the route table (generator/src/build/site/routes.rs).\n\
         # First match wins.\n\n",
    );
    let mut rules = 0;
    let mut rule = |out: &mut String, line: String| {
        out.push_str(&line);
        out.push('\n');
        rules += 1;
    };
    out.push_str("# Build data (the dataset snapshot, build state) is not published.\n");
    rule(&mut out, "/_data/* /api/404.json 404!".into());
    // Where only the runtime can answer: proxied to it, or in a preview the JSON error saying
    // so (never the default file, which would be another answer with a 200).
    let runtime = |path: &str| match origin {
        Some(o) => format!("{o}{path} 200!"),
        None => format!("/{RUNTIME_REQUIRED} 503!"),
    };
    out.push_str(
        "\n# The service's own base: never a file, so a key in the X-API-Key header is read there.\n",
    );
    rule(&mut out, format!("/api/v1/* {}", runtime("/api/v1/:splat")));
    let forwards = crate::render::moved::forwards(dataset);
    if !forwards.is_empty() {
        out.push_str(
            "\n# Retired ids (data/retired.tsv): a 301 to the same path for the replacement; the CDN keeps the query.\n",
        );
    }
    for (from, to) in forwards {
        rule(&mut out, format!("{from} {to} 301!"));
    }
    if !exceptions.rules.is_empty() {
        out.push_str(
            "\n# Ids that answer otherwise than the placeholders' files (a 403, a context without evidence: 422).\n",
        );
    }
    for (path, query) in &exceptions.rules {
        let line = match query {
            Some(q) => format!("{path} {q} {}", runtime(path)),
            None => format!("{path} {}", runtime(path)),
        };
        rule(&mut out, line);
    }
    out.push_str(match origin {
        Some(_) => {
            "\n# Precomputed responses, where every id but those above has the file; any other query the endpoint reads goes to the runtime.\n"
        }
        None => {
            "\n# Precomputed responses, where every id but those above has the file; any other query the endpoint reads needs the runtime.\n"
        }
    });
    for (path, variants) in placeholders(dataset, exceptions) {
        for line in precomputed(&path, &variants, &runtime(&path)) {
            rule(&mut out, line);
        }
    }
    match origin {
        Some(o) => {
            out.push_str(
                "\n# Everything else: the runtime (an id without a page: its 404 or 403).\n",
            );
            for prefix in PAGE_PREFIXES {
                rule(&mut out, format!("/{prefix}/* {o}/{prefix}/:splat 200"));
            }
            rule(&mut out, format!("/api/* {o}/api/:splat 200"));
        }
        None => {
            out.push_str(
                "\n# Everything else needs the runtime, and no runtime origin was given (--runtime-origin);\n# an id without a page is the 404.\n",
            );
            for prefix in PAGE_PREFIXES {
                rule(&mut out, format!("/{prefix}/* /api/404.json 404"));
            }
            rule(&mut out, format!("/api/* /{RUNTIME_REQUIRED} 503"));
        }
    }
    (out, rules)
}

/// Every request path of `PATTERNS` (a path pattern's variants expanded, in the table's
/// order) with where each of its variants is answered: at the path itself, by the runtime (an
/// exception left out of the budget, or a file some id lacks), or from a file.
fn placeholders(dataset: &Dataset, exceptions: &Exceptions) -> Vec<(String, Vec<Filled>)> {
    let mut out = Vec::new();
    let mut by_path: Vec<(&str, Vec<Variant<'_>>)> = Vec::new();
    for (_, path, query, file) in PATTERNS {
        match by_path.iter_mut().find(|(p, _)| p == path) {
            Some((_, variants)) => variants.push((*query, file)),
            None => by_path.push((path, vec![(*query, file)])),
        }
    }
    for (pattern, variants) in by_path {
        let mut expanded: Vec<(String, Vec<Filled>)> = Vec::new();
        for (query, file) in &variants {
            for (path, q, f) in expand(pattern, *query, file) {
                let target = if q.is_none() && at_request_path(&path, &f) {
                    Target::AtPath
                } else if exceptions.runtime.contains(&f) || !every_id_has(dataset, &f) {
                    Target::Runtime
                } else {
                    Target::File(f)
                };
                match expanded.iter_mut().find(|(p, _)| *p == path) {
                    Some((_, v)) => v.push((q, target)),
                    None => expanded.push((path, vec![(q, target)])),
                }
            }
        }
        out.extend(expanded);
    }
    out
}

/// Whether the CDN finds a pattern's file at its request path (the path itself, or a page's
/// `path.html` or `path/index.html`), so that it needs no rule.
fn at_request_path(path: &str, file: &str) -> bool {
    let path = path.trim_end_matches('/');
    [
        path.to_string(),
        format!("{path}.html"),
        format!("{path}/index.html"),
    ]
    .contains(&file.to_string())
}

/// The rules of one request path: each precomputed variant's file (or the runtime where it has
/// none), answered only when the
/// query holds exactly that variant's parameters of those the endpoint reads; any other value
/// or combination goes to `runtime` (a rule target). Netlify matches a rule when its query
/// conditions are present, whatever else the query holds, so every other parameter the
/// endpoint reads is sent to the runtime first: those no variant names before all variants,
/// the others before the first variant without them (variants with more conditions come
/// first). The endpoint's parameters are the catalogue's (the OpenAPI's), plus `api_key` where
/// a keyed caller gets more than the file (a key in the `X-API-Key` header cannot be routed
/// on by the CDN: those callers use `/api/v1/`, which is the runtime's).
fn precomputed(path: &str, variants: &[Filled], runtime: &str) -> Vec<String> {
    let conditions = |q: &Option<String>| -> Vec<(String, String)> {
        q.iter()
            .flat_map(|q| q.split(' '))
            .filter_map(|c| c.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let named: Vec<String> = variants
        .iter()
        .flat_map(|(q, _)| conditions(q))
        .map(|(k, _)| k)
        .fold(Vec::new(), |mut acc, k| {
            if !acc.contains(&k) {
                acc.push(k);
            }
            acc
        });
    let any = |names: &[&str]| -> String {
        names
            .iter()
            .map(|n| format!("{n}=:{n}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = Vec::new();
    for p in endpoint_params(path) {
        if !named.iter().any(|n| n == p) {
            out.push(format!("{path} {} {runtime}", any(&[p])));
        }
    }
    let mut guarded: Vec<Vec<String>> = Vec::new();
    for (q, file) in variants {
        let own = conditions(q);
        let own_names: Vec<&str> = own.iter().map(|(k, _)| k.as_str()).collect();
        for other in named.iter().filter(|n| !own_names.contains(&n.as_str())) {
            let mut names = own_names.clone();
            names.push(other);
            let mut set: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            set.sort_unstable();
            if !guarded.contains(&set) {
                out.push(format!("{path} {} {runtime}", any(&names)));
                guarded.push(set);
            }
        }
        match (q, file) {
            (Some(q), Target::File(file)) => out.push(format!("{path} {q} {file} 200!")),
            (None, Target::File(file)) => out.push(format!("{path} {file} 200")),
            (Some(q), Target::Runtime) => out.push(format!("{path} {q} {runtime}")),
            (None, Target::Runtime) => out.push(format!("{path} {runtime}")),
            (_, Target::AtPath) => {}
        }
    }
    out
}

/// The query parameters the endpoint at a route path reads (`:name` segments are the
/// catalogue's `{name}`), with `api_key` where its keyed form has more.
fn endpoint_params(path: &str) -> Vec<&'static str> {
    let found = crate::api::resolve_path(path);
    let Some((endpoint, _)) = found.iter().find(|(e, _)| e.method == "GET") else {
        return Vec::new();
    };
    let mut params: Vec<&'static str> = endpoint
        .params
        .iter()
        .filter(|p| p.location == crate::api::In::Query)
        .map(|p| p.name)
        .collect();
    if endpoint.keyed_form {
        params.push("api_key");
    }
    params
}

/// The response headers a page on another origin may read besides the ones every browser
/// lets it read (Cache-Control, Content-Type, ...): the ETag to revalidate, and the quota
/// headers the docs page lists (rate limit, tier, usage warning, retry time).
pub const CORS_EXPOSE_HEADERS: &str = "ETag, Retry-After, X-API-Tier, X-RateLimit-Limit, \
     X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy, X-Usage-Warning, \
     X-Upgrade-URL, Content-Disposition";

/// The CORS headers of every file in the tree: any origin may read it. The files are public
/// and the same for every caller, and a CDN's `_headers` cannot depend on the request's
/// Origin; the runtime answers its own responses by `SAFEREF_CORS_ORIGINS`.
pub fn cors_lines() -> [(&'static str, &'static str); 2] {
    [
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS),
    ]
}

/// The security headers of every HTML page, from the CDN (`_headers`) and from the runtime
/// alike: no framing, no MIME sniffing, no referrer sent to other sites, and a policy that
/// lets a page load only this origin's scripts, styles, images and API (the pages' scripts
/// and styles are inline, and the compound page's tier cells set their colour inline).
pub fn html_security_lines() -> [(&'static str, &'static str); 4] {
    [
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "strict-origin-when-cross-origin"),
    ]
}

/// The `_headers` text: the CORS block for every path, the security block of the HTML pages
/// (one wildcard block per entity page prefix), then for every request path answered 200
/// from a file, its cache policy, `Vary` for public compound responses, and the entity's
/// purge key (from routing entries, where each path's variants already agree).
pub fn headers(routes: &[RouteMeta]) -> String {
    let by_path: BTreeMap<&str, &RouteMeta> = routes
        .iter()
        .filter(|r| r.status == 200)
        .map(|r| (r.path.as_str(), r))
        .collect();
    let mut out = String::from(
        "# Generated by `saferef-generate build`: one block per path (Content-Type comes from\n# the file extension), after the CORS headers every path gets.\n/*\n",
    );
    for (name, value) in cors_lines() {
        let _ = writeln!(out, "  {name}: {value}");
    }
    // A document's path (`/api/privacy`) answers HTML and, with `format=json`, JSON, and only
    // its first answer is a routing entry: the catalogue names the paths that are a page in
    // one of their forms, and the block covers every form (harmless on JSON), as the runtime
    // sends it (`http/handlers.rs`).
    let documents = crate::api::ENDPOINTS
        .iter()
        .filter(|e| matches!(e.answer, crate::api::Answer::HtmlOrJson(_)))
        .map(|e| e.path)
        .filter(|p| by_path.contains_key(p));
    let pages: std::collections::BTreeSet<String> = by_path
        .iter()
        .filter(|(_, r)| r.file.ends_with(".html"))
        .map(|(path, _)| {
            let prefix = path.trim_start_matches('/').split('/').next();
            match prefix.filter(|p| path.len() > p.len() + 1 && PAGE_PREFIXES.contains(p)) {
                Some(p) => format!("/{p}/*"),
                None => path.to_string(),
            }
        })
        .chain(documents.map(str::to_string))
        .collect();
    for page in pages {
        let _ = writeln!(out, "{page}");
        for (name, value) in html_security_lines() {
            let _ = writeln!(out, "  {name}: {value}");
        }
    }
    for (path, r) in by_path {
        let _ = writeln!(out, "{path}");
        for (name, value) in lines(r.cache, r.surrogate_key.as_deref()) {
            let _ = writeln!(out, "  {name}: {value}");
        }
    }
    out
}

/// The cache headers a 200 response carries, the same for the CDN and the runtime.
pub fn header_lines(r: &Rendered) -> Vec<(&'static str, String)> {
    lines(r.cache, r.surrogate_key.as_deref())
}

fn lines(cache: Cache, surrogate_key: Option<&str>) -> Vec<(&'static str, String)> {
    let mut lines = vec![("Cache-Control", cache.header().to_string())];
    if cache == Cache::PublicCompound {
        lines.push(("Vary", crate::render::VARY.to_string()));
    }
    if let Some(key) = surrogate_key {
        lines.push(("Surrogate-Key", key.to_string()));
        lines.push(("Netlify-Cache-Tag", key.to_string()));
    }
    lines
}
