//! The ranking against a straightforward reference: every field of the index matched by plain
//! string search and by a full distance table against each of its words, every match sorted
//! by the rule as and the score table state it. Hundreds of queries drawn from the
//! corpus (names, prefixes, words, typos, pieces, identifiers), in every type and on several
//! pages, must give what `search` gives: the same results in the same order, with the same
//! scores, matched fields, boosts and totals.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use serde_json::Value;

use super::index::{EntityType, SearchIndex, fold, words};
use super::score::{Field, Match, score};
use super::search_raw as search;
use crate::model::Dataset;
use crate::model::aliases::normalize as alias_key;
use crate::render::test_data;

/// What a result is, as compared.
#[derive(Debug, Clone, PartialEq)]
struct Ranked {
    id: String,
    score: u8,
    matched: Value,
    boosted: bool,
}

struct Reference {
    index: SearchIndex,
    /// Each field's folded text and its distinct words.
    fields: Vec<(String, Vec<String>)>,
    /// Every distinct word of the corpus.
    vocabulary: Vec<String>,
}

fn reference() -> &'static Reference {
    static REFERENCE: OnceLock<Reference> = OnceLock::new();
    REFERENCE.get_or_init(|| {
        let index = SearchIndex::build(test_data::dataset());
        let fields: Vec<(String, Vec<String>)> = index
            .fields
            .iter()
            .map(|f| {
                let text = index.text_of(f).to_string();
                let mut own: Vec<String> = words(&text).map(str::to_string).collect();
                own.sort_unstable();
                own.dedup();
                (text, own)
            })
            .collect();
        let vocabulary: HashSet<String> = fields.iter().flat_map(|(_, w)| w.clone()).collect();
        Reference {
            index,
            fields,
            vocabulary: vocabulary.into_iter().collect(),
        }
    })
}

/// The optimal-string-alignment distance, the whole table.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

fn name(dataset: &Dataset, kind: EntityType, id: &str) -> String {
    match kind {
        EntityType::Compound => dataset.compound(id).unwrap().name.clone(),
        EntityType::Product => dataset.products[id].name.clone(),
        EntityType::Material => dataset.materials[id].name.clone(),
    }
}

/// Every entity `q` matches, unfiltered and before the alias step, with its best score and
/// the field that earned it.
fn matches(q: &str) -> Vec<(usize, u8, Field)> {
    let r = reference();
    let index = &r.index;
    let query = fold(q.trim());
    let mut tokens: Vec<&str> = words(&query).collect();
    tokens.sort_unstable();
    tokens.dedup();
    if tokens.len() > 16 {
        tokens.clear();
    }
    // For each query word, the corpus words within the distance its length allows.
    let near: Vec<HashMap<&str, usize>> = tokens
        .iter()
        .map(|t| {
            let max = match t.chars().count() {
                0..5 => 0,
                5..9 => 1,
                _ => 2,
            };
            r.vocabulary
                .iter()
                .filter(|w| w.chars().count().abs_diff(t.chars().count()) <= max)
                .map(|w| (w.as_str(), distance(t, w)))
                .filter(|(_, d)| *d <= max)
                .collect()
        })
        .collect();
    let mut best: Vec<Option<(u8, usize)>> = vec![None; index.entries.len()];
    for (at, (f, (text, own))) in index.fields.iter().zip(&r.fields).enumerate() {
        let mut ways = Vec::new();
        match text.find(&query) {
            _ if query.is_empty() => {}
            None => {}
            Some(1..) => ways.push(Match::Substring),
            Some(0) if *text == query => ways.push(Match::Exact),
            Some(0) if f.field == Field::InchiKey && query.chars().count() < 14 => {}
            Some(0) => ways.push(Match::Prefix),
        }
        let per_token: Option<Vec<usize>> = near
            .iter()
            .map(|n| own.iter().filter_map(|w| n.get(w.as_str()).copied()).min())
            .collect();
        if let Some(ds) = per_token.filter(|ds| !ds.is_empty()) {
            let whole = own.len() == tokens.len();
            ways.push(match ds.into_iter().max().unwrap() {
                0 => Match::Word { whole },
                d => Match::Typo {
                    distance: u8::try_from(d).unwrap(),
                    whole,
                },
            });
        }
        let entry = f.entry as usize;
        for how in ways {
            if let Some(s) = score(f.field.weight(), how) {
                // Of equal scores, the first field (the more important) stays.
                if best[entry].is_none_or(|(b, _)| s > b) {
                    best[entry] = Some((s, at));
                }
            }
        }
    }
    best.iter()
        .enumerate()
        .filter_map(|(e, b)| b.map(|(s, at)| (e, s, index.fields[at].field)))
        .collect()
}

