//! `data/curated/group-rows.tsv`: the table rows that name a group or a qualified agent instead
//! of one CAS number ("Lead and lead compounds", "Ethyl alcohol in alcoholic beverages"), each
//! placed on its member compounds or explained. The ingest applies group and qualified rows to
//! their members, marked `via` the row; the reconciliation counts them; `check` verifies that
//! every member carries what its groups give.

use std::collections::BTreeMap;
use std::path::Path;

use crate::model::cas::Cas;

/// Where the file lives, relative to the data directory.
pub const FILE: &str = "curated/group-rows.tsv";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    /// The row applies to every member.
    Group,
    /// The row applies to its members only under the qualifier (a form, route, scenario).
    Qualified,
    /// The row names one corpus substance without giving its CAS number (OpenFoodTox's
    /// "Chlordane", "Cadmium (total)").
    Named,
    /// The row reaches no corpus compound; `reason` says why.
    Unmatched,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// The catalogue `table` the row belongs to (`prop65`, `ntp_roc`, `iarc`).
    pub table: String,
    /// The row's name as the table writes it.
    pub row: String,
    /// "toxicity|date" for Proposition 65, the group and volumes for IARC; empty for
    /// Proposition 65 continuation rows that carry no listing of their own.
    pub key: String,
    pub disposition: Disposition,
    /// How members are told: `element:Pb`, `element:As;no-carbon`, `list`, often `+list`.
    pub rule: String,
    pub members: Vec<Cas>,
    pub qualifier: Option<String>,
    pub reason: String,
}

/// The placements, by (table, row name compared without case and spacing).
#[derive(Debug, Default, Clone)]
pub struct GroupRows {
    rows: BTreeMap<(String, String), Placement>,
}

/// Row names compare without case and inner spacing, and without the cross-reference notes
/// ingest strips ("(see Lead and Lead Compounds)").
pub fn row_key(name: &str) -> String {
    super::names::clean_name(name).to_lowercase()
}

impl GroupRows {
    /// Reads the file; a data directory without it (a test corpus) places nothing.
    pub fn read(data_dir: &Path) -> Result<GroupRows, String> {
        let path = data_dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(GroupRows::default()),
            Err(e) => return Err(format!("{}: {e}", path.display())),
        };
        GroupRows::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn parse(text: &str) -> Result<GroupRows, String> {
        let mut rows = BTreeMap::new();
        for (n, line) in text.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let [
                table,
                row,
                key,
                disposition,
                rule,
                members,
                qualifier,
                reason,
            ] = cols[..]
            else {
                return Err(format!(
                    "line {}: expected 8 tab-separated columns (table, row_name, row_key, \
                     disposition, rule, members, qualifier, reason)",
                    n + 1
                ));
            };
            let disposition = match disposition {
                "group" => Disposition::Group,
                "qualified" => Disposition::Qualified,
                "named" => Disposition::Named,
                "unmatched" => Disposition::Unmatched,
                other => return Err(format!("line {}: unknown disposition {other:?}", n + 1)),
            };
            let members = members
                .split(',')
                .map(str::trim)
                .filter(|m| !m.is_empty() && *m != "-")
                .map(|m| Cas::parse(m).map_err(|e| format!("line {}: member {m}: {e}", n + 1)))
                .collect::<Result<Vec<_>, _>>()?;
            let placement = Placement {
                table: table.to_string(),
                row: row.to_string(),
                key: if key == "|" {
                    String::new()
                } else {
                    key.to_string()
                },
                disposition,
                rule: rule.to_string(),
                members,
                qualifier: Some(qualifier.trim())
                    .filter(|q| !q.is_empty() && *q != "-")
                    .map(String::from),
                reason: reason.to_string(),
            };
            // A name repeated for another listing row (cancer, then developmental) places
            // alike; the first line is kept.
            rows.entry((table.to_string(), row_key(row)))
                .or_insert(placement);
        }
        Ok(GroupRows { rows })
    }

    pub fn get(&self, table: &str, name: &str) -> Option<&Placement> {
        self.rows.get(&(table.to_string(), row_key(name)))
    }

    pub fn iter(&self) -> impl Iterator<Item = &Placement> {
        self.rows.values()
    }
}

impl Placement {
    /// The element whose compounds the row covers, from an `element:X` rule.
    pub fn element(&self) -> Option<&str> {
        let rest = self.rule.strip_prefix("element:")?;
        rest.split([';', '+']).next().filter(|e| !e.is_empty())
    }

    /// Whether the row gives its values to members (group, qualified and named rows do).
    pub fn applies(&self) -> bool {
        self.disposition != Disposition::Unmatched
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = "table\trow_name\trow_key\tdisposition\trule\tmembers\tqualifier\treason\n\
        prop65\tLead and lead compounds\tcancer|1-Oct-92\tgroup\telement:Pb+list\t7439-92-1,301-04-2\t-\tformula contains Pb\n\
        prop65\tLead and Lead  compounds\t|\tgroup\tlist\t7439-92-1\t-\tcontinuation row\n\
        prop65\tEthyl alcohol in alcoholic beverages\tdevelopmental|1-Oct-87\tqualified\tlist\t64-17-5\tin alcoholic beverages\tbeverages\n\
        ntp_roc\tLead Compounds (see Lead and Lead Compounds)\tRAHC\tgroup\telement:Pb\t301-04-2\t-\tlead\n\
        prop65\tAlcoholic beverages\tcancer|29-Apr-11\tunmatched\t-\t-\t-\tan exposure\n";

    #[test]
    fn rows_are_found_by_name_whatever_the_case_spacing_and_cross_reference() {
        let rows = GroupRows::parse(TSV).unwrap();
        let lead = rows.get("prop65", "LEAD AND LEAD COMPOUNDS").unwrap();
        assert_eq!(
            lead.members.len(),
            2,
            "the first line of a repeated name wins"
        );
        assert_eq!(lead.element(), Some("Pb"));
        assert_eq!(lead.disposition, Disposition::Group);
        let ethanol = rows
            .get("prop65", "Ethyl alcohol in alcoholic beverages")
            .unwrap();
        assert_eq!(ethanol.qualifier.as_deref(), Some("in alcoholic beverages"));
        assert!(ethanol.applies());
        assert!(rows.get("ntp_roc", "Lead Compounds").is_some());
        assert!(!rows.get("prop65", "Alcoholic beverages").unwrap().applies());
        assert!(rows.get("iarc", "Lead and lead compounds").is_none());
    }

    #[test]
    fn a_malformed_line_is_named() {
        let err = GroupRows::parse("header\nprop65\tx\n").unwrap_err();
        assert!(err.starts_with("line 2: expected 8"), "{err}");
        let bad = "h\nprop65\tx\tk\tgroup\tlist\t50-00-1\t-\tr\n";
        assert!(
            GroupRows::parse(bad)
                .unwrap_err()
                .contains("member 50-00-1")
        );
    }
}
