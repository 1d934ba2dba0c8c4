//! Rows that name a group or a qualified agent (`data/curated/group-rows.tsv`), applied: a
//! Proposition 65 or NTP group row gives its listing to every member compound, marked `via`
//! the row; a qualified row's listing carries its `qualifier`, whether the row names the agent
//! by CAS (IARC's "Ethanol in alcoholic beverages") or by name only. An EU CLP Annex VI group
//! entry ("lead compounds with the exception of those specified elsewhere in this Annex")
//! gives its classification to members that have no entry of their own. IARC group rows are
//! not applied here: `curated/iarc-groups.json` gives the monographs' group calls with their
//! citations.

use std::collections::BTreeMap;

use serde_json::Value;

use super::contribution::{Contribution, MemberLevel, Subject};
use crate::model::cas::Cas;
use crate::model::group_rows::{Disposition, GroupRows, Placement, row_key};

/// Tables whose group rows the ingest applies to members.
const APPLIED: [&str; 4] = ["prop65", "ntp_roc", "efsa_openfoodtox", "clp"];

/// Whether the ingest applies this table's group rows (IARC's come from a curated file).
pub fn applies_rows_of(table: &str) -> bool {
    APPLIED.contains(&table)
}

/// What a contribution becomes once its row's placement is known: the contributions to merge,
/// each with the compound it is about. A row keyed by one CAS that names a group ("Tamoxifen
/// and its salts") stays the CAS's own and also reaches the other members, marked `via`; a
/// qualified row's own compound carries the qualifier.
pub fn place(table: &str, c: Contribution, rows: &GroupRows) -> Vec<(Cas, Contribution)> {
    let placement = c
        .name
        .as_deref()
        .and_then(|n| rows.get(table, n))
        .filter(|p| p.applies());
    let own = match &c.subject {
        Subject::Cas(cas) => Some(cas.clone()),
        Subject::PubchemCid(_) => None,
        Subject::Named(_) => None,
    };
    let Some(p) = placement else {
        return own.map(|cas| vec![(cas, c)]).unwrap_or_default();
    };
    let mut out = Vec::new();
    if applies_rows_of(table) {
        for member in p.members.iter().filter(|m| Some(*m) != own.as_ref()) {
            let mut inherited =
                Contribution::about(Subject::Cas(member.clone()), c.fragment.clone());
            inherited.name = None;
            inherited.member_level = c.member_level.clone().map(|l| MemberLevel {
                members: p.members.len(),
                ..l
            });
            // The row's identifiers (a group entry's Annex VI index number) are not the
            // member's.
            if let Some(fragment) = inherited.fragment.as_object_mut() {
                fragment.remove("crossrefs");
            }
            mark(&mut inherited.fragment, Some(&p.row), p);
            out.push((member.clone(), inherited));
        }
    }
    if let Some(cas) = own {
        let mut c = c;
        if p.qualifier.is_some() && p.members.contains(&cas) {
            mark(&mut c.fragment, None, p);
        }
        out.insert(0, (cas, c));
    }
    out
}

/// One compound's contributions, settled where a group row and the compound's own row (or two
/// group rows) give the same single-valued listing (NTP's): the own row wins, else the
/// strongest group listing ("known" before "reasonably anticipated"). List-valued listings
/// (Proposition 65's) keep every row, own and inherited, except an inherited one the
/// compound's own listing already gives (`redundant_prop65`).
pub fn own_rows_first<S>(list: &mut Vec<(S, Contribution)>) {
    member_levels(list);
    let own: Vec<Prop65Key> = list
        .iter()
        .flat_map(|(_, c)| prop65_keys(c))
        .filter(|k| !k.inherited)
        .collect();
    list.retain(|(_, c)| !redundant_prop65(c, &own));
    // Annex VI: a compound "specified elsewhere in this Annex" is excepted from the group
    // entries, so its own entry leaves no inherited one.
    let eu_entry = |c: &Contribution| {
        c.fragment
            .pointer("/safety/ghs/0")
            .filter(|g| g.get("jurisdiction").and_then(Value::as_str) == Some("EU"))
            .map(|g| g.get("via").is_some())
    };
    if list.iter().any(|(_, c)| eu_entry(c) == Some(false)) {
        list.retain(|(_, c)| eu_entry(c) != Some(true));
    }
    let inherited_ntp = |c: &Contribution| {
        c.fragment
            .pointer("/regulatory/listings/ntp_roc/via")
            .is_some()
    };
    let has_ntp = |c: &Contribution| c.fragment.pointer("/regulatory/listings/ntp_roc").is_some();
    if list.iter().any(|(_, c)| has_ntp(c) && !inherited_ntp(c)) {
        list.retain(|(_, c)| !inherited_ntp(c));
        return;
    }
    let strength = |c: &Contribution| match c
        .fragment
        .pointer("/regulatory/listings/ntp_roc/listing")
        .and_then(Value::as_str)
    {
        Some("known") => 0,
        _ => 1,
    };
    let best = list
        .iter()
        .enumerate()
        .filter(|(_, (_, c))| inherited_ntp(c))
        .min_by_key(|(i, (_, c))| (strength(c), *i))
        .map(|(i, _)| i);
    let mut i = 0;
    list.retain(|(_, c)| {
        let keep = !inherited_ntp(c) || Some(i) == best;
        i += 1;
        keep
    });
}

