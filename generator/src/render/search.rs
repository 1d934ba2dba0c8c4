//! Unified search (SPEC 4.9): one index over compounds, products and materials, built once
//! with every searchable string folded, split into words and indexed by trigram ahead of time,
//! so a query looks only at the fields that can match. Results carry a relevance score from 0
//! to 100; curated aliases (`data/aliases.json`) resolve abbreviations to one canonical
//! compound.

use std::collections::HashMap;

use serde::Serialize;

use super::{Cache, Rendered};
use crate::load::Dataset;
use crate::model::aliases::normalize as alias_key;
use crate::model::vocab::WatchClass;

/// What a result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum EntityType {
    Compound,
    Product,
    Material,
}

/// Which field of an entity matched (the result's `matched`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Field {
    Id,
    Cas,
    InchiKey,
    Name,
    Synonym,
    IupacName,
    CommonName,
    Type,
    UseClass,
    Category,
    Tag,
    Tier,
    Family,
    Slug,
    /// Resolved through a curated alias.
    Alias,
}

/// How strongly a field identifies its entity; decides the scores a match earns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Weight {
    Identifier,
    Name,
    AltName,
    Class,
}

impl Field {
    fn weight(self) -> Weight {
        match self {
            Field::Id | Field::Cas | Field::InchiKey | Field::Alias => Weight::Identifier,
            Field::Name => Weight::Name,
            Field::Synonym | Field::IupacName | Field::CommonName => Weight::AltName,
            Field::Type
            | Field::UseClass
            | Field::Category
            | Field::Tag
            | Field::Tier
            | Field::Family
            | Field::Slug => Weight::Class,
        }
    }
}

/// How a query met a field, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Match {
    Exact,
    Prefix,
    /// Every query word is a word of the field; `whole` when they are all its words.
    Word {
        whole: bool,
    },
    Substring,
    /// Every query word is a word of the field or within the typo distance of one.
    Typo {
        distance: u8,
        whole: bool,
    },
}

/// The score table: exact identifiers and names highest, then prefix, word, substring and
/// typo matches; alternative names a little below the name, classifications (use class,
/// category, tag) well below, since a class matches many entities equally. A word or typo
/// match that covers the whole field ("formaldehide" for "Formaldehyde") leads one that
/// covers a word of a longer name ("urea-formaldehyde lacquer").
fn score(weight: Weight, how: Match) -> Option<u8> {
    use Match::*;
    use Weight::*;
    let part = |whole: bool| if whole { 0 } else { 5 };
    Some(match (weight, how) {
        (Identifier | Name, Exact) => 100,
        (AltName, Exact) => 95,
        (Class, Exact) => 60,
        (Name, Prefix) => 85,
        (AltName, Prefix) => 80,
        (Identifier, Prefix) => 70,
        (Class, Prefix) => 50,
        (Name, Word { whole }) => 80 - part(whole),
        (AltName, Word { whole }) => 75 - part(whole),
        (Class, Word { whole }) => 48 - part(whole),
        (Name, Substring) => 55,
        (AltName, Substring) => 50,
        (Class, Substring) => 35,
        (Name, Typo { distance: 1, whole }) => 50 - part(whole),
        (AltName, Typo { distance: 1, whole }) => 45 - part(whole),
        (Class, Typo { distance: 1, whole }) => 30 - part(whole),
        (Name, Typo { whole, .. }) => 40 - part(whole),
        (AltName, Typo { whole, .. }) => 35 - part(whole),
        (Class, Typo { whole, .. }) => 25 - part(whole),
        // Identifiers are codes: a code that is nearly right names something else.
        (Identifier, Word { .. } | Substring | Typo { .. }) => return None,
    })
}

/// Queries with more words than this are matched as whole strings only (exact, prefix,
/// substring): word matching is for short queries, and the cap bounds hostile input.
const MAX_WORDS: usize = 16;
/// An InChIKey's first block (the connectivity hash) is 14 characters; a shorter prefix of
/// the key says nothing about the structure.
const INCHI_KEY_BLOCK: usize = 14;

