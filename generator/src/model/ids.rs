//! Compound ids (`hq-c-<kind>-<6 digits>`) and the CAS -> id registry in `data/ids.tsv`.
//!
//! **Invariant:** an id, once written to the registry, is never reused or renumbered. A new
//! compound takes the next number after the highest ever issued for its kind.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use crate::model::alternate_cas::AlternateCas;
use crate::model::cas::Cas;

/// The kind segment of a compound id. Declared in the alphabetical order of the codes, so that
/// the derived order of ids is the order of their text (every list and index is keyed by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CompoundKind {
    /// Inorganic compounds, elements and metals.
    Ino,
    /// Mixtures, polymers, UVCBs and natural extracts.
    Mix,
    /// Organic compounds.
    Org,
}

impl CompoundKind {
    /// Every kind, in the order `ids.tsv` lists them (the order the kinds were introduced in).
    pub const ALL: [CompoundKind; 3] = [CompoundKind::Org, CompoundKind::Ino, CompoundKind::Mix];

    pub fn code(self) -> &'static str {
        match self {
            CompoundKind::Org => "org",
            CompoundKind::Ino => "ino",
            CompoundKind::Mix => "mix",
        }
    }

    fn from_code(code: &str) -> Option<CompoundKind> {
        CompoundKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// A well-formed compound id. Its order is the order of its text: the kinds are declared in
/// the order of their codes, and `parse` takes exactly six digits (`assign` never reaches a
/// seventh: a kind holds a few thousand compounds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CompoundId {
    pub kind: CompoundKind,
    pub number: u32,
}

impl CompoundId {
    /// Parses `hq-c-org-000123`; anything else is `None`.
    pub fn parse(s: &str) -> Option<CompoundId> {
        let rest = s.strip_prefix("hq-c-")?;
        let (kind, number) = rest.split_once('-')?;
        let kind = CompoundKind::from_code(kind)?;
        if number.len() != 6 || !number.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(CompoundId {
            kind,
            number: number.parse().ok()?,
        })
    }
}

impl fmt::Display for CompoundId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "hq-c-{}-{:06}", self.kind.code(), self.number)
    }
}

/// Its text, where a string is kept (a response's purge key).
impl From<&CompoundId> for String {
    fn from(id: &CompoundId) -> String {
        id.to_string()
    }
}

/// Written as its text, the same JSON bytes as the string it replaced.
impl serde::Serialize for CompoundId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Read by parsing: a malformed id makes the file that holds it unreadable, with the reason.
impl<'de> serde::Deserialize<'de> for CompoundId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        CompoundId::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "malformed compound id {text:?} (expected hq-c-<org|ino|mix>-<6 digits>)"
            ))
        })
    }
}

plain_string_schema!(CompoundId);

#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Line {
        path: String,
        line: usize,
        message: String,
    },
}

/// The CAS -> id map. Retired ids stay in the file (marked `retired`) so they are never reissued.
#[derive(Debug, Clone, Default)]
pub struct IdRegistry {
    by_cas: BTreeMap<Cas, CompoundId>,
    retired: Vec<(Cas, CompoundId)>,
    /// Alternate CAS -> primary CAS (`curated/alternate-cas.tsv`), answered with the primary's id.
    alternates: BTreeMap<Cas, Cas>,
}

impl IdRegistry {
    pub fn read(path: &Path) -> Result<IdRegistry, RegistryError> {
        let shown = path.display().to_string();
        match std::fs::read_to_string(path) {
            Ok(text) => IdRegistry::parse(&text, &shown),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(IdRegistry::default()),
            Err(source) => Err(RegistryError::Io {
                path: shown,
                source,
            }),
        }
    }