/// Writes each continuation row's level (`MemberLevel`) on the compound's listings through its
/// group row, in place of the group's own level (alpha-HCH's 0.3 µg/day, not technical HCH's
/// 0.2), and drops the continuation row itself, which lists nothing. The group row is the
/// listing's `via`, or, on the compound's own row, that row's name (o-phenylenediamine's
/// 26 µg/day under "o-Phenylenediamine and its salts", filed under its CAS).
fn member_levels<S>(list: &mut Vec<(S, Contribution)>) {
    let mut levels: Vec<MemberLevel> = Vec::new();
    list.retain(|(_, c)| {
        levels.extend(c.member_level.clone());
        c.member_level.is_none()
    });
    levels.sort_by_key(|l| l.members);
    for (_, c) in list.iter_mut() {
        let own_row = c.name.as_deref().map(row_key);
        for listing in c
            .fragment
            .pointer_mut("/regulatory/listings/prop65")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
            .filter_map(Value::as_object_mut)
        {
            let row = match listing.get("via").and_then(Value::as_str) {
                Some(via) => Some(row_key(via)),
                None => own_row.clone(),
            };
            if let Some(l) = levels.iter().find(|l| Some(row_key(&l.row)) == row) {
                listing.insert("safe_harbor_level".into(), Value::String(l.level.clone()));
            }
        }
    }
}

/// A Proposition 65 listing as the redundancy rule compares it.
struct Prop65Key {
    toxicity: String,
    date: String,
    qualifier: Option<String>,
    inherited: bool,
}

fn prop65_keys(c: &Contribution) -> Vec<Prop65Key> {
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(String::from);
    c.fragment
        .pointer("/regulatory/listings/prop65")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|l| Prop65Key {
            toxicity: text(l, "toxicity").unwrap_or_default(),
            date: text(l, "date_listed").unwrap_or_default(),
            qualifier: text(l, "qualifier"),
            inherited: l.get("via").is_some(),
        })
        .collect()
}

/// Whether a contribution only repeats, through a group row, what the compound's own rows
/// already list: every listing it gives is inherited, and an own listing of the same toxicity
/// and qualifier is as old or older ("Tetracyclines (internal use)", 1992, for tetracycline,
/// listed on its own row in 1991; a combination row filed under both drugs' CAS numbers). An
/// earlier group listing stays beside a later own one (gallium arsenide: inorganic arsenic
/// compounds 1987, its own row 2008): it is when the listing first reached the compound.
fn redundant_prop65(c: &Contribution, own: &[Prop65Key]) -> bool {
    let keys = prop65_keys(c);
    !keys.is_empty()
        && keys.iter().all(|k| {
            k.inherited
                && own.iter().any(|o| {
                    o.toxicity == k.toxicity && o.qualifier == k.qualifier && o.date <= k.date
                })
        })
}

