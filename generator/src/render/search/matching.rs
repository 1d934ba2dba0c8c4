//! A query against the index: whole-string matches through the trigram postings, word and
//! typo matches through the vocabulary, and each entry's best score.

use std::borrow::Cow;
use std::cmp::Ordering;

use super::index::{EntityType, HEAD, IndexedField, SearchIndex, words};
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
    ///
    /// An entry's best is the highest (score, earlier field) of its offers, whatever order
    /// they come in, so word and typo matches go first: a whole-string match is then looked
    /// for in a field's text only when it could still beat them.
    pub(super) fn matches(&self, query: &str, only: Option<EntityType>) -> Vec<Scored> {
        let mut best = Best {
            by_entry: vec![None; self.entries.len()],
            offered: Vec::new(),
        };
        let wanted =
            |f: &IndexedField| only.is_none_or(|k| k == self.entries[f.entry as usize].kind);
        let (matched, tokens) = self.word_matches(query);
        for (at, distance) in matched {
            let f = &self.fields[at as usize];
            let whole = usize::from(f.words) == tokens;
            let how = match distance {
                0 => Match::Word { whole },
                _ => Match::Typo { distance, whole },
            };
            if let Some(s) = score(f.field.weight(), how).filter(|_| wanted(f)) {
                best.offer(f, at, s);
            }
        }
        let query_chars = query.chars().count();
        let head = &query.as_bytes()[..query.len().min(HEAD)];
        for &at in self.candidates(query).iter() {
            let f = &self.fields[at as usize];
            if (f.len as usize) < query.len() || !wanted(f) {
                continue;
            }
            let weight = f.field.weight();
            let same_length = query.len() == f.len as usize;
            // A match at the start scores above one further in: when even that would not
            // improve on the entry's best, the field's text is not read.
            let at_start = if same_length {
                score(weight, Match::Exact)
            } else if f.field == Field::InchiKey && query_chars < INCHI_KEY_BLOCK {
                None
            } else {
                score(weight, Match::Prefix)
            };
            let Some(top) = at_start.filter(|s| best.improves(f, at, *s)) else {
                continue;
            };
            // The head settles most fields without reading the text (slicing it reads it).
            if f.head[..head.len()] == *head && self.text_of(f).starts_with(query) {
                best.offer(f, at, top);
            } else if let Some(s) = score(weight, Match::Substring).filter(|s| {
                !same_length && best.improves(f, at, *s) && self.text_of(f).contains(query)
            }) {
                best.offer(f, at, s);
            }
        }
        // In the order the entries were first offered: the caller orders them (by score, then
        // rank, which no two entries share).
        best.offered
            .iter()
            .map(|&entry| {
                let entry = entry as usize;
                let (score, at) = best.by_entry[entry].expect("an offered entry has its best");
                Scored {
                    entry,
                    score,
                    field: self.fields[at as usize].field,
                    boosted: false,
                }
            })
            .collect()
    }

    /// The fields that can hold the query: those holding its two rarest trigrams, the fields
    /// of its byte pair for a two-byte query, and for a one-byte query (what folding leaves of
    /// "a_") those the whole text shows holding it.
    fn candidates(&self, query: &str) -> Cow<'_, [u32]> {
        match *query.as_bytes() {
            [] => Cow::Borrowed(&[]),
            [_] => {
                let mut out: Vec<u32> = Vec::new();
                for (pos, _) in self.text.match_indices(query) {
                    let at = self.fields.partition_point(|f| f.start as usize <= pos) - 1;
                    let at = u32::try_from(at).expect("fields are numbered in u32");
                    if out.last() != Some(&at) {
                        out.push(at);
                    }
                }
                Cow::Owned(out)
            }
            [a, b] => Cow::Borrowed(self.bigrams.get(&[a, b]).map_or(&[], Vec::as_slice)),
            _ => {
                let mut lists: Vec<&[u32]> = Vec::new();
                for w in query.as_bytes().windows(3) {
                    match self.trigrams.get(w) {
                        Some(list) => lists.push(list),
                        None => return Cow::Borrowed(&[]),
                    }
                }
                lists.sort_unstable_by_key(|l| l.len());
                // The next rarest trigram removes most fields that do not hold the query for
                // the price of one merge, when it is not much longer; beyond it, reading a
                // field's text costs less than merging.
                match lists[..] {
                    [rarest, next, ..] if next.len() <= 8 * rarest.len() => {
                        Cow::Owned(intersect(rarest, next))
                    }
                    [rarest, ..] => Cow::Borrowed(rarest),
                    [] => Cow::Borrowed(&[]),
                }
            }
        }
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
        let postings = &self.vocabulary.postings;
        let mut scratch = Scratch::default();
        // The vocabulary words each query word meets, the query word occurring in the fewest
        // fields first: the fields it meets are the only candidates, and the other words
        // only look them up.
        let mut met: Vec<(usize, Vec<(u32, u8)>)> = tokens
            .into_iter()
            .map(|token| {
                let words = self.vocabulary.meets(token, &mut scratch);
                let fields = words.iter().map(|(w, _)| postings[*w as usize].len()).sum();
                (fields, words)
            })
            .collect();
        met.sort_by_key(|(fields, _)| *fields);
        let mut alive = fields_met(postings, &met[0].1);
        for (_, words) in &met[1..] {
            alive.retain_mut(|(at, distance)| {
                let nearest = words
                    .iter()
                    .filter(|(w, _)| postings[*w as usize].binary_search(at).is_ok())
                    .map(|(_, d)| *d)
                    .min();
                nearest
                    .inspect(|d| *distance = (*distance).max(*d))
                    .is_some()
            });
            if alive.is_empty() {
                break;
            }
        }
        (alive, count)
    }
}