/// Lower case, `_` read as a space (use classes are written `uv_filter`), whitespace runs
/// collapsed: the form every field and query is compared in.
fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s
        .split(|c: char| c.is_whitespace() || c == '_')
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// The words of a folded string: runs of letters and digits.
fn words(folded: &str) -> impl Iterator<Item = &str> {
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// The bit of a character in a word's character set. Distinct bits always stand for distinct
/// characters (letters and digits have their own; other characters share the rest), so the
/// bits two words do not share never outnumber the characters they do not share.
fn char_bit(c: char) -> u64 {
    let k = match c {
        'a'..='z' => c as u32 - 'a' as u32,
        '0'..='9' => 26 + (c as u32 - '0' as u32),
        _ => 36 + c as u32 % 28,
    };
    1 << k
}

fn char_set(word: &[char]) -> u64 {
    word.iter().fold(0, |set, c| set | char_bit(*c))
}

/// Every distinct word of the index, once: where it occurs (postings), and grouped by length
/// with its character set so a typo search compares only words that can be within reach.
#[derive(Debug, Default)]
struct Vocabulary {
    ids: HashMap<String, u32>,
    chars: Vec<Vec<char>>,
    sets: Vec<u64>,
    /// The fields (index into `SearchIndex::fields`) each word occurs in, ascending.
    postings: Vec<Vec<u32>>,
    by_len: Vec<Vec<u32>>,
}

impl Vocabulary {
    fn intern(&mut self, word: &str) -> u32 {
        if let Some(id) = self.ids.get(word) {
            return *id;
        }
        let id = u32::try_from(self.chars.len()).expect("fewer than 4 billion distinct words");
        let chars: Vec<char> = word.chars().collect();
        if self.by_len.len() <= chars.len() {
            self.by_len.resize(chars.len() + 1, Vec::new());
        }
        self.by_len[chars.len()].push(id);
        self.sets.push(char_set(&chars));
        self.chars.push(chars);
        self.postings.push(Vec::new());
        self.ids.insert(word.to_string(), id);
        id
    }

    /// The words a query word meets, with their distance: itself (0) and the words within
    /// the typo distance its length allows (1 from 5 characters, 2 from 9).
    fn meets(&self, word: &str, scratch: &mut Scratch) -> Vec<(u32, u8)> {
        let mut out: Vec<(u32, u8)> = self.ids.get(word).map(|id| (*id, 0)).into_iter().collect();
        let chars: Vec<char> = word.chars().collect();
        let max: u8 = match chars.len() {
            0..5 => return out,
            5..9 => 1,
            _ => 2,
        };
        let set = char_set(&chars);
        let lengths = chars.len().saturating_sub(max.into())..=chars.len() + usize::from(max);
        for len in lengths {
            for &id in self.by_len.get(len).map_or(&[][..], Vec::as_slice) {
                // An edit changes at most two characters of the set: a cheap bound first.
                if (set ^ self.sets[id as usize]).count_ones() > 2 * u32::from(max) {
                    continue;
                }
                if let Some(d @ 1..) = scratch.distance(&chars, &self.chars[id as usize], max) {
                    out.push((id, d));
                }
            }
        }
        out
    }
}

/// Reused rows of the distance table, so a query allocates them once.
#[derive(Default)]
struct Scratch {
    rows: [Vec<u8>; 3],
}

impl Scratch {
    /// Damerau-Levenshtein distance in its optimal-string-alignment form (insertions,
    /// deletions, substitutions and transpositions of adjacent characters), or `None` once it
    /// is certain to exceed `max`.
    fn distance(&mut self, a: &[char], b: &[char], max: u8) -> Option<u8> {
        if a.len().abs_diff(b.len()) > usize::from(max) {
            return None;
        }
        // Cells saturate: past `max` only "too far" matters.
        let cap = |i: usize| u8::try_from(i).unwrap_or(u8::MAX);
        let n = b.len();
        let [before, prev, cur] = &mut self.rows;
        before.clear();
        before.resize(n + 1, 0);
        prev.clear();
        prev.extend((0..=n).map(cap));
        cur.clear();
        cur.resize(n + 1, 0);
        for i in 1..=a.len() {
            cur[0] = cap(i);
            let mut row_min = cur[0];
            for j in 1..=n {
                let cost = u8::from(a[i - 1] != b[j - 1]);
                let mut v = prev[j]
                    .saturating_add(1)
                    .min(cur[j - 1].saturating_add(1))
                    .min(prev[j - 1].saturating_add(cost));
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(before[j - 2].saturating_add(1));
                }
                cur[j] = v;
                row_min = row_min.min(v);
            }
            // Every path to the last row crosses this one (a transposition skips a row only
            // from a cell at most one less than a cell of the skipped row).
            if row_min > max {
                return None;
            }
            std::mem::swap(before, prev);
            std::mem::swap(prev, cur);
        }
        Some(prev[n]).filter(|d| *d <= max)
    }
}

