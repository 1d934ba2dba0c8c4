//! The exception rules of `_redirects`: the request paths whose answer is not the 200 file a
//! placeholder rule rewrites to (a critical-threat compound answers 403 on all its paths, a
//! compound without evidence in a context answers that context with a 422), each sent to the
//! runtime by a rule naming its id, before the placeholders (ARCHITECTURE.md, "How the CDN
//! routes"). The CDN takes the first rule that matches, so such a rule lets the placeholder
//! rewrite every other id to its file.
//!
//! Bounded: a variant (a precomputed file as `PATTERNS` writes it, such as
//! `/api/compound/:id/context/dog.json`) gets its exceptions only while the whole of
//! `_redirects` stays within its budget, the cheapest variants first; a variant whose
//! exceptions do not fit is the runtime's for every id, as is one the plan leaves out.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::routes::{PATTERNS, RouteMeta, expand};

/// Files that are bodies for the CDN's own fallbacks, not answers to their paths.
pub const FALLBACK_BODIES: [&str; 3] = ["not_found", "badge_not_found", "runtime_required"];

/// Which variants some id answers otherwise than with its 200 file, and the rules that send
/// those ids to the runtime.
#[derive(Debug, Default)]
pub struct Exceptions {
    /// Variants some id answers otherwise whose exceptions are not in `rules`: the placeholder
    /// must send every id to the runtime.
    pub runtime: HashSet<String>,
    /// The exception rules: a request path, with the query condition of what it answers
    /// otherwise (`context=dog`, or `context=:context` for every context of the path where it
    /// has none of the variants the placeholders answer from files), or none when the path
    /// has no 200 answer at all.
    pub rules: Vec<(String, Option<String>)>,
}

/// The variants of one `PATTERNS` entry (`compound_context`: the 19 contexts), as bit sets.
struct Family {
    /// Its path pattern (`/api/compound/:id`).
    path: &'static str,
    /// Each variant's file and query, by bit.
    files: Vec<String>,
    queries: Vec<Option<String>>,
    /// The condition matching every variant (`context=:context`), when it has a query.
    any: Option<String>,
    /// Variants some path with no 200 answer at all answers otherwise.
    on_whole: u128,
    /// By path with some 200 answer, the variants it answers otherwise.
    partial: BTreeMap<String, u128>,
    /// Variants answered from files (with their exceptions).
    chosen: u128,
}

/// The rules one path needs for the variants of a family it answers otherwise (`missing`)
/// when `chosen` are answered from files: none, one for every variant of the family when it
/// has none of the chosen ones, else one per variant.
fn cost(missing: u128, chosen: u128, any: bool) -> usize {
    let m = (missing & chosen).count_ones() as usize;
    match m {
        0 => 0,
        _ if any && chosen & !missing == 0 => 1,
        _ => m,
    }
}

/// Chooses the exceptions that fit in `budget` rules, from the routing entries of every route
/// (`netlify::routing_entries`: every answer that is not 200, and each path's first 200).
/// Greedy: the variant that costs the fewest more rules first.
pub fn plan(routes: &[RouteMeta], budget: usize) -> Exceptions {
    let (mut families, whole) = families(routes);
    let paid = choose(&mut families, &whole, budget);
    let mut out = Exceptions::default();
    for path in paid.iter().flat_map(|p| &whole[p]) {
        out.rules.push((path.to_string(), None));
    }
    for f in &families {
        for (path, &missing) in &f.partial {
            let m = missing & f.chosen;
            match &f.any {
                Some(any) if m.count_ones() > 1 && f.chosen & !missing == 0 => {
                    out.rules.push((path.clone(), Some(any.clone())));
                }
                _ => out.rules.extend(
                    (0..f.files.len())
                        .filter(|b| m >> b & 1 == 1)
                        .map(|b| (path.clone(), f.queries[b].clone())),
                ),
            }
        }
        out.runtime.extend(f.left_out().map(|b| f.files[b].clone()));
    }
    out.rules.sort_unstable();
    out.rules.dedup();
    out
}

/// By path pattern, the paths with no 200 answer at all that some variant answers otherwise.
type Whole<'r> = BTreeMap<&'static str, BTreeSet<&'r str>>;

/// Every `PATTERNS` entry's family, with what the routes answer otherwise than from its
/// files, each variant answered from files where no id answers it otherwise.
fn families(routes: &[RouteMeta]) -> (Vec<Family>, Whole<'_>) {
    let answered: HashSet<&str> = routes
        .iter()
        .filter(|r| r.status == 200)
        .map(|r| r.path.as_str())
        .collect();
    let mut names: Vec<&str> = Vec::new();
    let mut families: Vec<Family> = Vec::new();
    for &(name, path, query, file) in PATTERNS {
        let variants = expand(path, query, file);
        assert!(variants.len() < 128, "{name}: too many variants");
        names.push(name);
        families.push(Family {
            path,
            files: variants.iter().map(|(_, _, f)| f.clone()).collect(),
            queries: variants.into_iter().map(|(_, q, _)| q).collect(),
            any: query.map(|q| q.replace('{', ":").replace('}', "")),
            on_whole: 0,
            partial: BTreeMap::new(),
            chosen: 0,
        });
    }
    let mut whole: Whole<'_> = BTreeMap::new();
    for r in routes
        .iter()
        .filter(|r| r.status != 200 && !FALLBACK_BODIES.contains(&r.pattern))
    {
        let Some(f) = names.iter().position(|n| *n == r.pattern) else {
            continue;
        };
        let f = &mut families[f];
        let file = variant_file(f.path, r);
        let Some(bit) = f.files.iter().position(|x| *x == file) else {
            continue;
        };
        if answered.contains(r.path.as_str()) {
            *f.partial.entry(r.path.clone()).or_default() |= 1 << bit;
        } else {
            f.on_whole |= 1 << bit;
            whole.entry(f.path).or_default().insert(&r.path);
        }
    }
    // A variant no id answers otherwise is answered from files already.
    for f in &mut families {
        f.chosen = ((1u128 << f.files.len()) - 1) & !f.irregular();
    }
    (families, whole)
}

