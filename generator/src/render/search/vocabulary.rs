//! The index's vocabulary: every distinct word once with its postings, grouped by length with
//! cheap lower bounds of the distance for the typo search.

use std::collections::HashMap;

use super::score::Scratch;

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

/// The words of one length, with their character sets and counts side by side so a typo
/// search runs through them in order.
#[derive(Debug, Default, Clone)]
struct Bucket {
    ids: Vec<u32>,
    sets: Vec<u64>,
    counts: Vec<Counts>,
}

/// Every distinct word of the index, once: where it occurs (postings), and grouped by length
/// with its character set and counts so a typo search computes the distance only for words
/// that can be within reach.
#[derive(Debug, Default)]
pub(super) struct Vocabulary {
    ids: HashMap<String, u32>,
    chars: Vec<Vec<char>>,
    /// The fields (index into `SearchIndex::fields`) each word occurs in, ascending.
    pub(super) postings: Vec<Vec<u32>>,
    by_len: Vec<Bucket>,
}

impl Vocabulary {
    pub(super) fn intern(&mut self, word: &str) -> u32 {
        if let Some(id) = self.ids.get(word) {
            return *id;
        }
        let id = u32::try_from(self.chars.len()).expect("fewer than 4 billion distinct words");
        let chars: Vec<char> = word.chars().collect();
        if self.by_len.len() <= chars.len() {
            self.by_len.resize(chars.len() + 1, Bucket::default());
        }
        let bucket = &mut self.by_len[chars.len()];
        bucket.ids.push(id);
        bucket.sets.push(char_set(&chars));
        bucket.counts.push(char_counts(&chars));
        self.chars.push(chars);
        self.postings.push(Vec::new());
        self.ids.insert(word.to_string(), id);
        id
    }

    /// The words a query word meets, with their distance: itself (0) and the words within
    /// the typo distance its length allows (1 from 5 characters, 2 from 9).
    pub(super) fn meets(&self, word: &str, scratch: &mut Scratch) -> Vec<(u32, u8)> {
        let mut out: Vec<(u32, u8)> = self.ids.get(word).map(|id| (*id, 0)).into_iter().collect();
        let chars: Vec<char> = word.chars().collect();
        let max: u8 = match chars.len() {
            0..5 => return out,
            5..9 => 1,
            _ => 2,
        };
        let bound = 2 * u32::from(max);
        let (set, counts) = (char_set(&chars), char_counts(&chars));
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
                    if let Some(d @ 1..) = scratch.distance(&chars, &self.chars[id as usize], max) {
                        out.push((id, d));
                    }
                }
            }
        }
        out
    }
}