/// Marks every listing of a fragment with the row it came through and the row's qualifier,
/// and says so in each classification's basis.
fn mark(fragment: &mut Value, via: Option<&str>, p: &Placement) {
    // A named row is the compound's own under another name (OpenFoodTox's "Cadmium (total)",
    // OEHHA's sulfur dioxide row with an unreadable CAS cell): its listings come through no
    // group, and the basis quotes the table's name.
    let named = p.disposition == Disposition::Named;
    mark_listings(fragment, via.filter(|_| !named), p.qualifier.as_deref());
    let note = basis_note(via, p);
    // A value a group substance's row gives a member ("Copper compounds": copper sulfate) is
    // set for the group, which its qualifier says as OpenFoodTox's "ADI (group)" does.
    let group_value = via.is_some() && !named;
    for c in entries(fragment, "/regulatory/classifications") {
        append_basis(c, &note);
        // Classifications carry the qualifier as a field too.
        if let Some(q) = &p.qualifier {
            c.insert("qualifier".into(), Value::String(q.clone()));
        }
    }
    let dose_note = note.replacen("listed as", "set for", 1);
    for c in entries(fragment, "/dose_response") {
        append_basis(c, &dose_note);
        if group_value {
            let qualifier = match c.get("qualifier").and_then(Value::as_str) {
                None => "group".to_string(),
                Some(q) if q.split("; ").any(|w| w == "group") => q.to_string(),
                Some(q) => format!("group; {q}"),
            };
            c.insert("qualifier".into(), Value::String(qualifier));
        }
    }
}

/// The row a listing came through (`via`, none for a named row) and the row's qualifier on
/// every listing, the carcinogenicity summary (qualifier only) and every GHS entry (row only:
/// it has no qualifier field).
fn mark_listings(fragment: &mut Value, via: Option<&str>, qualifier: Option<&str>) {
    let set = |obj: &mut serde_json::Map<String, Value>, with_via: bool| {
        if let (Some(v), true) = (via, with_via) {
            obj.insert("via".into(), Value::String(v.to_string()));
        }
        if let Some(q) = qualifier {
            obj.insert("qualifier".into(), Value::String(q.to_string()));
        }
    };
    if let Some(listings) = fragment
        .pointer_mut("/regulatory/listings")
        .and_then(Value::as_object_mut)
    {
        for listing in listings.values_mut() {
            match listing {
                Value::Object(obj) => set(obj, true),
                Value::Array(items) => items
                    .iter_mut()
                    .filter_map(Value::as_object_mut)
                    .for_each(|obj| set(obj, true)),
                _ => {}
            }
        }
    }
    if let Some(obj) = fragment
        .pointer_mut("/safety/carcinogenicity")
        .and_then(Value::as_object_mut)
    {
        set(obj, false);
    }
    if let Some(row) = via {
        for g in entries(fragment, "/safety/ghs") {
            g.insert("via".into(), Value::String(row.to_string()));
        }
    }
}

/// What a classification's basis adds about the row it came through and its qualifier.
fn basis_note(via: Option<&str>, p: &Placement) -> String {
    let mut note = match (via, p.disposition) {
        (Some(row), Disposition::Named) => {
            format!(
                "the table names it \"{row}\", with no CAS number (data/curated/group-rows.tsv)"
            )
        }
        (Some(row), _) => format!(
            "listed as \"{row}\"; a member by the rule {} of data/curated/group-rows.tsv",
            p.rule
        ),
        (None, _) => String::new(),
    };
    if let Some(q) = &p.qualifier {
        if !note.is_empty() {
            note.push_str("; ");
        }
        // Some qualifiers already say "only as ..."; say it once.
        if q.starts_with("only ") {
            note.push_str(q);
        } else {
            note.push_str(&format!("only {q}"));
        }
    }
    note
}

/// The objects of the array at `path`, if there is one.
fn entries<'v>(
    fragment: &'v mut Value,
    path: &str,
) -> impl Iterator<Item = &'v mut serde_json::Map<String, Value>> {
    fragment
        .pointer_mut(path)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object_mut)
}

fn append_basis(c: &mut serde_json::Map<String, Value>, note: &str) {
    let basis = match c.get("basis").and_then(Value::as_str) {
        Some(b) => format!("{b}; {note}"),
        None => note.to_string(),
    };
    c.insert("basis".into(), Value::String(basis));
}