/// One searchable string of an entity.
#[derive(Debug)]
struct IndexedField {
    field: Field,
    entry: u32,
    /// Where its folded text starts in `SearchIndex::text`, and its length in bytes.
    start: usize,
    len: usize,
    /// How many distinct words the text has.
    words: usize,
}

#[derive(Debug)]
struct Entry {
    kind: EntityType,
    id: String,
    /// The folded name, for the order of equal scores.
    sort_name: String,
}

/// The search index of a dataset: built once (the runtime keeps it beside the dataset), read
/// concurrently by every request.
///
/// Every field's folded text is kept in `text`, joined by newlines (which folded text never
/// holds). Whole-string matches (exact, prefix, substring) are looked for only in the fields
/// holding every trigram of the query; word and typo matches go through the vocabulary's
/// postings: a query costs about what it finds, not the size of the corpus.
#[derive(Debug)]
pub struct SearchIndex {
    entries: Vec<Entry>,
    fields: Vec<IndexedField>,
    text: String,
    /// The fields holding each byte trigram of their text (ascending), to find substrings
    /// without scanning `text`.
    trigrams: HashMap<[u8; 3], Vec<u32>>,
    vocabulary: Vocabulary,
    /// Normalized alias -> the entry of its compound. Aliases of compounds that are not
    /// served (critical threats) or not in the corpus are left out.
    aliases: HashMap<String, usize>,
}

/// The fields of one entity, in order of importance.
struct EntryBuilder {
    fields: Vec<(Field, String)>,
}

impl EntryBuilder {
    fn add(&mut self, field: Field, text: &str) {
        let text = fold(text);
        // A synonym that repeats the name (or another field of the same weight) adds nothing.
        if text.is_empty()
            || self
                .fields
                .iter()
                .any(|(f, t)| *t == text && f.weight() == field.weight())
        {
            return;
        }
        self.fields.push((field, text));
    }
}

impl SearchIndex {
    /// Indexes every served compound, product and material of `dataset`. Fields are added in
    /// order of importance: of two fields matching equally, the first is reported.
    pub fn build(dataset: &Dataset) -> SearchIndex {
        let mut index = SearchIndex {
            entries: Vec::new(),
            fields: Vec::new(),
            text: String::new(),
            trigrams: HashMap::new(),
            vocabulary: Vocabulary::default(),
            aliases: HashMap::new(),
        };
        let mut positions = HashMap::new();
        for r in dataset.compounds.values() {
            if r.watch_class == WatchClass::CriticalThreat {
                continue;
            }
            positions.insert(r.hq_id.as_str(), index.entries.len());
            index.push(EntityType::Compound, &r.hq_id, &r.name, |e| {
                e.add(Field::Id, &r.hq_id);
                e.add(Field::Cas, &r.cas);
                if let Some(key) = &r.identity.inchi_key {
                    e.add(Field::InchiKey, key);
                }
                e.add(Field::Name, &r.name);
                for s in &r.identity.synonyms {
                    e.add(Field::Synonym, s);
                }
                if let Some(iupac) = &r.identity.iupac_name {
                    e.add(Field::IupacName, iupac);
                }
                if let Some(kind) = &r.kind {
                    e.add(Field::Type, kind);
                }
                for c in &r.use_classes {
                    e.add(Field::UseClass, &c.class);
                }
                if let Some(category) = &r.category {
                    e.add(Field::Category, category);
                }
            });
        }
        for p in dataset.products.values() {
            index.push(EntityType::Product, &p.id, &p.name, |e| {
                e.add(Field::Id, &p.id);
                e.add(Field::Name, &p.name);
                for n in &p.common_names {
                    e.add(Field::CommonName, n);
                }
                for c in &p.categories {
                    e.add(Field::Category, c);
                }
                for t in &p.tags {
                    e.add(Field::Tag, t);
                }
                e.add(Field::Tier, &p.tier);
            });
        }
        for m in dataset.materials.values() {
            index.push(EntityType::Material, &m.id, &m.name, |e| {
                e.add(Field::Id, &m.id);
                e.add(Field::Name, &m.name);
                for s in &m.synonyms {
                    e.add(Field::Synonym, s);
                }
                e.add(Field::Family, &m.family);
                e.add(Field::Slug, &m.slug);
            });
        }
        for a in &dataset.aliases {
            if let Some(&at) = dataset
                .by_cas(&a.cas)
                .and_then(|r| positions.get(r.hq_id.as_str()))
            {
                index.aliases.insert(alias_key(&a.alias), at);
            }
        }
        index
    }

