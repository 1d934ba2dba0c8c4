//! A retired material or product id (`data/retired.tsv`): every path that names it answers a
//! 301 to the same path for its replacement, the query kept. The one dispatch asks here before
//! any render function looks the id up, so the record, the raw record, the page, the badge and
//! the relationships answer alike, for the keyed callers the runtime renders for as for the
//! public ones the static tree's `_redirects` rules answer (written from `forwards`).

use crate::api::{self, Endpoint, Op, Query};
use crate::model::Dataset;
use crate::model::retired::Retirement;
use crate::render::{Cache, Rendered};

/// The 301 of `op` when its path names a retired id, else `None`.
pub fn moved(d: &Dataset, op: Op, params: &[&str], query: &dyn Query) -> Option<Rendered> {
    let id = *params.first()?;
    let retired = d.retired.get(id)?;
    let endpoint = forwarding(retired).find(|e| e.op == op)?;
    let target = api::with_query(&path_of(endpoint, &retired.replaced_by), &query.each());
    let mut r = Rendered::json(
        301,
        &serde_json::json!({"location": target}),
        Cache::PublicCompound,
    );
    r.location = Some(target);
    Some(r.keyed(id))
}

/// Every path a retired id is forwarded from, with the path of its replacement: one per GET
/// endpoint whose `{id}` takes the id, for each retirement in id order.
pub fn forwards(d: &Dataset) -> Vec<(String, String)> {
    d.retired
        .iter()
        .flat_map(|r| forwarding(r).map(|e| (path_of(e, &r.id), path_of(e, &r.replaced_by))))
        .collect()
}

/// The GET endpoints whose path names the retired id.
fn forwarding(r: &Retirement) -> impl Iterator<Item = &'static Endpoint> + '_ {
    api::ENDPOINTS
        .iter()
        .filter(|e| e.method == "GET" && e.takes_entity_id(&r.id))
}

/// The endpoint's path for `id` (the templates that take an entity id have that one parameter).
fn path_of(e: &Endpoint, id: &str) -> String {
    e.path.replace("{id}", id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::retired::Retired;

    fn dataset() -> Dataset {
        let (retired, problems) = Retired::parse(
            "hq-p-wer-000032\thq-p-chd-000023\t2026-11-28\tthe same product\n\
             hq-m-met-000002\thq-m-met-000001\t2026-11-28\ta duplicate\n",
            "retired.tsv",
        );
        assert_eq!(problems, vec![]);
        Dataset {
            retired,
            ..Dataset::default()
        }
    }

    #[test]
    fn a_retired_id_forwards_every_path_of_its_family_and_no_other() {
        let d = dataset();
        let forwards = forwards(&d);
        let from: Vec<&str> = forwards.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(
            from,
            [
                "/api/material/hq-m-met-000002",
                "/api/badge/hq-m-met-000002",
                "/api/relationships/hq-m-met-000002",
                "/api/relationships/hq-m-met-000002/graph",
                "/material/hq-m-met-000002",
                "/api/product/hq-p-wer-000032",
                "/api/product/hq-p-wer-000032/raw",
                "/api/badge/hq-p-wer-000032",
                "/api/relationships/hq-p-wer-000032",
                "/api/relationships/hq-p-wer-000032/graph",
                "/product/hq-p-wer-000032",
            ]
        );
        for (from, to) in &forwards {
            let (old, new) = match from.contains("hq-p-") {
                true => ("hq-p-wer-000032", "hq-p-chd-000023"),
                false => ("hq-m-met-000002", "hq-m-met-000001"),
            };
            assert_eq!(*to, from.replace(old, new));
        }
    }

    #[test]
    fn the_answer_is_a_301_to_the_replacement_with_the_query_kept() {
        let d = dataset();
        let query = vec![
            ("style".to_string(), "pill".to_string()),
            ("label".to_string(), "a b".to_string()),
        ];
        let r = moved(&d, Op::Badge, &["hq-p-wer-000032"], &query).unwrap();
        let target = "/api/badge/hq-p-chd-000023?style=pill&label=a+b";
        assert_eq!((r.status, r.location.as_deref()), (301, Some(target)));
        assert_eq!(
            serde_json::from_slice::<serde_json::Value>(&r.body).unwrap(),
            serde_json::json!({ "location": target })
        );
        let raw = moved(&d, Op::ProductRaw, &["hq-p-wer-000032"], &Vec::new()).unwrap();
        assert_eq!(
            raw.location.as_deref(),
            Some("/api/product/hq-p-chd-000023/raw")
        );
        // A path of another family, and an id not retired, are not forwarded.
        assert_eq!(moved(&d, Op::Material, &["hq-p-wer-000032"], &query), None);
        assert_eq!(moved(&d, Op::Product, &["hq-p-chd-000023"], &query), None);
    }
}
