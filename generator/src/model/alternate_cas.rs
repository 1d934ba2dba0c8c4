//! `data/curated/alternate-cas.tsv`: CAS numbers that name the same substance as a corpus
//! compound's CAS (a number the CAS Registry or a list gives beside it, or a deleted number a
//! list still files the substance under), each with the documents that say so. The ingest
//! files every row about an alternate under its primary CAS, so one record carries the facts
//! of both, and the id registry answers an alternate with the primary's id.

use std::collections::BTreeMap;
use std::path::Path;

use crate::model::cas::Cas;

/// Where the file lives, relative to the data directory.
pub const FILE: &str = "curated/alternate-cas.tsv";

const HEADER: &str = "alternate_cas\tprimary_cas\tcitation";

#[derive(Debug, Clone, PartialEq)]
pub struct Alternate {
    pub cas: Cas,
    pub primary: Cas,
    /// The documents that give both numbers to one substance.
    pub citation: String,
}

#[derive(Debug, Clone, Default)]
pub struct AlternateCas {
    by_alternate: BTreeMap<Cas, Alternate>,
}

impl AlternateCas {
    /// The file under `data_dir`; none is no alternates (a test corpus).
    pub fn read(data_dir: &Path) -> Result<AlternateCas, String> {
        let path = data_dir.join(FILE);
        match std::fs::read_to_string(&path) {
            Ok(text) => AlternateCas::parse(&text).map_err(|e| format!("{}: {e}", path.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(AlternateCas::default()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    pub fn parse(text: &str) -> Result<AlternateCas, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.starts_with('#'));
        match lines.next() {
            Some((_, HEADER)) => {}
            other => return Err(format!("the header must be {HEADER:?}, not {other:?}")),
        }
        let mut by_alternate = BTreeMap::new();
        for (n, line) in lines.filter(|(_, l)| !l.is_empty()) {
            let at = |m: String| format!("line {}: {m}", n + 1);
            let cols: Vec<&str> = line.split('\t').collect();
            let [alternate, primary, citation] = cols[..] else {
                return Err(at(format!("{} columns, not 3", cols.len())));
            };
            let cas = Cas::parse(alternate).map_err(|e| at(e.to_string()))?;
            let primary = Cas::parse(primary).map_err(|e| at(e.to_string()))?;
            if cas == primary {
                return Err(at(format!("{cas} is given as its own alternate")));
            }
            if citation.trim().is_empty() {
                return Err(at(format!("{cas} cites no document")));
            }
            let entry = Alternate {
                cas: cas.clone(),
                primary,
                citation: citation.to_string(),
            };
            if by_alternate.insert(cas.clone(), entry).is_some() {
                return Err(at(format!("{cas} is listed twice")));
            }
        }
        if let Some(a) = by_alternate
            .values()
            .find(|a| by_alternate.contains_key(&a.primary))
        {
            return Err(format!(
                "{}'s primary {} is itself an alternate: name the final CAS",
                a.cas, a.primary
            ));
        }
        Ok(AlternateCas { by_alternate })
    }

    /// The CAS the substance is filed under: `cas` itself unless it is an alternate.
    pub fn primary<'a>(&'a self, cas: &'a Cas) -> &'a Cas {
        self.by_alternate.get(cas).map_or(cas, |a| &a.primary)
    }

    /// The alternates of `primary`, in CAS order.
    pub fn of(&self, primary: &Cas) -> Vec<&Alternate> {
        self.by_alternate
            .values()
            .filter(|a| &a.primary == primary)
            .collect()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Alternate> {
        self.by_alternate.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cas::cas;

    #[test]
    fn an_alternate_is_filed_under_its_primary() {
        let a = AlternateCas::parse(&format!(
            "{HEADER}\n31119-53-6\t10124-36-4\tECHA Candidate List entry of EC 233-331-6\n"
        ))
        .unwrap();
        assert_eq!(a.primary(&cas("31119-53-6")), &cas("10124-36-4"));
        assert_eq!(a.primary(&cas("10124-36-4")), &cas("10124-36-4"));
        let of: Vec<&str> = a
            .of(&cas("10124-36-4"))
            .into_iter()
            .map(|x| x.cas.as_str())
            .collect();
        assert_eq!(of, ["31119-53-6"]);
    }

    #[test]
    fn chains_self_references_and_uncited_rows_are_refused() {
        for (body, said) in [
            (
                "66733-21-9\t12510-42-8\tIARC\n12510-42-8\t10124-36-4\tx\n",
                "itself an alternate",
            ),
            ("10124-36-4\t10124-36-4\tx\n", "its own alternate"),
            ("31119-53-6\t10124-36-4\t \n", "cites no document"),
            (
                "31119-53-6\t10124-36-4\tx\n31119-53-6\t10124-36-4\ty\n",
                "twice",
            ),
        ] {
            let e = AlternateCas::parse(&format!("{HEADER}\n{body}")).unwrap_err();
            assert!(e.contains(said), "{e}");
        }
    }
}