/// For members of element groups ("Lead and lead compounds", rule `element:Pb`): the corpus
/// compound that is the element itself, from the formulas the identifier tables give.
pub fn parents(rows: &GroupRows, formula_of: &BTreeMap<Cas, String>) -> BTreeMap<Cas, Cas> {
    let mut out = BTreeMap::new();
    for p in rows.iter().filter(|p| p.applies()) {
        let Some(element) = p.element() else {
            continue;
        };
        let Some(parent) = p
            .members
            .iter()
            .find(|m| formula_of.get(*m).is_some_and(|f| f == element))
        else {
            continue;
        };
        for member in p.members.iter().filter(|m| *m != parent) {
            out.entry(member.clone()).or_insert_with(|| parent.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::cas::cas;
    use serde_json::json;

    const TSV: &str = "table\trow_name\trow_key\tdisposition\trule\tmembers\tqualifier\treason\n\
        prop65\tLead and lead compounds\tcancer|1-Oct-92\tgroup\telement:Pb+list\t7439-92-1,301-04-2\t-\tPb\n\
        prop65\tEthyl alcohol in alcoholic beverages\tdevelopmental|1-Oct-87\tqualified\tlist\t64-17-5\tin alcoholic beverages\tb\n\
        iarc\tEthanol in alcoholic beverages\t1\tqualified\tlist\t64-17-5\tin alcoholic beverages\tb\n\
        iarc\tChromium (VI) compounds\t1\tgroup\tlist\t7778-50-9\t-\tcurated file applies it\n\
        prop65\tTamoxifen and its salts\tcancer|1-Sep-96\tgroup\tlist\t10540-29-1,54965-24-1\t-\tsalts\n\
        clp\tlead compounds with the exception of those specified elsewhere in this Annex\t082-001-00-6\tgroup\telement:Pb\t301-04-2,1317-36-8\t-\tPb\n";

    fn prop65_fragment() -> Value {
        json!({"regulatory": {
            "classifications": [{"agency": "OEHHA", "basis": "listing mechanism AB", "source": "p65"}],
            "listings": {"prop65": [{"toxicity": "cancer", "source": "p65"}]},
        }})
    }

    #[test]
    fn a_group_row_reaches_every_member_marked_via_the_row() {
        let rows = GroupRows::parse(TSV).unwrap();
        let c = Contribution::about(
            Subject::Named("Lead and lead compounds".into()),
            prop65_fragment(),
        )
        .named("Lead and lead compounds");
        let placed = place("prop65", c, &rows);
        assert_eq!(placed.len(), 2);
        assert_eq!(placed[1].0, cas("301-04-2"));
        let f = &placed[1].1.fragment;
        assert_eq!(
            f["regulatory"]["listings"]["prop65"][0]["via"],
            "Lead and lead compounds"
        );
        assert!(
            f["regulatory"]["listings"]["prop65"][0]
                .get("qualifier")
                .is_none()
        );
        assert_eq!(
            f["regulatory"]["classifications"][0]["basis"],
            "listing mechanism AB; listed as \"Lead and lead compounds\"; a member by the rule element:Pb+list of data/curated/group-rows.tsv"
        );
        assert!(!placed[1].1.selects, "group rows never select");
    }

    #[test]
    fn qualified_rows_carry_their_qualifier_whether_named_or_keyed_by_cas() {
        let rows = GroupRows::parse(TSV).unwrap();
        let named = Contribution::about(
            Subject::Named("Ethyl alcohol in alcoholic beverages".into()),
            prop65_fragment(),
        )
        .named("Ethyl alcohol in alcoholic beverages");
        let placed = place("prop65", named, &rows);
        let listing = &placed[0].1.fragment["regulatory"]["listings"]["prop65"][0];
        assert_eq!(listing["qualifier"], "in alcoholic beverages");
        assert_eq!(listing["via"], "Ethyl alcohol in alcoholic beverages");

        let iarc = json!({"safety": {"carcinogenicity": {"iarc_group": "1", "source": "iarc"}},
                          "regulatory": {"listings": {"iarc_group": {"group": "1", "source": "iarc"}}}});
        let keyed = Contribution::new(cas("64-17-5"), iarc).named("Ethanol in alcoholic beverages");
        let placed = place("iarc", keyed, &rows);
        let f = &placed[0].1.fragment;
        assert_eq!(
            f["safety"]["carcinogenicity"]["qualifier"],
            "in alcoholic beverages"
        );
        assert_eq!(
            f["regulatory"]["listings"]["iarc_group"]["qualifier"],
            "in alcoholic beverages"
        );
        assert!(
            f["regulatory"]["listings"]["iarc_group"]
                .get("via")
                .is_none(),
            "its own row"
        );
    }

    #[test]
    fn a_qualifier_that_already_says_only_is_not_prefixed_again() {
        let tsv = "table\trow_name\trow_key\tdisposition\trule\tmembers\tqualifier\treason\n\
            prop65\tEtoposide with cisplatin and bleomycin\tcancer|1-Jan-88\tqualified\tlist\t33419-42-0\tonly as the etoposide + cisplatin + bleomycin combination\tb\n";
        let rows = GroupRows::parse(tsv).unwrap();
        let c = Contribution::about(
            Subject::Named("Etoposide with cisplatin and bleomycin".into()),
            prop65_fragment(),
        )
        .named("Etoposide with cisplatin and bleomycin");
        let placed = place("prop65", c, &rows);
        let basis = placed[0].1.fragment["regulatory"]["classifications"][0]["basis"]
            .as_str()
            .unwrap();
        assert!(
            basis.ends_with("; only as the etoposide + cisplatin + bleomycin combination"),
            "{basis}"
        );
    }

    #[test]
    fn a_row_keyed_by_one_cas_that_names_a_group_also_reaches_the_other_members() {
        let rows = GroupRows::parse(TSV).unwrap();
        let keyed = Contribution::new(cas("10540-29-1"), prop65_fragment())
            .named("Tamoxifen and its salts");
        let placed = place("prop65", keyed, &rows);
        assert_eq!(placed.len(), 2);
        assert_eq!(placed[0].0, cas("10540-29-1"));
        assert!(
            placed[0].1.fragment["regulatory"]["listings"]["prop65"][0]
                .get("via")
                .is_none(),
            "its own row"
        );
        assert_eq!(placed[1].0, cas("54965-24-1"));
        assert_eq!(
            placed[1].1.fragment["regulatory"]["listings"]["prop65"][0]["via"],
            "Tamoxifen and its salts"
        );
    }

    #[test]
    fn an_annex_vi_group_entry_reaches_members_without_its_index_and_yields_to_an_own_entry() {
        let rows = GroupRows::parse(TSV).unwrap();
        let name = "lead compounds with the exception of those specified elsewhere in this Annex";
        let entry = json!({
            "crossrefs": {"clp_index_no": {"value": "082-001-00-6", "source": "clp"}},
            "safety": {"ghs": [{"jurisdiction": "EU", "h_codes": ["H360Df"], "source": "clp"}]},
            "regulatory": {"classifications": [{"agency": "European Commission",
                "basis": "Annex VI index 082-001-00-6; CLP00", "source": "clp"}]},
        });
        let group = Contribution::about(Subject::Named(name.into()), entry).named(name);
        let mut placed = place("clp", group, &rows);
        assert_eq!(placed.len(), 2);
        let f = &placed[0].1.fragment;
        assert_eq!(f["safety"]["ghs"][0]["via"], name);
        assert!(
            f.get("crossrefs").is_none(),
            "the group's index number is not the member's"
        );

        let own = Contribution::new(
            cas("301-04-2"),
            json!({"safety": {"ghs": [{"jurisdiction": "EU", "h_codes": ["H360Df", "H302"], "source": "clp"}]}}),
        );
        let mut acetate: Vec<_> = placed
            .drain(..)
            .filter(|(c, _)| *c == cas("301-04-2"))
            .collect();
        acetate.push((cas("301-04-2"), own));
        own_rows_first(&mut acetate);
        assert_eq!(
            acetate.len(),
            1,
            "specified elsewhere in the Annex: the own entry stays"
        );
        assert!(
            acetate[0].1.fragment["safety"]["ghs"][0]
                .get("via")
                .is_none()
        );
    }

    /// A Proposition 65 continuation row: a member's own level under `group`'s row.
    fn continuation(group: &str, name: &str, level: &str) -> Contribution {
        let mut c = Contribution::about(Subject::Named(name.into()), json!({})).named(name);
        c.member_level = Some(MemberLevel {
            row: group.into(),
            level: level.into(),
            members: 0,
        });
        c
    }

    /// The Proposition 65 contributions placed by CAS, each compound's own rows first.
    fn placed_by_cas(
        contributions: impl IntoIterator<Item = Contribution>,
        rows: &GroupRows,
    ) -> BTreeMap<Cas, Vec<(&'static str, Contribution)>> {
        let mut by_cas: BTreeMap<Cas, Vec<(&str, Contribution)>> = BTreeMap::new();
        for c in contributions {
            for (cas, c) in place("prop65", c, rows) {
                by_cas.entry(cas).or_default().push(("p65", c));
            }
        }
        by_cas.values_mut().for_each(own_rows_first);
        by_cas
    }

    #[test]
    fn a_continuation_row_s_level_is_written_on_its_member_s_listing_through_the_group_row() {
        let rows = GroupRows::parse(&format!(
            "{TSV}prop65\tSodium cyanidef\t|\tgroup\tlist\t143-33-9\t-\tsub-row\n\
             prop65\tCyanide salts (expressed as cyanide)f\t|\tgroup\tlist\t143-33-9,592-01-8\t-\tsub-row\n\
             prop65\tHydrogen cyanide (HCN) and cyanide salts\tmale|5-Jul-13\tgroup\tlist\t143-33-9,592-01-8\t-\tsalts\n"
        ))
        .unwrap();
        let group = "Hydrogen cyanide (HCN) and cyanide salts";
        let listing = json!({"regulatory": {"listings": {"prop65": [
            {"toxicity": "male", "date_listed": "2013-07-05", "source": "p65"}
        ]}}});
        let by_cas = placed_by_cas(
            [
                Contribution::about(Subject::Named(group.into()), listing).named(group),
                continuation(group, "Cyanide salts (expressed as cyanide)f", "9.8 µg/day"),
                continuation(group, "Sodium cyanidef", "19 µg/day (oral)"),
            ],
            &rows,
        );
        let level = |cas_no: &str| {
            let list = &by_cas[&cas(cas_no)];
            assert_eq!(
                list.len(),
                1,
                "the continuation rows list nothing themselves"
            );
            list[0].1.fragment["regulatory"]["listings"]["prop65"][0]["safe_harbor_level"].clone()
        };
        assert_eq!(
            level("143-33-9"),
            "19 µg/day (oral)",
            "the row naming it alone"
        );
        assert_eq!(level("592-01-8"), "9.8 µg/day");
    }

    #[test]
    fn continuation_rows_under_a_group_row_filed_under_the_base_s_cas_reach_base_and_salt() {
        let group = "o-Phenylenediamine and its salts";
        let rows = GroupRows::parse(&format!(
            "{TSV}prop65\t{group}\tcancer|15-May-98\tgroup\tlist\t95-54-5,615-28-1\t-\tsalts\n\
             prop65\to-Phenylenediamine\t|\tgroup\tlist\t95-54-5\t-\tsub-row\n\
             prop65\to-Phenylenediamine dihydrochloride\t|\tgroup\tlist\t615-28-1\t-\tsub-row\n"
        ))
        .unwrap();
        let listing = json!({"regulatory": {"listings": {"prop65": [
            {"toxicity": "cancer", "date_listed": "1998-05-15", "source": "p65"}
        ]}}});
        let by_cas = placed_by_cas(
            [
                Contribution::new(cas("95-54-5"), listing).named(group),
                continuation(group, "o-Phenylenediamine", "26 µg/day"),
                continuation(group, "o-Phenylenediamine dihydrochloride", "44 µg/day"),
            ],
            &rows,
        );
        let listing = |cas_no: &str| {
            by_cas[&cas(cas_no)][0].1.fragment["regulatory"]["listings"]["prop65"][0].clone()
        };
        assert_eq!(listing("95-54-5")["safe_harbor_level"], "26 µg/day");
        assert!(listing("95-54-5").get("via").is_none(), "its own row");
        assert_eq!(listing("615-28-1")["safe_harbor_level"], "44 µg/day");
        assert_eq!(listing("615-28-1")["via"], group);
    }

    #[test]
    fn a_group_substance_s_guidance_value_reaches_its_members_marked_as_the_group_s() {
        let rows = GroupRows::parse(&format!(
            "{TSV}efsa_openfoodtox\tCopper compounds\tADI\tgroup\tlist\t7758-98-7,20427-59-2\t-\tpart of group assessment\n"
        ))
        .unwrap();
        let adi = json!({"dose_response": [
            {"kind": "adi", "value": 0.15, "unit": "mg/kg bw/day", "agency": "EFSA", "year": 2018,
             "basis": "EFSA", "source": "efsa"},
            {"kind": "adi", "qualifier": "provisional", "value": 0.1, "unit": "mg/kg bw/day",
             "agency": "EFSA", "year": 2008, "basis": "EFSA", "source": "efsa"}
        ]});
        let group = Contribution::about(Subject::Named("Copper compounds".into()), adi)
            .named("Copper compounds");
        let placed = place("efsa_openfoodtox", group, &rows);
        assert_eq!(
            placed.len(),
            2,
            "every member, and nothing under the group's name"
        );
        assert_eq!(placed[0].0, cas("7758-98-7"));
        let doses = &placed[0].1.fragment["dose_response"];
        assert_eq!(doses[0]["qualifier"], "group");
        assert_eq!(doses[1]["qualifier"], "group; provisional");
        assert_eq!(
            doses[0]["basis"],
            "EFSA; set for \"Copper compounds\"; a member by the rule list of data/curated/group-rows.tsv"
        );
    }

    #[test]
    fn a_group_listing_an_own_row_already_gives_is_left_out_and_an_earlier_one_stays() {
        let listing = |date: &str, via: Option<&str>, qualifier: Option<&str>| {
            let mut l = json!({"toxicity": "developmental", "listing_mechanism": "FR",
                "date_listed": date, "source": "prop65"});
            if let Some(v) = via {
                l["via"] = json!(v);
            }
            if let Some(q) = qualifier {
                l["qualifier"] = json!(q);
            }
            let fragment = json!({"regulatory": {"listings": {"prop65": [l]}}});
            (cas("60-54-8"), Contribution::new(cas("60-54-8"), fragment))
        };
        let mut list = vec![
            listing("1991-10-01", None, Some("internal use")),
            listing(
                "1992-10-01",
                Some("Tetracyclines (internal use)"),
                Some("internal use"),
            ),
            listing(
                "1987-02-27",
                Some("An earlier class row"),
                Some("internal use"),
            ),
            listing("1992-10-01", Some("An unqualified class row"), None),
        ];
        own_rows_first(&mut list);
        let left: Vec<&str> = list
            .iter()
            .map(|(_, c)| {
                c.fragment["regulatory"]["listings"]["prop65"][0]["date_listed"]
                    .as_str()
                    .unwrap()
            })
            .collect();
        assert_eq!(
            left,
            ["1991-10-01", "1987-02-27", "1992-10-01"],
            "the later class row under the same qualifier repeats the own listing; an earlier \
             one, or one under another qualifier, says something the own row does not"
        );
    }

    #[test]
    fn iarc_group_rows_and_unplaced_names_give_nothing_here() {
        let rows = GroupRows::parse(TSV).unwrap();
        let keyed =
            Contribution::new(cas("18540-29-9"), json!({})).named("Chromium (VI) compounds");
        assert_eq!(
            place("iarc", keyed, &rows).len(),
            1,
            "the row's own CAS only"
        );
        let soot = Contribution::about(Subject::Named("Soot".into()), json!({})).named("Soot");
        assert!(place("prop65", soot, &rows).is_empty());
    }

    #[test]
    fn element_groups_give_members_the_element_as_parent() {
        let rows = GroupRows::parse(TSV).unwrap();
        let formulas: BTreeMap<Cas, String> = [
            (cas("7439-92-1"), "Pb".to_string()),
            (cas("301-04-2"), "C4H6O4Pb".to_string()),
        ]
        .into();
        let parents = parents(&rows, &formulas);
        assert_eq!(parents.get(&cas("301-04-2")), Some(&cas("7439-92-1")));
        assert!(!parents.contains_key(&cas("7439-92-1")));
    }
}
