//! `SearchIndex`: every served compound, product and material as folded fields, with their
//! words and trigrams, built once per dataset.

use std::collections::HashMap;

use serde::Serialize;

use super::score::{Field, Weight};
use super::vocabulary::Vocabulary;
use crate::model::Dataset;
use crate::model::aliases::normalize as alias_key;
use crate::model::ids::CompoundId;
use crate::model::vocab::WatchClass;

/// What a result is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum EntityType {
    Compound,
    Product,
    Material,
}

/// Lower case, `_` read as a space (use classes are written `uv_filter`), whitespace runs
/// collapsed: the form every field and query is compared in.
pub(super) fn fold(s: &str) -> String {
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
pub(super) fn words(folded: &str) -> impl Iterator<Item = &str> {
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// How many bytes of a field's text its `head` holds.
pub(super) const HEAD: usize = 4;

/// One searchable string of an entity, in 20 bytes: a query reads the fields of all its
/// candidates, so they are kept small.
#[derive(Debug)]
pub(super) struct IndexedField {
    pub(super) field: Field,
    pub(super) entry: u32,
    /// The first bytes of its text (zeros past its end): most fields that do not start with
    /// a query show it here, without reading the text.
    pub(super) head: [u8; HEAD],
    /// Where its folded text starts in `SearchIndex::text`, and its length in bytes.
    pub(super) start: u32,
    pub(super) len: u32,
    /// How many distinct words the text has, at most 255: a query of more than
    /// `MAX_WORDS` words never compares it.
    pub(super) words: u8,
}

#[derive(Debug)]
pub(super) struct Entry {
    pub(super) kind: EntityType,
    pub(super) id: String,
    /// Its place in the order of equal scores: by folded name, then id.
    pub(super) rank: u32,
}

/// The search index of a dataset: built once (the runtime keeps it beside the dataset), read
/// concurrently by every request.
///
/// Every field's folded text is kept in `text`, joined by newlines (which folded text never
/// holds). Whole-string matches (exact, prefix, substring) are looked for only in the fields
/// holding the query's rarest trigram (or its byte pair); word and typo matches go through the
/// vocabulary's postings (one-typo words found by its deletion index): a query costs about
/// what it finds, not the size of the corpus.
#[derive(Debug)]
pub struct SearchIndex {
    pub(super) entries: Vec<Entry>,
    pub(super) fields: Vec<IndexedField>,
    pub(super) text: String,
    /// The fields holding each byte trigram of their text (ascending), to find substrings
    /// without scanning `text`.
    pub(super) trigrams: HashMap<[u8; 3], Vec<u32>>,
    /// The same for byte pairs: a two-byte query has no trigram, and its pair's fields are
    /// exactly those holding it.
    pub(super) bigrams: HashMap<[u8; 2], Vec<u32>>,
    pub(super) vocabulary: Vocabulary,
    /// Normalized alias -> the entry of its compound. Aliases of compounds that are not
    /// served (critical threats) or not in the corpus are left out.
    pub(super) aliases: HashMap<String, usize>,
    /// A name, synonym or identifier with case and whitespace removed
    /// (`model::aliases::normalize`) -> the entries holding it and the field, for
    /// `GET /api/lookup`'s exact matches.
    pub(super) exact: HashMap<String, Vec<(u32, Field)>>,
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
            bigrams: HashMap::new(),
            vocabulary: Vocabulary::default(),
            aliases: HashMap::new(),
            exact: HashMap::new(),
        };
        // The folded names, for the order of equal scores.
        let mut names = Vec::new();
        let positions = index.push_compounds(dataset, &mut names);
        index.push_products(dataset, &mut names);
        index.push_materials(dataset, &mut names);
        for a in &dataset.aliases {
            if let Some(&at) = dataset.by_cas(&a.cas).and_then(|r| positions.get(&r.hq_id)) {
                index.aliases.insert(alias_key(&a.alias), at);
            }
        }
        index.rank(&names);
        index.vocabulary.index_deletions();
        index
    }

    /// Indexes the served compounds (not critical threats); returns each one's entry by id,
    /// for the aliases.
    fn push_compounds<'d>(
        &mut self,
        dataset: &'d Dataset,
        names: &mut Vec<String>,
    ) -> HashMap<&'d CompoundId, usize> {
        let mut positions = HashMap::new();
        for r in dataset.compounds.values() {
            if r.watch_class == WatchClass::CriticalThreat {
                continue;
            }
            positions.insert(&r.hq_id, self.entries.len());
            let id = r.hq_id.to_string();
            self.push(names, EntityType::Compound, &id, &r.name, |e| {
                e.add(Field::Id, &id);
                e.add(Field::Cas, r.cas.as_str());
                for a in &r.alternate_cas {
                    e.add(Field::Cas, a.cas.as_str());
                }
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
        positions
    }

    fn push_products(&mut self, dataset: &Dataset, names: &mut Vec<String>) {
        for p in dataset.products.values() {
            self.push(names, EntityType::Product, &p.id, &p.name, |e| {
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
    }

    fn push_materials(&mut self, dataset: &Dataset, names: &mut Vec<String>) {
        for m in dataset.materials.values() {
            self.push(names, EntityType::Material, &m.id, &m.name, |e| {
                e.add(Field::Id, &m.id);
                e.add(Field::Name, &m.name);
                for s in &m.synonyms {
                    e.add(Field::Synonym, s);
                }
                e.add(Field::Family, &m.family);
                e.add(Field::Slug, &m.slug);
            });
        }
    }

    /// Ranks the entries by folded name, then id, once, so ordering results compares
    /// numbers. The sort is stable: entries alike in both keep their index order, as results
    /// listed in index order would.
    fn rank(&mut self, names: &[String]) {
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by(|&a, &b| {
            names[a]
                .cmp(&names[b])
                .then_with(|| self.entries[a].id.cmp(&self.entries[b].id))
        });
        for (rank, at) in order.into_iter().enumerate() {
            self.entries[at].rank = u32::try_from(rank).expect("fewer than 4 billion entities");
        }
    }

    /// The folded text of a field.
    pub(super) fn text_of(&self, f: &IndexedField) -> &str {
        &self.text[f.start as usize..(f.start + f.len) as usize]
    }

    fn push(
        &mut self,
        names: &mut Vec<String>,
        kind: EntityType,
        id: &str,
        name: &str,
        fill: impl FnOnce(&mut EntryBuilder),
    ) {
        let mut builder = EntryBuilder { fields: Vec::new() };
        fill(&mut builder);
        let entry = u32::try_from(self.entries.len()).expect("fewer than 4 billion entities");
        for (field, text) in builder.fields {
            if field.weight() != Weight::Class {
                let holders = self.exact.entry(alias_key(&text)).or_default();
                if !holders.iter().any(|(e, _)| *e == entry) {
                    holders.push((entry, field));
                }
            }
            let at = u32::try_from(self.fields.len()).expect("fewer than 4 billion fields");
            let mut ids: Vec<u32> = words(&text).map(|w| self.vocabulary.intern(w)).collect();
            ids.sort_unstable();
            ids.dedup();
            let word_count = ids.len();
            for w in ids {
                self.vocabulary.postings[w as usize].push(at);
            }
            // Fields arrive in ascending order: a repeat within one field is the last.
            let add = |list: &mut Vec<u32>| {
                if list.last() != Some(&at) {
                    list.push(at);
                }
            };
            for t in text.as_bytes().windows(3) {
                add(self.trigrams.entry([t[0], t[1], t[2]]).or_default());
            }
            for t in text.as_bytes().windows(2) {
                add(self.bigrams.entry([t[0], t[1]]).or_default());
            }
            let offset = |n: usize| u32::try_from(n).expect("less than 4 GiB of text");
            let mut head = [0; HEAD];
            let n = text.len().min(HEAD);
            head[..n].copy_from_slice(&text.as_bytes()[..n]);
            self.fields.push(IndexedField {
                field,
                entry,
                head,
                start: offset(self.text.len()),
                len: offset(text.len()),
                words: u8::try_from(word_count).unwrap_or(u8::MAX),
            });
            self.text.push_str(&text);
            self.text.push('\n');
        }
        self.entries.push(Entry {
            kind,
            id: id.to_string(),
            rank: 0,
        });
        names.push(fold(name));
    }
}
