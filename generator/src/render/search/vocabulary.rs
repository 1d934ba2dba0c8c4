//! The index's vocabulary: every distinct word once with its postings, and what the typo
//! search reads to find the words within reach of a query word: a deletion index for the
//! words a one-typo query meets, the words by length (with cheap lower bounds of the
//! distance) for two-typo queries.

use std::collections::HashMap;

use super::score::Scratch;

/// The typo distance a query word's length allows: none under 5 characters, 1 from 5, 2 from 9.
fn reach(len: usize) -> u8 {
    match len {
        0..5 => 0,
        5..9 => 1,
        _ => 2,
    }
}

/// The lengths of the words a one-typo query (5 to 8 characters) meets.
const ONE_TYPO_WORDS: std::ops::RangeInclusive<usize> = 4..=9;

/// The hash of `chars` without the character at `deleted` (none when it is past the end).
fn hash_without(chars: &[char], deleted: usize) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, c) in chars.iter().enumerate() {
        if i != deleted {
            h = (h ^ u64::from(u32::from(*c))).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    // FNV leaves its high bits the least mixed, and the directory reads them: mix them.
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^= h >> 32;
    (h >> 32) as u32
}

/// The strings left by deleting at most one character of `chars`, as hashes (a string may
/// come more than once).
fn neighbourhood(chars: &[char], mut each: impl FnMut(u32)) {
    for deleted in 0..=chars.len() {
        each(hash_without(chars, deleted));
    }
}

/// The deletion index of one-typo queries. Two words within distance 1 of each other leave
/// the same string after at most one deletion from each (a substitution or a transposition
/// costs one deletion on each side, an insertion one on the side that has the character), so
/// a query word looks up the strings its own deletions leave instead of reading every word of
/// a near length; the words found are then measured. Strings are kept as 32-bit hashes: two
/// strings that share one only bring a word to be measured in vain. (Two-typo queries read
/// the words of their lengths instead: their index would hold every word's two-deletion
/// strings, about 1.4 million on the committed corpus, and a query would look up about half
/// the square of its length.)
#[derive(Debug, Default)]
struct Deletions {
    /// Where the hashes with each value of their top 16 bits start in `hashes` (one more for
    /// the end).
    starts: Vec<u32>,
    /// Ascending, each beside the word it came from in `words`.
    hashes: Vec<u32>,
    words: Vec<u32>,
}

impl Deletions {
    fn build(chars: &[Vec<char>]) -> Deletions {
        let mut pairs: Vec<(u32, u32)> = Vec::new();
        for (id, word) in chars.iter().enumerate() {
            if ONE_TYPO_WORDS.contains(&word.len()) {
                let id = u32::try_from(id).expect("fewer than 4 billion distinct words");
                neighbourhood(word, |h| pairs.push((h, id)));
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut starts = vec![0u32; (1 << 16) + 1];
        for (h, _) in &pairs {
            starts[(*h >> 16) as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let (hashes, words): (Vec<u32>, Vec<u32>) = pairs.into_iter().unzip();
        Deletions {
            starts,
            hashes,
            words,
        }
    }

    /// The words whose neighbourhood holds `hash`.
    fn holders(&self, hash: u32) -> &[u32] {
        let top = (hash >> 16) as usize;
        let (Some(&start), Some(&end)) = (self.starts.get(top), self.starts.get(top + 1)) else {
            return &[];
        };
        let (start, end) = (start as usize, end as usize);
        let bucket = &self.hashes[start..end];
        let from = start + bucket.partition_point(|h| *h < hash);
        let to = start + bucket.partition_point(|h| *h <= hash);
        &self.words[from..to]
    }
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

/// How many characters of a word fall in each of 32 classes: letters have their own, digits
/// and other characters share the last six.
type Counts = [u8; 32];

fn char_counts(word: &[char]) -> Counts {
    let mut counts: Counts = [0; 32];
    for &c in word {
        let k = match c {
            'a'..='z' => c as usize - 'a' as usize,
            _ => 26 + c as usize % 6,
        };
        counts[k] = counts[k].saturating_add(1);
    }
    counts
}

/// How many characters the two counts differ by. An edit changes it by at most two (a
/// substitution takes one character and adds another; a transposition changes nothing), and
/// classes shared by several characters or saturated counts only make it smaller: a lower
/// bound of twice the distance.
fn count_gap(a: &Counts, b: &Counts) -> u32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| u32::from(x.abs_diff(*y)))
        .sum()
}

/// The words of one length, with their character sets and counts side by side so a two-typo
/// search runs through them in order.
#[derive(Debug, Default, Clone)]
struct Bucket {
    ids: Vec<u32>,
    sets: Vec<u64>,
    counts: Vec<Counts>,
}

/// The shortest word a two-typo query (from 9 characters) meets.
const TWO_TYPO_WORDS: usize = 7;

/// Every distinct word of the index, once: where it occurs (postings), the deletion index of
/// one-typo queries, and the words a two-typo query meets grouped by length with their
/// character sets and counts, so it computes the distance only for words that can be within
/// reach.
#[derive(Debug, Default)]
pub(super) struct Vocabulary {
    ids: HashMap<String, u32>,
    chars: Vec<Vec<char>>,
    /// The fields (index into `SearchIndex::fields`) each word occurs in, ascending.
    pub(super) postings: Vec<Vec<u32>>,
    deletions: Deletions,
    by_len: Vec<Bucket>,
}

impl Vocabulary {
    pub(super) fn intern(&mut self, word: &str) -> u32 {
        if let Some(id) = self.ids.get(word) {
            return *id;
        }
        let id = u32::try_from(self.chars.len()).expect("fewer than 4 billion distinct words");
        let chars: Vec<char> = word.chars().collect();
        if chars.len() >= TWO_TYPO_WORDS {
            if self.by_len.len() <= chars.len() {
                self.by_len.resize(chars.len() + 1, Bucket::default());
            }
            let bucket = &mut self.by_len[chars.len()];
            bucket.ids.push(id);
            bucket.sets.push(char_set(&chars));
            bucket.counts.push(char_counts(&chars));
        }
        self.chars.push(chars);
        self.postings.push(Vec::new());
        self.ids.insert(word.to_string(), id);
        id
    }

    /// Builds the deletion index, once every word is interned.
    pub(super) fn index_deletions(&mut self) {
        self.deletions = Deletions::build(&self.chars);
    }

    /// The words a query word meets, with their distance: itself (0) and the words within
    /// the typo distance its length allows (1 from 5 characters, 2 from 9).
    pub(super) fn meets(&self, word: &str, scratch: &mut Scratch) -> Vec<(u32, u8)> {
        let mut out: Vec<(u32, u8)> = self.ids.get(word).map(|id| (*id, 0)).into_iter().collect();
        let chars: Vec<char> = word.chars().collect();
        match reach(chars.len()) {
            0 => {}
            1 => self.one_typo(&chars, scratch, &mut out),
            max => self.two_typos(&chars, max, scratch, &mut out),
        }
        out
    }

    /// The words one typo from `chars`, through the deletion index.
    fn one_typo(&self, chars: &[char], scratch: &mut Scratch, out: &mut Vec<(u32, u8)>) {
        let mut near: Vec<u32> = Vec::new();
        neighbourhood(chars, |h| near.extend_from_slice(self.deletions.holders(h)));
        near.sort_unstable();
        near.dedup();
        for id in near {
            if let Some(d @ 1..) = scratch.distance(chars, &self.chars[id as usize], 1) {
                out.push((id, d));
            }
        }
    }

    /// The words one or two typos from `chars`, read by length.
    fn two_typos(&self, chars: &[char], max: u8, scratch: &mut Scratch, out: &mut Vec<(u32, u8)>) {
        let bound = 2 * u32::from(max);
        let (set, counts) = (char_set(chars), char_counts(chars));
        let lengths = chars.len().saturating_sub(max.into())..=chars.len() + usize::from(max);
        for bucket in lengths.filter_map(|len| self.by_len.get(len)) {
            // Two cheap bounds first: the set rules out most words (tested 64 at a time
            // without a branch, which the compiler can vectorize), the counts most of the rest.
            for (c, chunk) in bucket.sets.chunks(64).enumerate() {
                let mut near = 0u64;
                for (j, other) in chunk.iter().enumerate() {
                    near |= u64::from((set ^ other).count_ones() <= bound) << j;
                }
                while near != 0 {
                    let i = c * 64 + near.trailing_zeros() as usize;
                    near &= near - 1;
                    if count_gap(&counts, &bucket.counts[i]) > bound {
                        continue;
                    }
                    let id = bucket.ids[i];
                    if let Some(d @ 1..) = scratch.distance(chars, &self.chars[id as usize], max) {
                        out.push((id, d));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word of `vocabulary` within the query's reach, measured one by one.
    fn measured(vocabulary: &Vocabulary, query: &str) -> Vec<(u32, u8)> {
        let q: Vec<char> = query.chars().collect();
        let max = reach(q.len());
        let mut scratch = Scratch::default();
        let mut out: Vec<(u32, u8)> = vocabulary
            .chars
            .iter()
            .enumerate()
            .filter_map(|(id, w)| {
                let d = if *w == q {
                    0
                } else {
                    scratch.distance(&q, w, max).filter(|d| *d >= 1)?
                };
                Some((u32::try_from(id).unwrap(), d))
            })
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn every_word_within_reach_is_met_by_index_or_by_length() {
        let words = [
            "benzene",
            "benzine",
            "benzen",
            "bezene",
            "ebnzene",
            "formaldehyde",
            "formaldehide",
            "fromaldehyde",
            "formaldehydes",
            "acetone",
            "acetones",
            "cetone",
            "lead",
            "leads",
            "toluene",
            "toulene",
            "xylene",
            "xylenes",
            "phthalate",
            "phtalate",
            "phthalates",
            "ab",
            "abc",
            "abcd",
            "abcde",
        ];
        let mut vocabulary = Vocabulary::default();
        for w in words {
            vocabulary.intern(w);
        }
        vocabulary.index_deletions();
        let mut queries: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        // Every query one edit away from a word, of every kind: a deletion, a substitution
        // or insertion of `x`, and a transposition.
        for w in words {
            let c: Vec<char> = w.chars().collect();
            for i in 0..c.len() {
                let mut d = c.clone();
                d.remove(i);
                queries.push(d.iter().collect());
                let mut s = c.clone();
                s[i] = 'x';
                queries.push(s.iter().collect());
                let mut ins = c.clone();
                ins.insert(i, 'x');
                queries.push(ins.iter().collect());
                if i + 1 < c.len() {
                    let mut t = c.clone();
                    t.swap(i, i + 1);
                    queries.push(t.iter().collect::<String>());
                    // Two edits: the transposition and a deletion at the end.
                    t.pop();
                    queries.push(t.iter().collect());
                }
            }
        }
        let mut scratch = Scratch::default();
        let mut met_some = 0;
        for q in &queries {
            let mut found = vocabulary.meets(q, &mut scratch);
            found.sort_unstable();
            let expected = measured(&vocabulary, q);
            assert_eq!(found, expected, "{q}");
            met_some += usize::from(expected.iter().any(|(_, d)| *d > 0));
        }
        assert!(met_some > 100, "{met_some} queries met a typo");
    }
}
