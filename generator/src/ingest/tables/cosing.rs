//! CosIng Annex II, substances prohibited in cosmetic products (Regulation (EC) No 1223/2009):
//! CSV with Reference Number, Chemical name / INN, CAS Number, EC Number, Regulation, CMR.
//!
//! The CAS cell holds one number, several ("a / b", "a; b", "a -- b", "a [1] b [2]", with
//! notes such as "(sulfate)"), or "-". Numbers that fail the check digit (and EC numbers in
//! the CAS column) are dropped. A CAS in two entries gets one listing (the first entry's) and a
//! classification per entry. "Moved or deleted" entries carry no CAS and give nothing. The
//! CMR cell ("Carcinogenic Cat. 1B(),Mutagenic Cat. 2()") is tidied to "Carcinogenic Cat. 1B,
//! Mutagenic Cat. 2": empty "()" dropped, conditions kept ("Carcinogenic Cat. 1B (C=>0.01%)").
//! An entry naming a nanomaterial ("Colloidal silver (nano) [INCI]", Regulation (EU)
//! 2024/858) prohibits that form only, and an entry naming a use ("..., when used as a
//! substance in hair dye products", "..., when used as a fragrance ingredient") prohibits that
//! use only, under the substance's CAS: its classification carries the form or the use as its
//! qualifier, and it gives the substance no listing and no name.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;

use super::call;
use super::ledger::Ledger;
use super::text::{cell, csv_error, read_utf8, reader};
use super::{Parsed, TableError};
use crate::ingest::contribution::{Contribution, Subject, to_json};
use crate::model::cas::Cas;
use crate::model::catalog::SourceDescriptor;
use crate::model::record::{Classification, CosingListing};

pub fn read(path: &Path, src: &SourceDescriptor) -> Result<Parsed, TableError> {
    parse(&read_utf8(path)?, src).map_err(|e| csv_error(&path.display().to_string(), e))
}

/// The cell without bracketed markers ("[1]") and parenthesised notes ("(sulfate)").
fn without_notes(raw: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            // A note separates what is around it: "548-62-9[1] / ..." keeps its numbers apart.
            '[' | '(' => {
                depth += 1;
                out.push(' ');
            }
            ']' | ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Every valid CAS number in a CosIng CAS cell, in order, without repeats.
fn cas_numbers(raw: &str) -> Vec<Cas> {
    let cleaned = without_notes(raw);
    let mut out: Vec<Cas> = Vec::new();
    for piece in cleaned
        .split(['/', ';', ',', '\n'])
        .flat_map(|p| p.split("--"))
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        // One number, possibly with a stray space ("91648- 39-4"), else several separated by
        // spaces ("10043-35-3  11113-50-1" once the markers are gone).
        let found: Vec<Cas> = match Cas::parse_lenient(piece) {
            Ok(cas) => vec![cas],
            Err(_) => piece
                .split_whitespace()
                .filter_map(|t| Cas::parse(t).ok())
                .collect(),
        };
        for cas in found {
            if !out.contains(&cas) {
                out.push(cas);
            }
        }
    }
    out
}

