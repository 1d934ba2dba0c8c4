//! The index's vocabulary: every distinct word once with its postings, grouped by length and
//! character set for the typo search.

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

/// Every distinct word of the index, once: where it occurs (postings), and grouped by length
/// with its character set so a typo search compares only words that can be within reach.
#[derive(Debug, Default)]
pub(super) struct Vocabulary {
    ids: HashMap<String, u32>,
    chars: Vec<Vec<char>>,
    sets: Vec<u64>,
    /// The fields (index into `SearchIndex::fields`) each word occurs in, ascending.
    pub(super) postings: Vec<Vec<u32>>,
    by_len: Vec<Vec<u32>>,
}

impl Vocabulary {
    pub(super) fn intern(&mut self, word: &str) -> u32 {
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
    pub(super) fn meets(&self, word: &str, scratch: &mut Scratch) -> Vec<(u32, u8)> {
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