    fn push(
        &mut self,
        kind: EntityType,
        id: &str,
        name: &str,
        fill: impl FnOnce(&mut EntryBuilder),
    ) {
        let mut builder = EntryBuilder { fields: Vec::new() };
        fill(&mut builder);
        let entry = u32::try_from(self.entries.len()).expect("fewer than 4 billion entities");
        for (field, text) in builder.fields {
            let at = u32::try_from(self.fields.len()).expect("fewer than 4 billion fields");
            let mut ids: Vec<u32> = words(&text).map(|w| self.vocabulary.intern(w)).collect();
            ids.sort_unstable();
            ids.dedup();
            let word_count = ids.len();
            for w in ids {
                self.vocabulary.postings[w as usize].push(at);
            }
            for t in text.as_bytes().windows(3) {
                let list = self.trigrams.entry([t[0], t[1], t[2]]).or_default();
                // Fields arrive in ascending order: a repeat within one field is the last.
                if list.last() != Some(&at) {
                    list.push(at);
                }
            }
            self.fields.push(IndexedField {
                field,
                entry,
                start: self.text.len(),
                len: text.len(),
                words: word_count,
            });
            self.text.push_str(&text);
            self.text.push('\n');
        }
        self.entries.push(Entry {
            kind,
            id: id.to_string(),
            sort_name: fold(name),
        });
    }

    /// Every entry the folded query matches, with its best score and the field that earned
    /// it (of equal scores, the more important field).
    fn matches(&self, query: &str, only: Option<EntityType>) -> Vec<Scored> {
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

struct Scored {
    entry: usize,
    score: u8,
    field: Field,
    boosted: bool,
}

#[derive(Serialize)]
struct Hit<'a> {
    entity_type: EntityType,
    id: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    cas: Option<&'a str>,
    score: u8,
    matched: Field,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    alias_boosted: bool,
}

#[derive(Serialize)]
struct Meta<'a> {
    total: usize,
    limit: usize,
    offset: usize,
    alias_resolved: Option<&'a str>,
}

#[derive(Serialize)]
struct Body<'a> {
    query: &'a str,
    results: Vec<Hit<'a>>,
    meta: Meta<'a>,
}

/// An integer query parameter within bounds, or the 400 naming them.
fn bounded(
    value: Option<&str>,
    name: &str,
    default: usize,
    range: std::ops::RangeInclusive<usize>,
) -> Result<usize, Rendered> {
    let Some(raw) = value else {
        return Ok(default);
    };
    raw.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            let bounds = if *range.end() == usize::MAX {
                format!("at least {}", range.start())
            } else {
                format!("from {} to {}", range.start(), range.end())
            };
            Rendered::error(
                400,
                format!("{name} must be an integer {bounds} (default {default})"),
            )
        })
}