/// Every result of `q` limited to one type, in order, and the alias's compound.
fn expected(
    q: &str,
    matched: &[(usize, u8, Field)],
    only: Option<EntityType>,
) -> (Vec<Ranked>, Option<String>) {
    let (index, dataset) = (&reference().index, test_data::dataset());
    let mut found: Vec<(usize, u8, Field, bool)> = matched
        .iter()
        .filter(|(e, ..)| only.is_none_or(|k| k == index.entries[*e].kind))
        .map(|&(e, s, f)| (e, s, f, false))
        .collect();
    let alias = match only {
        None | Some(EntityType::Compound) => index.aliases.get(&alias_key(q.trim())).copied(),
        Some(_) => None,
    };
    if let Some(at) = alias {
        found.retain(|(e, ..)| *e != at);
        found.push((at, 100, Field::Alias, true));
    }
    let key = |e: usize| {
        let entry = &index.entries[e];
        (
            fold(&name(dataset, entry.kind, &entry.id)),
            entry.id.clone(),
        )
    };
    found.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(b.3.cmp(&a.3))
            .then_with(|| key(a.0).cmp(&key(b.0)))
    });
    let ranked = found
        .into_iter()
        .map(|(e, score, field, boosted)| Ranked {
            id: index.entries[e].id.clone(),
            score,
            matched: serde_json::to_value(field).unwrap(),
            boosted,
        })
        .collect();
    (ranked, alias.map(|at| index.entries[at].id.clone()))
}

/// One page as `search` answers it, and the total.
fn page(q: &str, kind: Option<&str>, limit: usize, offset: usize) -> (Vec<Ranked>, Value) {
    let r = reference();
    let (limit, offset) = (limit.to_string(), offset.to_string());
    let answer = search(
        &r.index,
        test_data::dataset(),
        Some(q),
        Some(&limit),
        Some(&offset),
        kind,
    );
    assert_eq!(answer.status, 200, "{q:?}");
    let body: Value = serde_json::from_slice(&answer.body).unwrap();
    let results = body["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| Ranked {
            id: h["id"].as_str().unwrap().to_string(),
            score: u8::try_from(h["score"].as_u64().unwrap()).unwrap(),
            matched: h["matched"].clone(),
            boosted: h.get("alias_boosted").is_some_and(|b| b == true),
        })
        .collect();
    (results, body["meta"].clone())
}

/// Queries drawn from the corpus: for entries spread over compounds, products and materials,
/// the name, its beginning, a piece of its middle, its longest word and that word with a
/// transposition, a deletion and a substitution, and the id; and queries of every other kind
/// the search knows (aliases, CAS numbers, InChIKey blocks, two characters, several words,
/// unknown scripts).
fn queries() -> Vec<String> {
    let r = reference();
    let dataset = test_data::dataset();
    let mut out: Vec<String> = [
        "BPA",
        "PFOA",
        "benzene",
        "formaldehide",
        "lead",
        "phthalate",
        "80-05-7",
        "80-05",
        "pesticide",
        "baby bottle",
        "baby botle",
        "polyvinil chloride",
        "chloride sodium",
        "food contact",
        "hq-c-org-0002",
        "dichloromethane",
        "acid",
        "pb",
        "ac",
        "__",
        "ene",
        "IISBACLAFKSPIT",
        "IISBACLAFKSPIT-UHFFFAOYSA-N",
        "IISBACLAF",
        "ǅǆ İstanbul",
        "日本語",
        "uv filter",
        "uv_filter",
    ]
    .map(str::to_string)
    .into();
    let step = r.index.entries.len() / 40;
    for entry in r.index.entries.iter().step_by(step) {
        let name = name(dataset, entry.kind, &entry.id);
        let chars: Vec<char> = name.chars().collect();
        out.push(name.clone());
        out.push(chars.iter().take(5).collect());
        out.push(chars.iter().skip(2).take(7).collect());
        out.push(entry.id.clone());
        let Some(word) = name
            .split(|c: char| !c.is_alphanumeric())
            .max_by_key(|w| w.len())
            .filter(|w| w.chars().count() >= 5)
        else {
            continue;
        };
        let w: Vec<char> = word.chars().collect();
        let mid = w.len() / 2;
        let mut swapped = w.clone();
        swapped.swap(mid - 1, mid);
        let mut dropped = w.clone();
        dropped.remove(mid);
        let mut replaced = w.clone();
        replaced[mid] = if replaced[mid] == 'x' { 'y' } else { 'x' };
        out.push(word.to_string());
        for typo in [swapped, dropped, replaced] {
            out.push(typo.into_iter().collect());
        }
    }
    out.retain(|q| q.trim().chars().count() >= 2);
    out
}

#[test]
fn search_ranks_as_the_reference_does() {
    let kinds = [
        (None, None),
        (Some("compound"), Some(EntityType::Compound)),
        (Some("product"), Some(EntityType::Product)),
        (Some("material"), Some(EntityType::Material)),
    ];
    let queries = queries();
    assert!(queries.len() > 300, "{}", queries.len());
    let mut compared = 0;
    for (i, q) in queries.iter().enumerate() {
        // Every query unfiltered; each also under one of the types, in turn.
        let matched = matches(q);
        for (kind, only) in [kinds[0], kinds[1 + i % 3]] {
            let (all, alias) = expected(q, &matched, only);
            let total = all.len();
            let pages = [
                (100, 0),
                (7, total / 2),
                (100, total.saturating_sub(3)),
                (5, total + 1),
            ];
            for (limit, offset) in pages {
                let (got, meta) = page(q, kind, limit, offset);
                let want: Vec<Ranked> = all.iter().skip(offset).take(limit).cloned().collect();
                assert_eq!(
                    got, want,
                    "{q:?} type {kind:?} limit {limit} offset {offset}"
                );
                assert_eq!(meta["total"], total, "{q:?} type {kind:?}");
                assert_eq!(meta["alias_resolved"], serde_json::json!(alias), "{q:?}");
                compared += got.len();
            }
        }
    }
    assert!(compared > 5_000, "{compared} results compared");
}
