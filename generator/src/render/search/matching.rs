//! A query against the index: whole-string matches through the trigram postings, word and
//! typo matches through the vocabulary, and each entry's best score.

use super::index::{EntityType, SearchIndex, words};
use super::score::{Field, Match, Scratch, score};

/// Queries with more words than this are matched as whole strings only (exact, prefix,
/// substring): word matching is for short queries, and the cap bounds hostile input.
const MAX_WORDS: usize = 16;
/// An InChIKey's first block (the connectivity hash) is 14 characters; a shorter prefix of
/// the key says nothing about the structure.
const INCHI_KEY_BLOCK: usize = 14;

impl SearchIndex {
    /// Every entry the folded query matches, with its best score and the field that earned
    /// it (of equal scores, the more important field).
    pub(super) fn matches(&self, query: &str, only: Option<EntityType>) -> Vec<Scored> {
        let mut best: Vec<Option<(u8, u32)>> = vec![None; self.entries.len()];
        let mut offer = |at: u32, how: Match| {
            let f = &self.fields[at as usize];
            if only.is_some_and(|k| k != self.entries[f.entry as usize].kind) {
                return;
            }
            let Some(s) = score(f.field.weight(), how) else {
                return;
            };
            let slot = &mut best[f.entry as usize];
            if slot.is_none_or(|(b, bf)| s > b || (s == b && at < bf)) {
                *slot = Some((s, at));
            }
        };
        let query_chars = query.chars().count();
        for (at, pos) in self.substrings(query) {
            let f = &self.fields[at as usize];
            let how = if pos > 0 {
                Match::Substring
            } else if query.len() == f.len {
                Match::Exact
            } else if f.field == Field::InchiKey && query_chars < INCHI_KEY_BLOCK {
                continue;
            } else {
                Match::Prefix
            };
            offer(at, how);
        }
        let (matched, tokens) = self.word_matches(query);
        for (at, distance) in matched {
            let whole = self.fields[at as usize].words == tokens;
            offer(
                at,
                match distance {
                    0 => Match::Word { whole },
                    _ => Match::Typo { distance, whole },
                },
            );
        }
        best.iter()
            .enumerate()
            .filter_map(|(entry, b)| {
                b.map(|(score, at)| Scored {
                    entry,
                    score,
                    field: self.fields[at as usize].field,
                    boosted: false,
                })
            })
            .collect()
    }

    /// The fields whose text holds the query, each with where it first does. The trigram
    /// postings narrow the fields to those holding every trigram of the query; a query too
    /// short to have one scans the whole text.
    fn substrings(&self, query: &str) -> Vec<(u32, usize)> {
        if query.is_empty() {
            return Vec::new();
        }
        if query.len() < 3 {
            let mut out: Vec<(u32, usize)> = Vec::new();
            for (pos, _) in self.text.match_indices(query) {
                let at = self.fields.partition_point(|f| f.start <= pos) - 1;
                // Only the first occurrence in a field decides how it matches.
                if out.last().is_none_or(|(last, _)| *last as usize != at) {
                    out.push((at as u32, pos - self.fields[at].start));
                }
            }
            return out;
        }
        let mut lists: Vec<&[u32]> = Vec::new();
        for w in query.as_bytes().windows(3) {
            match self.trigrams.get(w) {
                Some(list) => lists.push(list),
                None => return Vec::new(),
            }
        }
        lists.sort_unstable_by_key(|l| l.len());
        let mut candidates = lists[0].to_vec();
        for list in &lists[1..] {
            candidates.retain(|f| list.binary_search(f).is_ok());
        }
        candidates
            .into_iter()
            .filter_map(|at| {
                let f = &self.fields[at as usize];
                self.text[f.start..f.start + f.len]
                    .find(query)
                    .map(|pos| (at, pos))
            })
            .collect()
    }

    /// The fields holding every word of the query, exactly or within the typo distance, each
    /// with the largest distance any word needed (0: every word is there as it is); and the
    /// number of distinct words of the query.
    fn word_matches(&self, query: &str) -> (Vec<(u32, u8)>, usize) {
        let mut tokens: Vec<&str> = words(query).collect();
        tokens.sort_unstable();
        tokens.dedup();
        let count = tokens.len();
        if tokens.is_empty() || tokens.len() > MAX_WORDS {
            return (Vec::new(), count);
        }
        let mut scratch = Scratch::default();
        let mut alive: Option<Vec<(u32, u8)>> = None;
        for token in tokens {
            // The fields this word meets, ascending, each at its smallest distance.
            let mut hits: Vec<(u32, u8)> = self
                .vocabulary
                .meets(token, &mut scratch)
                .into_iter()
                .flat_map(|(w, d)| {
                    self.vocabulary.postings[w as usize]
                        .iter()
                        .map(move |f| (*f, d))
                })
                .collect();
            hits.sort_unstable();
            hits.dedup_by_key(|(f, _)| *f);
            alive = Some(match alive {
                None => hits,
                Some(before) => intersect(&before, &hits),
            });
            if alive.as_ref().is_some_and(Vec::is_empty) {
                break;
            }
        }
        (alive.unwrap_or_default(), count)
    }
}

/// The fields in both ascending lists, each with the larger of its two distances.
fn intersect(a: &[(u32, u8)], b: &[(u32, u8)]) -> Vec<(u32, u8)> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push((a[i].0, a[i].1.max(b[j].1)));
                i += 1;
                j += 1;
            }
        }
    }
    out
}

pub(super) struct Scored {
    pub(super) entry: usize,
    pub(super) score: u8,
    pub(super) field: Field,
    pub(super) boosted: bool,
}
