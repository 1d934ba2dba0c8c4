//! `GET /search-index.json`: the compact name index the pages' search box reads from the CDN
//! alone (no key, no runtime). Per kind, one row per entity: the id without its `hq-<kind>-`
//! prefix, the display name, then (compounds) the CAS number and other names. The script in
//! `templates/pages/search_script.html` normalises and matches them; keyed full-text search
//! with filters stays `GET /api/search`.

use serde::Serialize;

use crate::model::Dataset;
use crate::model::vocab::WatchClass;
use crate::render::{Cache, Rendered};

/// Other names kept per entity: the first ones the record lists (the identifier tables list
/// the common names first), enough for a reader's usual name without tripling the file.
pub const SYNONYMS_KEPT: usize = 5;
/// Longer names (systematic names, mixtures' descriptions) are left to the keyed search.
pub const LONGEST_NAME: usize = 40;

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Index {
    c: Vec<Vec<String>>,
    m: Vec<Vec<String>>,
    p: Vec<Vec<String>>,
}

/// The matching key the page uses: lower case, letters and digits only.
fn key(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// `id` without its kind prefix, `name`, `leading` as given, then up to `SYNONYMS_KEPT` other
/// names that match differently from the name and from each other.
fn row<'a>(
    id: &str,
    name: &str,
    leading: Option<&str>,
    others: impl Iterator<Item = &'a String>,
) -> Vec<String> {
    let mut row = vec![id.get(5..).unwrap_or(id).to_string(), name.to_string()];
    row.extend(leading.map(str::to_string));
    let mut seen = vec![key(name)];
    for other in others {
        if row.len() - 2 - usize::from(leading.is_some()) == SYNONYMS_KEPT {
            break;
        }
        let k = key(other);
        if other.chars().count() > LONGEST_NAME || k.is_empty() || seen.contains(&k) {
            continue;
        }
        seen.push(k);
        row.push(other.clone());
    }
    row
}

/// `GET /search-index.json`.
pub fn name_index(d: &Dataset) -> Rendered {
    let index = Index {
        c: d.compounds
            .values()
            .filter(|r| r.watch_class != WatchClass::CriticalThreat)
            .map(|r| {
                row(
                    &r.hq_id.to_string(),
                    &r.name,
                    Some(r.cas.as_str()),
                    r.identity.synonyms.iter(),
                )
            })
            .collect(),
        m: d.materials
            .values()
            .map(|m| row(&m.id, &m.name, None, m.synonyms.iter()))
            .collect(),
        p: d.products
            .values()
            .map(|p| row(&p.id, &p.name, None, p.common_names.iter()))
            .collect(),
    };
    Rendered::json(200, &index, Cache::Reference)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use crate::render::test_data::{fixture, get, get_in};

    #[test]
    fn every_served_entity_is_in_the_index_with_its_cas() {
        let d = fixture();
        let r = get_in(d, "/search-index.json");
        assert_eq!(r.status, 200);
        let v: Value = serde_json::from_slice(&r.body).unwrap();
        let benzene = v["c"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row[0] == "org-000145")
            .unwrap();
        assert_eq!(benzene[1], "Benzene");
        assert_eq!(benzene[2], "71-43-2");
        assert!(benzene.as_array().unwrap().iter().any(|s| s == "benzol"));
        assert!(benzene.as_array().unwrap().len() <= 3 + super::SYNONYMS_KEPT);
        assert_eq!(v["m"].as_array().unwrap().len(), d.materials.len());
        assert_eq!(v["p"].as_array().unwrap().len(), d.products.len());
    }

    #[test]
    fn the_index_stays_small() {
        let r = get("/search-index.json");
        assert!(r.body.len() < 400_000, "{} bytes", r.body.len());
    }
}