/// Each entry's best score so far and the field that earned it, and the entries that have
/// one: a query's answer reads those, not every entry of the index.
struct Best {
    by_entry: Vec<Option<(u8, u32)>>,
    offered: Vec<u32>,
}

impl Best {
    /// Whether `s` from field `at` would take the entry's place: a higher score, or the same
    /// from an earlier (more important) field.
    fn improves(&self, f: &IndexedField, at: u32, s: u8) -> bool {
        self.by_entry[f.entry as usize].is_none_or(|(b, bf)| s > b || (s == b && at < bf))
    }

    fn offer(&mut self, f: &IndexedField, at: u32, s: u8) {
        if self.improves(f, at, s) {
            let slot = &mut self.by_entry[f.entry as usize];
            if slot.is_none() {
                self.offered.push(f.entry);
            }
            *slot = Some((s, at));
        }
    }
}

/// The values in both ascending lists.
fn intersect(a: &[u32], b: &[u32]) -> Vec<u32> {
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::with_capacity(a.len().min(b.len()));
    while let (Some(&x), Some(&y)) = (a.get(i), b.get(j)) {
        if x == y {
            out.push(x);
        }
        // Both steps computed without a branch: which list is behind is unpredictable.
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    out
}

/// The fields any of the words occur in, ascending, each at the smallest distance of the
/// words it holds.
fn fields_met(postings: &[Vec<u32>], words: &[(u32, u8)]) -> Vec<(u32, u8)> {
    // Each word's postings are ascending and distinct: merged one list at a time, shortest
    // first, so the longest is read once, and nothing is sorted.
    let mut lists: Vec<(&[u32], u8)> = words
        .iter()
        .map(|(w, d)| (postings[*w as usize].as_slice(), *d))
        .collect();
    lists.sort_by_key(|(list, _)| list.len());
    let mut met: Vec<(u32, u8)> = Vec::new();
    for (list, d) in lists {
        if met.is_empty() {
            met.extend(list.iter().map(|f| (*f, d)));
            continue;
        }
        let mut merged = Vec::with_capacity(met.len() + list.len());
        let (mut i, mut j) = (0, 0);
        while i < met.len() && j < list.len() {
            let (f, held) = met[i];
            match f.cmp(&list[j]) {
                Ordering::Less => {
                    merged.push((f, held));
                    i += 1;
                }
                Ordering::Greater => {
                    merged.push((list[j], d));
                    j += 1;
                }
                Ordering::Equal => {
                    merged.push((f, held.min(d)));
                    i += 1;
                    j += 1;
                }
            }
        }
        merged.extend_from_slice(&met[i..]);
        merged.extend(list[j..].iter().map(|f| (*f, d)));
        met = merged;
    }
    met
}

pub(super) struct Scored {
    pub(super) entry: usize,
    pub(super) score: u8,
    pub(super) field: Field,
    pub(super) boosted: bool,
}