/// `GET /api/search?q=&limit=&offset=&type=` (Developer+).
pub fn search(
    index: &SearchIndex,
    dataset: &Dataset,
    q: Option<&str>,
    limit: Option<&str>,
    offset: Option<&str>,
    kind: Option<&str>,
) -> Rendered {
    let Some(q) = q.map(str::trim) else {
        return Rendered::error(400, "q is required: at least 2 characters to search for");
    };
    if q.chars().count() < 2 {
        return Rendered::error(400, "q must be at least 2 characters long");
    }
    let limit = match bounded(limit, "limit", 20, 1..=100) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let offset = match bounded(offset, "offset", 0, 0..=usize::MAX) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let only = match kind {
        None => None,
        Some("compound") => Some(EntityType::Compound),
        Some("product") => Some(EntityType::Product),
        Some("material") => Some(EntityType::Material),
        Some(_) => {
            return Rendered::error(400, "type must be compound, product or material");
        }
    };
    let mut found = index.matches(&fold(q), only);
    // SPEC 4.9: the alias step applies unless the search is limited to products or materials.
    let alias = match only {
        None | Some(EntityType::Compound) => index.aliases.get(&alias_key(q)).copied(),
        Some(_) => None,
    };
    if let Some(at) = alias {
        let hit = match found.iter_mut().find(|s| s.entry == at) {
            Some(hit) => hit,
            None => {
                found.push(Scored {
                    entry: at,
                    score: 0,
                    field: Field::Alias,
                    boosted: false,
                });
                found.last_mut().expect("just pushed")
            }
        };
        hit.score = 100;
        hit.field = Field::Alias;
        hit.boosted = true;
    }
    // Score first; the alias's compound leads the other perfect matches, then by name.
    found.sort_by(|a, b| {
        let (ea, eb) = (&index.entries[a.entry], &index.entries[b.entry]);
        b.score
            .cmp(&a.score)
            .then(b.boosted.cmp(&a.boosted))
            .then_with(|| ea.sort_name.cmp(&eb.sort_name))
            .then_with(|| ea.id.cmp(&eb.id))
    });
    let results = found
        .iter()
        .skip(offset)
        .take(limit)
        .filter_map(|s| hit(index, dataset, s))
        .collect();
    let body = Body {
        query: q,
        results,
        meta: Meta {
            total: found.len(),
            limit,
            offset,
            alias_resolved: alias.map(|at| index.entries[at].id.as_str()),
        },
    };
    Rendered::json(200, &body, Cache::Private)
}

