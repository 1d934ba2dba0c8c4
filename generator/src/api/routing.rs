//! Which catalogued templates a request path matches, found through an index rather than by
//! trying all of them: every request is routed, and trying each of the catalogue's templates
//! was the largest cost of the common path (BENCHMARKS.md, "Routing index and the request
//! line").
//!
//! A template can only match a path of as many segments as it has, and one whose first
//! segment is literal only a path starting with that segment. So the templates are grouped
//! once by where they answer (under `/api` or not), their segment count and their first
//! segment (or none, when it is a parameter); a path tries only the templates of its own
//! count with its own first segment or a parameter there, in catalogue order, so the answer
//! is the one trying every template gives (the runtime test
//! `catalogue::routing_finds_what_trying_every_template_finds`).

use std::sync::LazyLock;

use super::{Captured, ENDPOINTS, Endpoint};

/// The templates of one segment count, by their first segment.
#[derive(Debug, Default)]
struct Shape {
    /// Positions in `ENDPOINTS` of the templates whose first segment is this literal, sorted
    /// by the literal; each list in catalogue order.
    by_first: Vec<(&'static str, Vec<usize>)>,
    /// Positions of the templates with a parameter first, or with no segment at all, in
    /// catalogue order.
    any_first: Vec<usize>,
}

#[derive(Debug)]
struct Index {
    /// `shapes[under_api][segment count]`.
    shapes: [Vec<Shape>; 2],
    /// Each endpoint's `specificity`, by its position in `ENDPOINTS`.
    specificity: Vec<(usize, usize)>,
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut shapes: [Vec<Shape>; 2] = Default::default();
    for (at, e) in ENDPOINTS.iter().enumerate() {
        let segments: Vec<&'static str> = template_segments(e).collect();
        let counts = &mut shapes[usize::from(e.under_api())];
        if counts.len() <= segments.len() {
            counts.resize_with(segments.len() + 1, Shape::default);
        }
        let shape = &mut counts[segments.len()];
        match segments.first().filter(|s| !s.starts_with('{')) {
            Some(first) => match shape.by_first.binary_search_by(|(f, _)| (*f).cmp(*first)) {
                Ok(i) => shape.by_first[i].1.push(at),
                Err(i) => shape.by_first.insert(i, (*first, vec![at])),
            },
            None => shape.any_first.push(at),
        }
    }
    Index {
        shapes,
        specificity: ENDPOINTS.iter().map(|e| specificity(e.path)).collect(),
    }
});

/// A template's segments as `Endpoint::matches` reads them: after `/api` for an endpoint under
/// it, of the whole path for a page.
fn template_segments(e: &Endpoint) -> impl Iterator<Item = &'static str> + use<> {
    let path: &'static str = e.path;
    let under_api = e.under_api();
    path.strip_prefix("/api")
        .filter(move |_| under_api)
        .unwrap_or(path)
        .split('/')
        .filter(|s| !s.is_empty())
}

/// The endpoints whose template matches `segments` (under `/api` or among the pages), the
/// most specific template's only, in catalogue order.
pub(super) fn matching<'a>(
    segments: &[&'a str],
    under_api: bool,
) -> Vec<(&'static Endpoint, Captured<'a>)> {
    let index = &*INDEX;
    let Some(shape) = index.shapes[usize::from(under_api)].get(segments.len()) else {
        return Vec::new();
    };
    let literal: &[usize] = segments
        .first()
        .and_then(|first| {
            let i = shape
                .by_first
                .binary_search_by(|(f, _)| (*f).cmp(*first))
                .ok()?;
            Some(shape.by_first[i].1.as_slice())
        })
        .unwrap_or_default();
    let any = shape.any_first.as_slice();
    let mut found: Vec<(usize, Captured<'a>)> = Vec::new();
    // The two lists merged back into catalogue order, as trying every template gives them.
    let (mut i, mut j) = (0, 0);
    while i < literal.len() || j < any.len() {
        let at = if j == any.len() || (i < literal.len() && literal[i] < any[j]) {
            i += 1;
            literal[i - 1]
        } else {
            j += 1;
            any[j - 1]
        };
        if let Some(captured) = ENDPOINTS[at].matches(segments) {
            found.push((at, captured));
        }
    }
    let best = found
        .iter()
        .map(|(at, _)| index.specificity[*at])
        .max()
        .unwrap_or_default();
    found
        .into_iter()
        .filter(|(at, _)| index.specificity[*at] == best)
        .map(|(at, captured)| (&ENDPOINTS[at], captured))
        .collect()
}

/// How many leading segments are literal: the more, the more specific a template.
fn specificity(path: &str) -> (usize, usize) {
    let literal = |s: &&str| !s.starts_with('{');
    let leading = path.split('/').take_while(literal).count();
    (leading, path.split('/').filter(literal).count())
}
