//! Scoring: which field matched and how strongly it identifies its entity, how the query met
//! it, the score table, and the Damerau-Levenshtein distance of typo matches.

use serde::Serialize;

/// Which field of an entity matched (the result's `matched`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum Field {
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
pub(super) enum Weight {
    Identifier,
    Name,
    AltName,
    Class,
}

impl Field {
    pub(super) fn weight(self) -> Weight {
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
pub(super) enum Match {
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
pub(super) fn score(weight: Weight, how: Match) -> Option<u8> {
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

/// Reused rows of the distance table, so a query allocates them once.
#[derive(Default)]
pub(super) struct Scratch {
    rows: [Vec<u8>; 3],
}

impl Scratch {
    /// Damerau-Levenshtein distance in its optimal-string-alignment form (insertions,
    /// deletions, substitutions and transpositions of adjacent characters), or `None` once it
    /// is certain to exceed `max`.
    pub(super) fn distance(&mut self, a: &[char], b: &[char], max: u8) -> Option<u8> {
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