/// A result as shown: the display values come from the record, not from the index.
fn hit<'a>(index: &'a SearchIndex, dataset: &'a Dataset, s: &Scored) -> Option<Hit<'a>> {
    let entry = &index.entries[s.entry];
    let (name, cas) = match entry.kind {
        EntityType::Compound => {
            let r = dataset.compounds.get(&entry.id)?;
            (r.name.as_str(), Some(r.cas.as_str()))
        }
        EntityType::Product => (dataset.products.get(&entry.id)?.name.as_str(), None),
        EntityType::Material => (dataset.materials.get(&entry.id)?.name.as_str(), None),
    };
    Some(Hit {
        entity_type: entry.kind,
        id: &entry.id,
        name,
        cas,
        score: s.score,
        matched: s.field,
        alias_boosted: s.boosted,
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::sync::OnceLock;
    use std::time::Instant;

    use serde_json::Value;

    use super::*;

    fn data() -> &'static (Dataset, SearchIndex) {
        static DATA: OnceLock<(Dataset, SearchIndex)> = OnceLock::new();
        DATA.get_or_init(|| {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
            let dataset = crate::load::load(&dir)
                .expect("the committed dataset loads")
                .0;
            let index = SearchIndex::build(&dataset);
            (dataset, index)
        })
    }

    fn run(q: &str, params: &[(&str, &str)]) -> (u16, Value) {
        let (dataset, index) = data();
        let get = |k: &str| params.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
        let r = search(
            index,
            dataset,
            Some(q),
            get("limit"),
            get("offset"),
            get("type"),
        );
        assert_eq!(r.cache, Cache::Private);
        (r.status, serde_json::from_slice(&r.body).unwrap())
    }

    const BPA: &str = "hq-c-org-000218";

    #[test]
    fn aliases_resolve_whatever_the_case_and_spacing() {
        for q in ["BPA", " b p a ", "bpa"] {
            let (status, body) = run(q, &[]);
            assert_eq!(status, 200, "{q}");
            assert_eq!(body["meta"]["alias_resolved"], BPA, "{q}");
            let first = &body["results"][0];
            assert_eq!(first["id"], BPA, "{q}");
            assert_eq!(first["cas"], "80-05-7");
            assert_eq!(first["score"], 100);
            assert_eq!(first["alias_boosted"], true);
            assert_eq!(first["matched"], "alias");
            assert_eq!(body["query"], q.trim());
        }
        // An alias only boosts: other results keep their own scores and no flag.
        let (_, body) = run("BPA", &[]);
        let others = body["results"].as_array().unwrap();
        assert!(others[1..].iter().all(|r| r.get("alias_boosted").is_none()));
    }

    #[test]
    fn aliases_are_skipped_for_products_and_materials() {
        for kind in ["product", "material"] {
            let (status, body) = run("BPA", &[("type", kind)]);
            assert_eq!(status, 200);
            assert_eq!(body["meta"]["alias_resolved"], Value::Null);
            let results = body["results"].as_array().unwrap();
            assert!(results.iter().all(|r| r["entity_type"] == kind));
        }
        let (_, body) = run("BPA", &[("type", "compound")]);
        assert_eq!(body["meta"]["alias_resolved"], BPA);
        let (_, body) = run("bisphenol", &[]);
        assert_eq!(body["meta"]["alias_resolved"], Value::Null);
    }

    #[test]
    fn a_typo_still_finds_the_compound() {
        let (_, body) = run("formaldehide", &[]);
        let results = body["results"].as_array().unwrap();
        let first = &results[0];
        assert_eq!(first["name"], "Formaldehyde");
        assert_eq!(first["cas"], "50-00-0");
        assert_eq!(first["matched"], "name");
        // One edit from the whole name; names that only contain the word come after.
        assert_eq!(first["score"], 50);
        assert!(
            results[1..]
                .iter()
                .all(|r| r["score"].as_u64().unwrap() < 50)
        );
        // Two edits are tolerated from 9 characters, none below 5.
        let (_, body) = run("formaldehdie", &[]);
        assert_eq!(body["results"][0]["name"], "Formaldehyde");
        let (_, body) = run("laed", &[("type", "compound")]);
        assert!(
            body["results"]
                .as_array()
                .unwrap()
                .iter()
                .all(|r| r["name"] != "Lead")
        );
    }

    #[test]
    fn exact_names_identifiers_and_cas_score_100() {
        let (_, body) = run("80-05-7", &[]);
        assert_eq!(body["results"][0]["id"], BPA);
        assert_eq!(body["results"][0]["matched"], "cas");
        assert_eq!(body["results"][0]["score"], 100);
        let (_, body) = run(BPA, &[]);
        assert_eq!(body["results"][0]["matched"], "id");
        let (_, body) = run("IISBACLAFKSPIT-UHFFFAOYSA-N", &[]);
        assert_eq!(body["results"][0]["id"], BPA);
        assert_eq!(body["results"][0]["matched"], "inchi_key");
        let (_, body) = run("formaldehyde", &[]);
        assert_eq!(body["results"][0]["name"], "Formaldehyde");
        assert_eq!(body["results"][0]["score"], 100);
    }

    #[test]
    fn results_are_ordered_and_paged() {
        let (_, all) = run("phthalate", &[("limit", "100")]);
        let results = all["results"].as_array().unwrap();
        let total = all["meta"]["total"].as_u64().unwrap() as usize;
        assert!(total > 20, "{total}");
        let scores: Vec<u64> = results
            .iter()
            .map(|r| r["score"].as_u64().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]));
        assert!(scores.iter().all(|s| (1..=100).contains(s)));
        let (_, page) = run("phthalate", &[("limit", "5"), ("offset", "3")]);
        assert_eq!(page["meta"]["limit"], 5);
        assert_eq!(page["meta"]["offset"], 3);
        assert_eq!(page["meta"]["total"], all["meta"]["total"]);
        assert_eq!(page["results"].as_array().unwrap()[..], results[3..8]);
        let (_, past) = run("phthalate", &[("offset", "100000")]);
        assert_eq!(past["results"].as_array().unwrap().len(), 0);
        assert_eq!(past["meta"]["total"], all["meta"]["total"]);
    }

    #[test]
    fn every_entity_type_is_searched() {
        let (dataset, _) = data();
        let product = dataset.products.values().next().unwrap();
        let material = dataset.materials.values().next().unwrap();
        let (_, body) = run(&product.name, &[("type", "product")]);
        assert_eq!(body["results"][0]["id"], product.id.as_str());
        assert!(body["results"][0].get("cas").is_none());
        let (_, body) = run(&material.slug, &[("type", "material")]);
        assert!(
            body["results"]
                .as_array()
                .unwrap()
                .iter()
                .any(|r| r["id"] == material.id.as_str())
        );
        let (_, body) = run("herbicide", &[("type", "compound")]);
        assert!(body["meta"]["total"].as_u64().unwrap() > 5);
    }

    #[test]
    fn critical_threats_are_never_returned() {
        let (dataset, _) = data();
        let threats: Vec<_> = dataset
            .compounds
            .values()
            .filter(|r| r.watch_class == WatchClass::CriticalThreat)
            .collect();
        assert!(
            !threats.is_empty(),
            "the corpus has critical-threat records"
        );
        for r in threats {
            for q in [r.name.as_str(), r.cas.as_str(), r.hq_id.as_str()] {
                let (_, body) = run(q, &[("limit", "100")]);
                let results = body["results"].as_array().unwrap();
                assert!(results.iter().all(|h| h["id"] != r.hq_id.as_str()), "{q}");
            }
        }
    }

    #[test]
    fn bad_parameters_are_400_naming_the_valid_values() {
        let (dataset, index) = data();
        let status = |q: Option<&str>, limit: Option<&str>, offset: Option<&str>, kind| {
            search(index, dataset, q, limit, offset, kind).status
        };
        assert_eq!(status(None, None, None, None), 400);
        assert_eq!(status(Some(" a "), None, None, None), 400);
        assert_eq!(status(Some(""), None, None, None), 400);
        for bad in ["0", "101", "-1", "ten", "1.5", ""] {
            assert_eq!(status(Some("lead"), Some(bad), None, None), 400, "{bad}");
        }
        for bad in ["-1", "x", "99999999999999999999999"] {
            assert_eq!(status(Some("lead"), None, Some(bad), None), 400, "{bad}");
        }
        assert_eq!(status(Some("lead"), Some("1"), None, None), 200);
        assert_eq!(status(Some("lead"), Some("100"), Some("0"), None), 200);
        let r = search(index, dataset, Some("lead"), None, None, Some("compounds"));
        assert_eq!(r.status, 400);
        let body: Value = serde_json::from_slice(&r.body).unwrap();
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("compound, product or material")
        );
    }

    #[test]
    fn hostile_input_is_answered_without_panicking() {
        let long = "x".repeat(100_000);
        let words: String = (0..5_000).map(|i| format!("w{i} ")).collect();
        let typos = "formaldehide ".repeat(50);
        for q in [
            "日本語の検索",
            "🧪🧪",
            "\u{0}\u{0}",
            "ǅǆ İstanbul",
            "%%",
            "--",
            "a\u{301}\u{301}",
            long.as_str(),
            words.as_str(),
            typos.as_str(),
        ] {
            let (status, body) = run(q, &[]);
            assert_eq!(status, 200, "{q:.40}");
            assert!(body["results"].is_array());
        }
    }

    #[test]
    fn distance_is_damerau_levenshtein() {
        let mut s = Scratch::default();
        let mut d = |a: &str, b: &str| {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            s.distance(&a, &b, 3)
        };
        assert_eq!(d("formaldehyde", "formaldehyde"), Some(0));
        assert_eq!(d("formaldehide", "formaldehyde"), Some(1));
        assert_eq!(d("benzeen", "benzene"), Some(1));
        assert_eq!(d("tolune", "toluene"), Some(1));
        assert_eq!(d("acetone", "acteone"), Some(1));
        assert_eq!(d("ca", "abc"), Some(3));
        assert_eq!(d("kitten", "sitting"), Some(3));
        assert_eq!(d("abcdefgh", "hgfedcba"), None);
        assert_eq!(d("", "abc"), Some(3));
    }

    /// Not a timing assertion: prints the mean so a regression is visible in the test log.
    #[test]
    fn search_time_over_200_queries() {
        let (dataset, index) = data();
        let queries = [
            "BPA",
            "benzene",
            "formaldehide",
            "lead",
            "phthalate",
            "80-05-7",
            "glyphosate",
            "pesticide",
            "baby bottle",
            "polyvinyl chloride",
            "chlorpyrifos",
            "mercury",
            "perfluorooctanoic",
            "toluen",
            "food contact",
            "hq-c-org-0002",
            "cosmetic",
            "acetaminophen",
            "nonylphenol",
            "dichloromethane",
        ];
        let start = Instant::now();
        let mut total = 0;
        for i in 0..200 {
            let r = search(
                index,
                dataset,
                Some(queries[i % queries.len()]),
                None,
                None,
                None,
            );
            assert_eq!(r.status, 200);
            total += r.body.len();
        }
        let mean = start.elapsed() / 200;
        println!("search: mean {mean:?} per query over 200 queries ({total} bytes)");
    }
}
