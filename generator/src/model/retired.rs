//! `data/retired.tsv`: the material and product ids taken out of service, each with the entity
//! of its family that replaces it (data/README.md, "Retired ids"). A retired id is never
//! issued again, and every URL that names it answers a 301 to the same URL for its
//! replacement (`render::moved`, and the `_redirects` rules `build::site::netlify` writes).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::Problem;

/// Where the file lives, relative to the data directory.
pub const FILE: &str = "retired.tsv";

const HEADER: &str = "id\treplaced_by\tretired\treason";

/// The families whose ids the registry retires, by their id's letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Material,
    Product,
}

impl Family {
    /// The family of a well-formed material or product id (`hq-m-<3 letters>-<6 digits>`).
    pub fn of(id: &str) -> Option<Family> {
        let family = match id.get(..5)? {
            "hq-m-" => Family::Material,
            "hq-p-" => Family::Product,
            _ => return None,
        };
        let rest = &id.as_bytes()[5..];
        let ok = rest.len() == 10
            && rest[..3].iter().all(u8::is_ascii_lowercase)
            && rest[3] == b'-'
            && rest[4..].iter().all(u8::is_ascii_digit);
        ok.then_some(family)
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::Material => "material",
            Family::Product => "product",
        }
    }
}

/// One retired id: what replaces it, since when and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Retirement {
    pub id: String,
    pub replaced_by: String,
    /// `YYYY-MM-DD`.
    pub retired: String,
    pub reason: String,
    /// The line of `retired.tsv` it is on (for problem reports).
    pub line: usize,
}

/// The registry, by retired id.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Retired(BTreeMap<String, Retirement>);

impl Retired {
    /// Reads the file's text; a line that does not parse, or retires an id a second time, is
    /// a problem on its line and is left out (the first retirement stands).
    pub fn parse(text: &str, file: &str) -> (Retired, Vec<Problem>) {
        let mut retired = BTreeMap::new();
        let mut problems = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line_no = n + 1;
            if line.trim().is_empty() || line.starts_with('#') || line == HEADER {
                continue;
            }
            let problem = |message: String| Problem::new(file, "", message).at_line(line_no);
            match parse_line(line) {
                Err(message) => problems.push(problem(message)),
                Ok((id, replaced_by, date, reason)) => {
                    if let Some(first) = retired.get(id).map(|r: &Retirement| r.line) {
                        problems.push(problem(format!(
                            "{id} is retired twice (first on line {first}): an id is retired once"
                        )));
                        continue;
                    }
                    retired.insert(
                        id.to_string(),
                        Retirement {
                            id: id.to_string(),
                            replaced_by: replaced_by.to_string(),
                            retired: date.to_string(),
                            reason: reason.to_string(),
                            line: line_no,
                        },
                    );
                }
            }
        }
        (Retired(retired), problems)
    }

    pub fn get(&self, id: &str) -> Option<&Retirement> {
        self.0.get(id)
    }

    pub fn contains(&self, id: &str) -> bool {
        self.0.contains_key(id)
    }

    /// Every retirement, in id order.
    pub fn iter(&self) -> impl Iterator<Item = &Retirement> {
        self.0.values()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A line's four columns, each checked on its own: `id replaced_by retired reason`.
fn parse_line(line: &str) -> Result<(&str, &str, &str, &str), String> {
    let cols: Vec<&str> = line.split('\t').collect();
    let [id, replaced_by, date, reason] = cols[..] else {
        return Err(format!(
            "expected 4 tab-separated columns ({}), found {}",
            HEADER.replace('\t', ", "),
            cols.len()
        ));
    };
    let Some(family) = Family::of(id) else {
        return Err(format!(
            "malformed id {id:?}: a material or product id (hq-m-... or hq-p-...)"
        ));
    };
    if Family::of(replaced_by) != Some(family) {
        return Err(format!(
            "replaced_by {replaced_by:?} is not a {} id: an id is replaced by an entity of its own family",
            family.name()
        ));
    }
    if replaced_by == id {
        return Err(format!("{id} is replaced by itself"));
    }
    if chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_err() || date.len() != 10 {
        return Err(format!("retired {date:?} is not a date (YYYY-MM-DD)"));
    }
    if reason.trim().is_empty() {
        return Err("no reason: say in one line why the id was retired".into());
    }
    Ok((id, replaced_by, date, reason))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "id\treplaced_by\tretired\treason\n\
                        hq-p-wer-000032\thq-p-chd-000023\t2026-11-28\tthe same product\n\
                        hq-m-met-000002\thq-m-met-000001\t2026-11-28\ta duplicate\n";

    #[test]
    fn a_registry_reads_each_line_by_its_id_with_its_line() {
        let (retired, problems) = Retired::parse(GOOD, "retired.tsv");
        assert_eq!(problems, vec![]);
        let r = retired.get("hq-p-wer-000032").unwrap();
        assert_eq!(
            (r.replaced_by.as_str(), r.retired.as_str(), r.line),
            ("hq-p-chd-000023", "2026-11-28", 2)
        );
        assert!(retired.contains("hq-m-met-000002"));
        assert!(!retired.contains("hq-p-chd-000023"));
    }

    #[test]
    fn every_malformed_line_is_a_problem_on_its_line_and_the_rest_is_read() {
        let text = format!(
            "{GOOD}\
             hq-p-wer-000033\thq-p-chd-000023\n\
             hq-c-org-000001\thq-c-org-000002\t2026-11-28\tcompounds retire in ids.tsv\n\
             hq-p-wer-000034\thq-m-met-000001\t2026-11-28\tanother family\n\
             hq-p-wer-000035\thq-p-chd-000023\t28.11.2026\tnot a date\n\
             hq-p-wer-000036\thq-p-chd-000023\t2026-11-28\t \n\
             hq-p-wer-000032\thq-p-chd-000024\t2026-11-28\tretired again\n\
             hq-p-wer-000037\thq-p-wer-000037\t2026-11-28\titself\n"
        );
        let (retired, problems) = Retired::parse(&text, "retired.tsv");
        let found: Vec<(Option<usize>, &str)> = problems
            .iter()
            .map(|p| (p.line, p.message.as_str()))
            .collect();
        assert_eq!(found.len(), 7, "{found:#?}");
        let lines: Vec<usize> = found.iter().filter_map(|(l, _)| *l).collect();
        assert_eq!(lines, vec![4, 5, 6, 7, 8, 9, 10]);
        for (n, part) in [
            (0, "expected 4 tab-separated columns"),
            (1, "malformed id \"hq-c-org-000001\""),
            (2, "is not a product id"),
            (3, "is not a date"),
            (4, "no reason"),
            (5, "retired twice (first on line 2)"),
            (6, "replaced by itself"),
        ] {
            assert!(found[n].1.contains(part), "{:?} lacks {part:?}", found[n]);
        }
        // The first retirement stands; the well-formed lines are read.
        assert_eq!(
            retired.get("hq-p-wer-000032").unwrap().replaced_by,
            "hq-p-chd-000023"
        );
        assert_eq!(retired.iter().count(), 2);
    }

    #[test]
    fn families_are_told_by_a_well_formed_id_only() {
        assert_eq!(Family::of("hq-p-chd-000023"), Some(Family::Product));
        assert_eq!(Family::of("hq-m-met-000001"), Some(Family::Material));
        for bad in [
            "hq-c-org-000001",
            "hq-p-CHD-000023",
            "hq-p-chd-00023",
            "hq-p-",
            "",
        ] {
            assert_eq!(Family::of(bad), None, "{bad}");
        }
    }
}