/// "Carcinogenic Cat. 1B(),Mutagenic Cat. 2(C=>1%)" -> "Carcinogenic Cat. 1B, Mutagenic Cat. 2
/// (C=>1%)".
fn tidy_cmr(raw: &str) -> String {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in raw.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    items.push(current);
    items
        .iter()
        .map(|item| {
            let item = item.trim();
            let item = item.strip_suffix("()").unwrap_or(item).trim_end();
            match item.find('(') {
                Some(i) if item.ends_with(')') => {
                    format!("{} {}", item[..i].trim_end(), &item[i..])
                }
                _ => item.to_string(),
            }
        })
        .filter(|i| !i.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

struct Entry {
    reference: String,
    name: String,
    regulation: Option<String>,
    cmr: Option<String>,
}

impl Entry {
    /// What an entry prohibits when it is not the substance in every cosmetic product: a
    /// nanomaterial form ("Copper (nano) [INCI]; Colloidal Copper (nano) [INCI]": silver,
    /// copper, gold and platinum themselves are not prohibited, only their nanomaterials), or a
    /// use ("when used as a substance in hair dye products": Basic Violet 14 is prohibited in
    /// hair dyes, Regulation (EU) 2013/344, not in every cosmetic product).
    fn restriction(&self) -> Option<String> {
        if self.name.contains("(nano)") {
            let names: Vec<&str> = self
                .name
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            return Some(format!("as a nanomaterial only: {}", names.join("; ")));
        }
        let at = self.name.to_ascii_lowercase().find("when used as")?;
        let scope = self.name[at..].trim().trim_end_matches('.').trim_end();
        Some(format!("only {scope}"))
    }
}

fn parse(text: &str, src: &SourceDescriptor) -> Result<Parsed, csv::Error> {
    let mut order: Vec<Cas> = Vec::new();
    let mut entries: BTreeMap<Cas, Vec<Entry>> = BTreeMap::new();
    let mut ledger = Ledger::default();
    for row in reader(text, b',', true).records() {
        let row = row?;
        let name = cell(&row, 1).unwrap_or_default();
        let id = ledger.row(name);
        let Some(reference) = cell(&row, 0) else {
            ledger.skip(id, "no Annex II reference number");
            continue;
        };
        if name.starts_with("Moved or deleted") {
            ledger.skip(id, "entry moved or deleted");
            continue;
        }
        for cas in cas_numbers(cell(&row, 2).unwrap_or_default()) {
            ledger.about(id, [Subject::Cas(cas.clone())]);
            let list = entries.entry(cas.clone()).or_default();
            if list.is_empty() {
                order.push(cas);
            }
            list.push(Entry {
                reference: reference.to_string(),
                name: name.to_string(),
                regulation: cell(&row, 4).map(String::from),
                cmr: cell(&row, 5).map(tidy_cmr).filter(|c| !c.is_empty()),
            });
        }
        ledger.otherwise(
            id,
            "entry names no CAS number (a group or a substance without one)",
        );
    }
    let out = order
        .into_iter()
        .map(|cas| {
            let list = &entries[&cas];
            contribution(cas, list, src)
        })
        .collect();
    Ok(Parsed {
        contributions: out,
        ledger,
    })
}

/// A CAS number's Annex II entries: a classification each, and the listing of the first
/// entry that prohibits the substance in every cosmetic product (its name names the
/// contribution).
fn contribution(cas: Cas, list: &[Entry], src: &SourceDescriptor) -> Contribution {
    let classifications: Vec<_> = list
        .iter()
        .map(|e| {
            to_json(&Classification {
                basis: e.regulation.clone(),
                qualifier: e.restriction(),
                ..call::stated(
                    src,
                    "European Commission",
                    "EU CosIng Annex II",
                    format!(
                        "Prohibited in cosmetic products (Annex II entry {})",
                        e.reference
                    ),
                )
            })
        })
        .collect();
    let mut regulatory = json!({"classifications": classifications});
    let whole = list.iter().find(|e| e.restriction().is_none());
    if let Some(first) = whole {
        let listing = CosingListing {
            annex: "II".into(),
            reference_number: first.reference.clone(),
            cmr: first.cmr.clone(),
            source: src.id.clone(),
        };
        regulatory["listings"] = json!({"eu_cosmetics_prohibited": to_json(&listing)});
    }
    let contribution = Contribution::new(cas, json!({ "regulatory": regulatory }));
    match whole {
        Some(first) => contribution.named(first.name.as_str()),
        None => contribution,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::testing::descriptor;

    fn strs(cas: &[Cas]) -> Vec<&str> {
        cas.iter().map(Cas::as_str).collect()
    }

    #[test]
    fn cas_cells_in_every_form() {
        assert_eq!(
            strs(&cas_numbers("132-60-5 / 5949-18-8")),
            ["132-60-5", "5949-18-8"]
        );
        assert_eq!(
            strs(&cas_numbers("548-62-9[1] / 467-63-0[2]")),
            ["548-62-9", "467-63-0"]
        );
        assert_eq!(
            strs(&cas_numbers("10043-35-3 [1] 11113-50-1 [2]")),
            ["10043-35-3", "11113-50-1"]
        );
        assert_eq!(
            strs(&cas_numbers("27757-79-5  --   6371-76-2")),
            ["27757-79-5", "6371-76-2"]
        );
        assert_eq!(
            strs(&cas_numbers(
                "615-66-7; 61702-44-1 (sulfate); 615-46-3 (dihydrochloride)"
            )),
            ["615-66-7", "61702-44-1", "615-46-3"]
        );
        assert_eq!(strs(&cas_numbers("7440-06-4 [1]/ - [2]")), ["7440-06-4"]);
        // An EC number in the CAS column, a truncated number, "-".
        assert_eq!(strs(&cas_numbers("4247-02-3 / 224-208-8")), ["4247-02-3"]);
        assert!(cas_numbers("80-43-").is_empty());
        assert!(cas_numbers("-").is_empty());
    }

    #[test]
    fn cmr_is_tidied() {
        assert_eq!(tidy_cmr("Carcinogenic Cat. 1B()"), "Carcinogenic Cat. 1B");
        assert_eq!(
            tidy_cmr("Carcinogenic Cat. 1B(),Mutagenic Cat. 2()"),
            "Carcinogenic Cat. 1B, Mutagenic Cat. 2"
        );
        assert_eq!(
            tidy_cmr("Carcinogenic Cat. 1B(C=>0.01%),Mutagenic Cat. 2(C=>0.01%)"),
            "Carcinogenic Cat. 1B (C=>0.01%), Mutagenic Cat. 2 (C=>0.01%)"
        );
        assert_eq!(
            tidy_cmr("Reprotoxic Cat. 2(when C=>5%)"),
            "Reprotoxic Cat. 2 (when C=>5%)"
        );
    }

    #[test]
    fn entries_become_listings() {
        let text = "Reference Number,Chemical name / INN,CAS Number,EC Number,Regulation,CMR\n\
            4,Spironolactone (INN),52-01-7,200-133-6,(EC) 2009/1223,\n\
            8,\"Cinchophen (INN), its salts\",132-60-5 / 5949-18-8,205-067-1 / 227-710-5,(EC) 2009/1223,\n\
            16,\"Alkyne alcohols, their esters, ethers and salts\",-,-,(EC) 2009/1223,\n\
            80,Moved or deleted,-,-,(EC) 2009/1223,\n\
            1193,Some substance,163879-69-4,-,(EU) 2019/831,\"Carcinogenic Cat. 1B(),Mutagenic Cat. 2()\"\n\
            1501,Same substance again,163879-69-4,-,(EU) 2021/1902,\n";
        let got = parse(text, &descriptor("cosing"))
            .expect("table parses")
            .contributions;
        let cas: Vec<_> = got
            .iter()
            .map(|c| c.cas().expect("keyed by CAS").as_str())
            .collect();
        assert_eq!(cas, ["52-01-7", "132-60-5", "5949-18-8", "163879-69-4"]);
        let f = &got[0].fragment["regulatory"];
        assert_eq!(
            f["listings"]["eu_cosmetics_prohibited"],
            json!({"annex": "II", "reference_number": "4", "source": "cosing"})
        );
        assert_eq!(
            f["classifications"][0]["classification"],
            "Prohibited in cosmetic products (Annex II entry 4)"
        );
        assert_eq!(f["classifications"][0]["basis"], "(EC) 2009/1223");
        assert_eq!(f["classifications"][0]["agency"], "European Commission");
        assert_eq!(got[0].name.as_deref(), Some("Spironolactone (INN)"));
        let twice = &got[3].fragment["regulatory"];
        assert_eq!(
            twice["listings"]["eu_cosmetics_prohibited"]["reference_number"],
            "1193"
        );
        assert_eq!(
            twice["listings"]["eu_cosmetics_prohibited"]["cmr"],
            "Carcinogenic Cat. 1B, Mutagenic Cat. 2"
        );
        assert_eq!(twice["classifications"].as_array().map(Vec::len), Some(2));
        assert_eq!(twice["classifications"][1]["basis"], "(EU) 2021/1902");
    }

    #[test]
    fn a_nanomaterial_entry_prohibits_the_form_not_the_substance() {
        let text = "Reference Number,Chemical name / INN,CAS Number,EC Number,Regulation,CMR\n\
            1726,\"Copper (nano) [INCI]\nColloidal Copper (nano) [INCI]\",7440-50-8,231-159-6,(EU) 2024/858,\n\
            1727,Colloidal silver (nano) [INCI],7440-22-4,231-131-3,(EU) 2024/858,\n";
        let got = parse(text, &descriptor("cosing"))
            .expect("table parses")
            .contributions;
        let copper = &got[0];
        assert_eq!(copper.cas().map(Cas::as_str), Some("7440-50-8"));
        let f = &copper.fragment["regulatory"];
        assert!(f.get("listings").is_none(), "{f}");
        assert_eq!(
            f["classifications"][0]["qualifier"],
            "as a nanomaterial only: Copper (nano) [INCI]; Colloidal Copper (nano) [INCI]"
        );
        assert_eq!(copper.name, None);
        assert_eq!(
            got[1].fragment["regulatory"]["classifications"][0]["qualifier"],
            "as a nanomaterial only: Colloidal silver (nano) [INCI]"
        );
    }

    #[test]
    fn an_entry_naming_a_use_prohibits_that_use_only() {
        let text = "Reference Number,Chemical name / INN,CAS Number,EC Number,Regulation,CMR\n\
            1329,\"4-[(4-Aminophenyl)(4-iminocyclohexa-2,5-dien-1-ylidene)methyl]-o-toluidine and its hydrochloride salt (Basic Violet 14; CI 42510) when used as a substance in hair dye products\",3248-93-9 -- 632-99-5,221-832-2 -- 211-189-6,(EC) 2013/344,\n\
            424,\"Benzyl cyanide, when used as a fragrance ingredient\",140-29-4,205-410-5,(EC) 2009/1223,\n\
            1500,Benzyl cyanide again,140-29-4,205-410-5,(EU) 2021/1902,\n";
        let got = parse(text, &descriptor("cosing"))
            .expect("table parses")
            .contributions;
        let magenta = got
            .iter()
            .find(|c| c.cas().map(Cas::as_str) == Some("632-99-5"))
            .expect("Basic Violet 14's CAS");
        let f = &magenta.fragment["regulatory"];
        assert!(f.get("listings").is_none(), "{f}");
        assert_eq!(
            f["classifications"][0]["qualifier"],
            "only when used as a substance in hair dye products"
        );
        assert_eq!(magenta.name, None);
        let cyanide = got
            .iter()
            .find(|c| c.cas().map(Cas::as_str) == Some("140-29-4"))
            .expect("benzyl cyanide");
        let f = &cyanide.fragment["regulatory"];
        assert_eq!(
            f["classifications"][0]["qualifier"],
            "only when used as a fragrance ingredient"
        );
        assert_eq!(
            f["listings"]["eu_cosmetics_prohibited"]["reference_number"], "1500",
            "an entry without a restriction still lists the substance"
        );
        assert_eq!(cyanide.name.as_deref(), Some("Benzyl cyanide again"));
    }
}