/// Chooses, cheapest first, the variants answered from files with their exceptions while the
/// rules fit in `budget`; returns the path patterns whose wholly-other paths get a rule each.
fn choose(families: &mut [Family], whole: &Whole<'_>, budget: usize) -> BTreeSet<&'static str> {
    let mut paid: BTreeSet<&'static str> = BTreeSet::new();
    let mut left = budget;
    loop {
        // The cheapest variant; among equals, the first in `PATTERNS` order.
        let mut best: Option<(usize, usize, usize)> = None;
        for (i, f) in families.iter().enumerate() {
            for bit in f.left_out() {
                let with = f.chosen | 1 << bit;
                let shared = match f.on_whole >> bit & 1 == 1 && !paid.contains(f.path) {
                    true => whole.get(f.path).map_or(0, BTreeSet::len),
                    false => 0,
                };
                let any = f.any.is_some();
                let more: usize = f
                    .partial
                    .values()
                    .map(|&m| cost(m, with, any) - cost(m, f.chosen, any))
                    .sum();
                if best.is_none_or(|(c, _, _)| shared + more < c) {
                    best = Some((shared + more, i, bit));
                }
            }
        }
        let Some((c, i, bit)) = best.filter(|(c, _, _)| *c <= left) else {
            return paid;
        };
        left -= c;
        let f = &mut families[i];
        f.chosen |= 1 << bit;
        if f.on_whole >> bit & 1 == 1 {
            paid.insert(f.path);
        }
    }
}

impl Family {
    /// Variants some path answers otherwise than from files.
    fn irregular(&self) -> u128 {
        self.partial.values().fold(self.on_whole, |a, m| a | m)
    }

    /// The variants answered otherwise that are not chosen: the runtime's for every id.
    fn left_out(&self) -> impl Iterator<Item = usize> + '_ {
        let open = self.irregular() & !self.chosen;
        (0..self.files.len()).filter(move |b| open >> b & 1 == 1)
    }
}

/// The variant a route answers, as `PATTERNS` writes its file (`/api/compound/:id/context/dog.json`).
fn variant_file(pattern: &str, r: &RouteMeta) -> String {
    let mut file = format!("/{}", r.file);
    for (t, value) in pattern.split('/').zip(r.path.split('/')) {
        if t.starts_with(':') {
            file = file.replace(value, t);
        }
    }
    file
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Cache;

    fn route(pattern: &'static str, path: &str, query: Option<&str>, status: u16) -> RouteMeta {
        let file = match query {
            Some(q) => format!(
                "{}/context/{}.json",
                &path[1..],
                q.trim_start_matches("context=")
            ),
            None => format!("{}.json", &path[1..]),
        };
        RouteMeta {
            pattern,
            path: path.into(),
            query: query.map(String::from),
            file,
            status,
            cache: Cache::PublicCompound,
            surrogate_key: None,
        }
    }

    /// Four compounds: `id-1` answers everything, `id-2` lacks the dog context, `id-3` has no
    /// context (its record and every context a 422), `id-4` lacks the dog and cat contexts.
    fn routes() -> Vec<RouteMeta> {
        let mut out = Vec::new();
        for (id, dog, cat, record) in [
            ("id-1", 200, 200, 200),
            ("id-2", 422, 200, 200),
            ("id-3", 422, 422, 422),
            ("id-4", 422, 422, 200),
        ] {
            let path = format!("/api/compound/{id}");
            out.push(route("compound_context", &path, Some("context=dog"), dog));
            out.push(route("compound_context", &path, Some("context=cat"), cat));
            out.push(route("compound", &path, None, record));
        }
        out
    }

    fn rule(id: &str, query: Option<&str>) -> (String, Option<String>) {
        (format!("/api/compound/{id}"), query.map(String::from))
    }

    #[test]
    fn each_answer_that_is_not_200_gets_a_rule_when_they_fit() {
        let e = plan(&routes(), 10);
        assert!(e.runtime.is_empty(), "{:?}", e.runtime);
        // `id-4` has the other contexts, answered from files: a rule per context it lacks.
        assert_eq!(
            e.rules,
            [
                rule("id-2", Some("context=dog")),
                rule("id-3", None),
                rule("id-4", Some("context=cat")),
                rule("id-4", Some("context=dog")),
            ]
        );
    }

    #[test]
    fn a_variant_whose_exceptions_do_not_fit_is_the_runtimes_for_every_id() {
        // Two rules: `id-3` whole makes the record a file, and `id-4`'s makes the cat context
        // one; the dog context would need one more (`id-2`), so it is the runtime's.
        let e = plan(&routes(), 2);
        assert_eq!(
            e.rules,
            [rule("id-3", None), rule("id-4", Some("context=cat"))]
        );
        assert_eq!(
            e.runtime,
            HashSet::from(["/api/compound/:id/context/dog.json".to_string()])
        );
        let none = plan(&routes(), 0);
        assert!(none.rules.is_empty());
        assert_eq!(none.runtime.len(), 3);
    }
}