    /// Parses the TSV text: `cas<TAB>hq_id[<TAB>retired]`, `#` comments, a header line.
    pub fn parse(text: &str, path: &str) -> Result<IdRegistry, RegistryError> {
        let mut registry = IdRegistry::default();
        let mut seen_ids = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let err = |message: String| RegistryError::Line {
                path: path.to_string(),
                line: line_no,
                message,
            };
            if line.is_empty() || line.starts_with('#') || line.starts_with("cas\t") {
                continue;
            }
            let mut cols = line.split('\t');
            let (cas, id, state) = (cols.next(), cols.next(), cols.next());
            let cas = Cas::parse(cas.unwrap_or_default()).map_err(|e| err(e.to_string()))?;
            let id = id
                .and_then(CompoundId::parse)
                .ok_or_else(|| err(format!("malformed compound id {:?}", id.unwrap_or(""))))?;
            if let Some(prev) = seen_ids.insert(id, cas.clone()) {
                return Err(err(format!("{id} is issued twice (also to {prev})")));
            }
            match state {
                None | Some("") => {
                    if registry.by_cas.insert(cas.clone(), id).is_some() {
                        return Err(err(format!("CAS {cas} is listed twice")));
                    }
                }
                Some("retired") => registry.retired.push((cas, id)),
                Some(other) => return Err(err(format!("unknown state {other:?}"))),
            }
        }
        Ok(registry)
    }

    /// The id of `cas`, or of the compound `cas` is an alternate number of.
    pub fn get(&self, cas: &Cas) -> Option<&CompoundId> {
        self.by_cas
            .get(cas)
            .or_else(|| self.by_cas.get(self.alternates.get(cas)?))
    }

    /// Answers each alternate CAS with its primary's id. An alternate that still holds an id of
    /// its own keeps it, and is returned: its id must be retired.
    pub fn with_alternates(&mut self, alternates: &AlternateCas) -> Vec<(Cas, CompoundId)> {
        self.alternates = alternates
            .iter()
            .map(|a| (a.cas.clone(), a.primary.clone()))
            .collect();
        alternates
            .iter()
            .filter_map(|a| Some((a.cas.clone(), *self.by_cas.get(&a.cas)?)))
            .collect()
    }

    pub fn len(&self) -> usize {
        self.by_cas.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_cas.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Cas, &CompoundId)> {
        self.by_cas.iter()
    }

    /// The id of `cas`, issuing the next free number of `kind` if it has none.
    pub fn assign(&mut self, cas: &Cas, kind: CompoundKind) -> CompoundId {
        if let Some(id) = self.by_cas.get(cas) {
            return *id;
        }
        let next = self
            .by_cas
            .values()
            .chain(self.retired.iter().map(|(_, id)| id))
            .filter(|id| id.kind == kind)
            .map(|id| id.number)
            .max()
            .unwrap_or(0)
            + 1;
        let id = CompoundId { kind, number: next };
        self.by_cas.insert(cas.clone(), id);
        id
    }

    /// The TSV text, by kind in `CompoundKind::ALL` order and then by number, so that new
    /// compounds append at the end of their kind.
    pub fn to_tsv(&self) -> String {
        let mut rows: Vec<(&CompoundId, &Cas, &str)> = self
            .by_cas
            .iter()
            .map(|(c, id)| (id, c, ""))
            .chain(self.retired.iter().map(|(c, id)| (id, c, "retired")))
            .collect();
        let kind_rank = |kind| CompoundKind::ALL.iter().position(|k| *k == kind);
        rows.sort_by_key(|&(id, cas, state)| (kind_rank(id.kind), id.number, cas, state));
        let mut out = String::from(
            "# CAS -> compound id. Ids are never reused or renumbered; see data/README.md.\ncas\thq_id\n",
        );
        for (id, cas, state) in rows {
            out.push_str(cas.as_str());
            out.push('\t');
            out.push_str(&id.to_string());
            if !state.is_empty() {
                out.push('\t');
                out.push_str(state);
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cas::cas;

    #[test]
    fn id_round_trip() {
        let id = CompoundId::parse("hq-c-org-000123").unwrap();
        assert_eq!(id.kind, CompoundKind::Org);
        assert_eq!(id.number, 123);
        assert_eq!(id.to_string(), "hq-c-org-000123");
    }

    #[test]
    fn id_order_is_text_order() {
        let texts = [
            "hq-c-org-000010",
            "hq-c-mix-000002",
            "hq-c-ino-000100",
            "hq-c-org-000002",
            "hq-c-ino-000009",
            "hq-c-mix-000011",
        ];
        let mut by_text = texts.map(String::from).to_vec();
        by_text.sort();
        let mut by_id: Vec<CompoundId> =
            texts.iter().filter_map(|t| CompoundId::parse(t)).collect();
        by_id.sort();
        let by_id: Vec<String> = by_id.iter().map(ToString::to_string).collect();
        assert_eq!(by_id, by_text);
    }

    #[test]
    fn serde_is_the_plain_string() {
        let id = CompoundId::parse("hq-c-ino-000042").unwrap();
        let json = serde_json::to_string(&id).unwrap();
        assert_eq!(json, "\"hq-c-ino-000042\"");
        assert_eq!(serde_json::from_str::<CompoundId>(&json).unwrap(), id);
        let e = serde_json::from_str::<CompoundId>("\"hq-c-ino-42\"").unwrap_err();
        assert!(e.to_string().contains("malformed compound id"), "{e}");
    }

    #[test]
    fn malformed_ids() {
        for bad in [
            "hq-c-org-12345",
            "hq-c-abc-000001",
            "hq-m-org-000001",
            "hq-c-org-00000a",
            "hq-c-ORG-000001",
            "hq-c-org-0000001",
        ] {
            assert_eq!(CompoundId::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn assignment_takes_next_free_number_of_kind() {
        let mut reg = IdRegistry::parse(
            "cas\thq_id\n50-00-0\thq-c-org-000001\n7440-43-9\thq-c-ino-000001\n",
            "t",
        )
        .unwrap();
        assert_eq!(
            reg.assign(&cas("71-43-2"), CompoundKind::Org).to_string(),
            "hq-c-org-000002"
        );
        assert_eq!(
            reg.assign(&cas("7439-92-1"), CompoundKind::Ino).to_string(),
            "hq-c-ino-000002"
        );
        // Existing CAS keeps its id whatever kind is asked.
        assert_eq!(
            reg.assign(&cas("50-00-0"), CompoundKind::Mix).to_string(),
            "hq-c-org-000001"
        );
    }

    #[test]
    fn retired_ids_are_never_reissued() {
        let mut reg = IdRegistry::parse(
            "50-00-0\thq-c-org-000001\n71-43-2\thq-c-org-000007\tretired\n",
            "t",
        )
        .unwrap();
        assert_eq!(
            reg.assign(&cas("108-88-3"), CompoundKind::Org).to_string(),
            "hq-c-org-000008"
        );
        assert!(reg.to_tsv().contains("71-43-2\thq-c-org-000007\tretired\n"));
    }

    #[test]
    fn an_alternate_cas_answers_with_its_primarys_id() {
        let mut reg = IdRegistry::parse(
            "10124-36-4\thq-c-ino-000129\n31119-53-6\thq-c-ino-000196\tretired\n\
             66733-21-9\thq-c-mix-000103\n",
            "t",
        )
        .unwrap();
        assert_eq!(reg.get(&cas("31119-53-6")), None);
        let alternates = AlternateCas::parse(
            "alternate_cas\tprimary_cas\tcitation\n31119-53-6\t10124-36-4\tx\n\
             66733-21-9\t12510-42-8\ty\n",
        )
        .unwrap();
        let unretired = reg.with_alternates(&alternates);
        assert_eq!(
            reg.get(&cas("31119-53-6"))
                .map(ToString::to_string)
                .as_deref(),
            Some("hq-c-ino-000129")
        );
        // An alternate that still holds an id keeps it and is reported.
        assert_eq!(unretired.len(), 1);
        assert_eq!(unretired[0].0.as_str(), "66733-21-9");
        // Alternates are no lines of the registry.
        assert!(!reg.to_tsv().contains("12510-42-8"));
    }

    #[test]
    fn registry_errors_name_the_line() {
        let e = IdRegistry::parse(
            "50-00-0\thq-c-org-000001\n71-43-2\thq-c-org-000001\n",
            "ids.tsv",
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("ids.tsv:2:"), "{e}");
        let e = IdRegistry::parse("50-00-1\thq-c-org-000001\n", "ids.tsv").unwrap_err();
        assert!(e.to_string().contains("check digit"), "{e}");
    }

    /// The registry lists the kinds in `CompoundKind::ALL` order, not in the order of ids.
    #[test]
    fn tsv_round_trip() {
        let text = "# CAS -> compound id. Ids are never reused or renumbered; see data/README.md.\ncas\thq_id\n50-00-0\thq-c-org-000001\n7440-43-9\thq-c-ino-000001\n8001-54-5\thq-c-mix-000001\n";
        assert_eq!(IdRegistry::parse(text, "t").unwrap().to_tsv(), text);
    }
}
