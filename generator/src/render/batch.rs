//! Batch lookup: up to the caller's tier cap of compounds by id or CAS number in
//! one request, each answered with its tier in one context or with a per-item error; with
//! `synthesize=true` (Developer+) each also carries its full aggregated record.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};

use chrono::NaiveDate;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::compound::{CompoundQuery, View, as_of_day, compound, dated};
use super::lists::{RiskIndex, quoted};
use super::{Cache, Rendered};
use crate::aggregate::{self, Assessment, ContextResult, EvidenceItem, Schema};
use crate::model::Dataset;
use crate::model::as_of::as_of as as_of_record;
use crate::model::cas::Cas;
use crate::model::contexts::Context;
use crate::model::ids::CompoundId;
use crate::model::record::CompoundRecord;
use crate::model::vocab::{RiskLevel, WatchClass};
use crate::render::error::{ApiError, ErrorFields};

/// Who is asking, as the runtime authenticated them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchCaller {
    /// Items allowed per request by the caller's tier.
    pub cap: usize,
    /// Developer tier or higher.
    pub keyed: bool,
}

/// A batch request: the POST body, or the same fields from a GET's `ids`, `context`,
/// `synthesize`, `detail` and `as_of`.
#[derive(Debug, Clone, serde::Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = alias_ids)]
pub struct BatchRequest {
    /// Compound ids or CAS numbers, up to the caller's tier cap (100 at most); `ids` is the
    /// original service's name for it, which its published client sends.
    #[serde(alias = "ids")]
    #[schemars(length(min = 1, max = 100))]
    pub compounds: Vec<String>,
    #[serde(default)]
    pub context: Option<String>,
    #[serde(default)]
    pub synthesize: bool,
    #[serde(default)]
    pub detail: Option<String>,
    /// The day the answers stand on (`YYYY-MM-DD`, Developer+), as `GET /api/compound/{id}`
    /// takes it.
    #[serde(default)]
    #[schemars(extend("format" = "date"))]
    pub as_of: Option<String>,
}

/// The OpenAPI `BatchBody` states the alias schemars does not read (`#[serde(alias)]`):
/// `ids` is `compounds` under its other name, and a body gives one of the two.
fn alias_ids(schema: &mut schemars::Schema) {
    let Some(properties) = schema
        .get_mut("properties")
        .and_then(serde_json::Value::as_object_mut)
    else {
        return;
    };
    if let Some(compounds) = properties.get("compounds").cloned() {
        properties.insert("ids".to_string(), compounds);
    }
    schema.remove("required");
    schema.insert(
        "oneOf".to_string(),
        serde_json::json!([{"required": ["compounds"]}, {"required": ["ids"]}]),
    );
}

impl BatchRequest {
    /// The GET form, with a 400 for a missing `ids` or a `synthesize` other than true/false.
    pub fn from_query(q: &dyn super::dispatch::Query) -> Result<BatchRequest, ApiError> {
        let Some(ids) = q.get("ids") else {
            return Err(ApiError::bad_request(
                "ids is required: comma-separated compound ids or CAS numbers",
            ));
        };
        let synthesize = match q.get("synthesize").map(|s| (s, crate::api::boolean(s))) {
            None => false,
            Some((_, Some(b))) => b,
            Some((other, None)) => {
                return Err(ApiError::bad_request(format!(
                    "synthesize accepts true or false, not {other:?}"
                )));
            }
        };
        Ok(BatchRequest {
            compounds: ids.split(',').map(str::to_string).collect(),
            context: q.get("context").map(str::to_string),
            synthesize,
            detail: q.get("detail").map(str::to_string),
            as_of: q.get("as_of").map(str::to_string),
        })
    }
}

/// At most this many records are synthesised per request.
const SYNTHESIZE_MAX: usize = 10;

/// The batch-cap 400's fields after `error` and `code`.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct TooMany {
    /// Distinct inputs given.
    pub(crate) requested: usize,
    /// Inputs the caller's tier allows per request.
    pub(crate) cap: usize,
    /// Where a public caller gets a key with a higher cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) upgrade_url: Option<&'static str>,
}

/// The evidence behind the tier (`detail=full`): the decisive items; the full list is in
/// the compound response.
#[derive(Serialize, schemars::JsonSchema)]
struct EvidenceSummary {
    summary: String,
    confidence: f64,
    /// Evidence items of the context, decisive or not.
    total: usize,
    decisive: Vec<EvidenceItem>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Info<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    risk_level: RiskLevel,
    #[schemars(with = "Context")]
    context: &'static str,
    schema: Schema,
    /// The tier in every available context (`detail=full`).
    #[serde(skip_serializing_if = "Option::is_none")]
    tiers: Option<BTreeMap<&'static str, RiskLevel>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    evidence: Option<EvidenceSummary>,
    /// The aggregated record of `GET /api/compound/{id}?context=` (`synthesize=true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<super::compound::CompoundBody<'static>>")]
    synthesis: Option<serde_json::Value>,
}

#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
enum Item<'a> {
    Found(Box<Info<'a>>),
    Failed { error: String },
}

impl Item<'_> {
    fn failed(error: String) -> Item<'static> {
        Item::Failed { error }
    }
}

/// Results keyed by input, in input order.
struct Results<'a>(Vec<(&'a str, Item<'a>)>);

/// An object whose keys are the inputs (an object's keys have no order in JSON Schema).
impl schemars::JsonSchema for Results<'_> {
    fn schema_name() -> Cow<'static, str> {
        "Results".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "description": "By input, in input order: the compound's tier, or why it has none",
            "additionalProperties": generator.subschema_for::<Item<'static>>(),
        })
    }
}

impl Serialize for Results<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (input, item) in &self.0 {
            map.serialize_entry(input, item)?;
        }
        map.end()
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct Meta<'a> {
    /// Distinct inputs looked up.
    requested: usize,
    duplicates_removed: usize,
    found: usize,
    /// CAS inputs resolved to a served compound id.
    cas_resolved: usize,
    /// The requested context, or null: each compound's primary context.
    #[schemars(with = "Option<Context>")]
    context: Option<&'a str>,
    detail: Detail,
    synthesize: bool,
    /// 1 per request; with `synthesize`, 2 per synthesised compound (at least 1).
    credits: u64,
    /// The day the answers stand on (`as_of`), when not today.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    as_of: Option<String>,
}

/// How much each result says: `detail=summary` (the default) or `full`.
#[derive(Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Detail {
    Summary,
    Full,
}

/// `GET|POST /api/compounds/batch`'s answer.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Body<'a> {
    results: Results<'a>,
    meta: Meta<'a>,
}

/// The compound an input names: an id, or a CAS number resolved through the registry.
pub fn resolve<'d>(
    dataset: &'d Dataset,
    input: &str,
) -> Result<(&'d CompoundRecord, bool), String> {
    // An id input is looked up as given; only a CAS number's id is written out.
    let (id, via_cas) = if let Some(id) = CompoundId::parse(input) {
        (id, false)
    } else {
        let cas = Cas::parse(input).map_err(|_| {
            format!(
                "malformed input {}: expected a compound id (hq-c-org-000001) or a CAS number with a valid check digit (80-05-7)",
                quoted(input)
            )
        })?;
        let id = dataset
            .ids
            .get(&cas)
            .ok_or_else(|| format!("not found: no compound with CAS {input}"))?;
        (*id, true)
    };
    let record = dataset
        .compounds
        .get(&id)
        .ok_or_else(|| format!("not found: compound {id}"))?;
    if record.watch_class == WatchClass::CriticalThreat {
        return Err(format!(
            "refused: {id} is on the critical-threat watch list; its record is not served"
        ));
    }
    Ok((record, via_cas))
}

/// The result an item answers with in `context` (else its primary context), or why it has none.
fn assessed<'a>(
    record: &CompoundRecord,
    context: Option<&str>,
    a: &'a Assessment,
) -> Result<&'a ContextResult, String> {
    if a.schema == Schema::V2Research {
        return Err(format!(
            "unavailable: {} has no evidence any exposure context can be assessed from yet (research record)",
            record.hq_id
        ));
    }
    let Some(name) = context.or_else(|| a.primary_context()) else {
        return Err(format!(
            "unavailable: {} has no assessable context",
            record.hq_id
        ));
    };
    a.get(name).ok_or_else(|| {
        format!(
            "unavailable: {} has no evidence for context {name}; available contexts: {}",
            record.hq_id,
            a.available().join(", ")
        )
    })
}

/// The item of `stored`; `then` is the record its answer is made from (the stored record, or
/// it as it stood on `q.as_of`) and `a` its assessment.
fn answer<'d>(
    dataset: &Dataset,
    stored: &'d CompoundRecord,
    then: &CompoundRecord,
    q: &BatchQuery,
    a: &Assessment,
) -> Item<'d> {
    let result = match assessed(stored, q.context, a) {
        Ok(result) => result,
        Err(why) => return Item::failed(why),
    };
    let synthesis = q.synthesize.then(|| {
        let query =
            Context::from_name(result.context).map_or(CompoundQuery::Primary, CompoundQuery::In);
        let r = match q.as_of {
            Some(day) => dated(dataset, then, query, Some(a), day),
            None => compound(dataset, then, query, Some(a)),
        };
        serde_json::from_slice(&r.body).expect("rendered bodies are JSON")
    });
    Item::Found(Box::new(Info {
        hq_id: &stored.hq_id,
        name: &stored.name,
        cas: stored.cas.as_str(),
        risk_level: result.risk_level,
        context: result.context,
        schema: a.schema,
        tiers: q.full.then(|| {
            a.contexts
                .iter()
                .map(|c| (c.context, c.risk_level))
                .collect()
        }),
        evidence: q.full.then(|| EvidenceSummary {
            summary: result.summary.clone(),
            confidence: result.confidence,
            total: result.evidence.len(),
            decisive: result
                .evidence
                .iter()
                .filter(|e| e.decisive)
                .cloned()
                .collect(),
        }),
        synthesis,
    }))
}

/// Trimmed, non-blank inputs with duplicates removed (the first kept), and how many were
/// duplicates.
fn distinct(inputs: &[String]) -> (Vec<&str>, usize) {
    let mut seen = HashSet::new();
    let given: Vec<&str> = inputs
        .iter()
        .map(|i| i.trim())
        .filter(|i| !i.is_empty())
        .collect();
    let total = given.len();
    let unique: Vec<&str> = given.into_iter().filter(|i| seen.insert(*i)).collect();
    let removed = total - unique.len();
    (unique, removed)
}

fn detail_param(raw: Option<&str>) -> Result<bool, Rendered> {
    match raw {
        None | Some("summary") => Ok(false),
        Some("full") => Ok(true),
        Some(other) => Err(Rendered::from(ApiError::bad_request(format!(
            "detail must be summary or full, not {}",
            quoted(other)
        )))),
    }
}

/// Checks the request as a whole: inputs, cap, options and the caller's rights.
fn check(inputs: &[&str], synthesize: bool, caller: &BatchCaller) -> Result<(), Rendered> {
    if inputs.is_empty() {
        return Err(Rendered::from(ApiError::bad_request(
            "no compounds given: pass compound ids or CAS numbers (e.g. ids=hq-c-org-000001,80-05-7)",
        )));
    }
    if inputs.len() > caller.cap {
        let error = ApiError::bad_request(format!(
            "too many compounds: {} given, your tier allows {} per request",
            inputs.len(),
            caller.cap
        ))
        .with_fields(ErrorFields::Cap(TooMany {
            requested: inputs.len(),
            cap: caller.cap,
            upgrade_url: (!caller.keyed).then_some(super::pages::docs::UPGRADE_TRIAL),
        }));
        return Err(Rendered::from(error));
    }
    if synthesize && !caller.keyed {
        return Err(Rendered::from(ApiError::unauthorized(
            "synthesize=true requires a Developer tier key or higher (X-API-Key header or api_key parameter)",
        )));
    }
    if synthesize && inputs.len() > SYNTHESIZE_MAX {
        return Err(Rendered::from(ApiError::bad_request(format!(
            "too many compounds to synthesize: {} given, at most {SYNTHESIZE_MAX} per request",
            inputs.len()
        ))));
    }
    Ok(())
}

/// What a batch request asks, parsed once at the edge (`render::dispatch`) against the
/// caller: the distinct inputs, the context (aliases resolved; none: each compound's primary
/// context), the detail, `synthesize` and the day (`as_of`). A request wrong in several ways
/// gets the first error of: inputs and cap, `synthesize`, `detail`, `context`, `as_of`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchQuery<'a> {
    inputs: Vec<&'a str>,
    duplicates_removed: usize,
    context: Option<&'a str>,
    full: bool,
    synthesize: bool,
    as_of: Option<NaiveDate>,
}

impl<'a> BatchQuery<'a> {
    pub fn parse(
        dataset: &'a Dataset,
        request: &'a BatchRequest,
        caller: &BatchCaller,
    ) -> Result<BatchQuery<'a>, Rendered> {
        let (inputs, duplicates_removed) = distinct(&request.compounds);
        check(&inputs, request.synthesize, caller)?;
        let full = detail_param(request.detail.as_deref())?;
        let context = match request
            .context
            .as_deref()
            .map(|c| dataset.contexts.resolve(c))
        {
            None => None,
            Some(Ok(c)) => Some(c.name.as_str()),
            Some(Err(e)) => return Err(Rendered::from(ApiError::bad_request(e.to_string()))),
        };
        let view = if caller.keyed {
            View::Full
        } else {
            View::Public
        };
        let as_of = request
            .as_of
            .as_deref()
            .map(|raw| as_of_day(raw, view))
            .transpose()?;
        Ok(BatchQuery {
            inputs,
            duplicates_removed,
            context,
            full,
            synthesize: request.synthesize,
            as_of,
        })
    }
}

/// `GET|POST /api/compounds/batch`: each input (a compound id or CAS number) answered in the
/// query's context, else its primary context; as it stood on `as_of` when given.
pub fn batch(dataset: &Dataset, q: &BatchQuery<'_>) -> Rendered {
    batch_indexed(dataset, &RiskIndex::default(), q)
}

/// The record an item is answered from and its assessment: today's (from `index`), or as it
/// stood on `as_of` (`model::as_of`).
fn standing<'d>(
    index: &'d RiskIndex,
    stored: &'d CompoundRecord,
    as_of: Option<NaiveDate>,
) -> (Cow<'d, CompoundRecord>, Cow<'d, Assessment>) {
    match as_of {
        None => (Cow::Borrowed(stored), index.assessment(stored)),
        Some(day) => {
            let then = as_of_record(stored, day);
            let a = aggregate::assess(&then);
            (Cow::Owned(then), Cow::Owned(a))
        }
    }
}

/// `batch` with today's assessments read from `index` (the runtime's, built once) instead of
/// made per request.
pub fn batch_indexed(dataset: &Dataset, index: &RiskIndex, q: &BatchQuery<'_>) -> Rendered {
    // Each item: its answer, and whether a CAS input resolved to a served compound.
    let answers: Vec<(&str, Item<'_>, bool)> = q
        .inputs
        .iter()
        .map(|input| match resolve(dataset, input) {
            Ok((stored, via_cas)) => {
                let (then, a) = standing(index, stored, q.as_of);
                (*input, answer(dataset, stored, &then, q, &a), via_cas)
            }
            Err(e) => (*input, Item::failed(e), false),
        })
        .collect();
    let found = answers
        .iter()
        .filter(|(_, item, _)| matches!(item, Item::Found(_)))
        .count();
    let body = Body {
        meta: Meta {
            requested: q.inputs.len(),
            duplicates_removed: q.duplicates_removed,
            found,
            cas_resolved: answers.iter().filter(|(.., via_cas)| *via_cas).count(),
            context: q.context,
            detail: if q.full {
                Detail::Full
            } else {
                Detail::Summary
            },
            synthesize: q.synthesize,
            credits: credits_for(q.synthesize, found),
            as_of: q.as_of.map(|d| d.format("%Y-%m-%d").to_string()),
        },
        results: Results(answers.into_iter().map(|(i, item, _)| (i, item)).collect()),
    };
    Rendered::json(200, &body, Cache::Private)
}

/// `meta.credits`: 1 per request; with `synthesize`, 2 per synthesised record (at least 1).
fn credits_for(synthesize: bool, found: usize) -> u64 {
    if synthesize {
        (2 * found as u64).max(1)
    } else {
        1
    }
}

/// What `request` costs the caller's daily quota: the `meta.credits` its answer states,
/// worked out before it is rendered so the quota is counted before the work is done (the
/// OpenAPI's `synthesize`: 2 credits per synthesised record). A request the batch refuses
/// costs 1.
pub fn credits(
    dataset: &Dataset,
    index: &RiskIndex,
    request: &BatchRequest,
    caller: &BatchCaller,
) -> u64 {
    if !request.synthesize {
        return 1;
    }
    let Ok(q) = BatchQuery::parse(dataset, request, caller) else {
        return 1;
    };
    let found = q
        .inputs
        .iter()
        .filter_map(|input| resolve(dataset, input).ok())
        .filter(|(stored, _)| {
            let (_, a) = standing(index, stored, q.as_of);
            assessed(stored, q.context, &a).is_ok()
        })
        .count();
    credits_for(true, found)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::aggregate;
    use crate::render::compound::compound_as_of;
    use crate::render::test_data::{fixture as dataset, get_in};

    const PUBLIC: BatchCaller = BatchCaller {
        cap: 10,
        keyed: false,
    };
    const DEVELOPER: BatchCaller = BatchCaller {
        cap: 50,
        keyed: true,
    };

    fn inputs(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// The answer to a request, its query parsed as `render::dispatch` parses it.
    fn run(
        d: &Dataset,
        compounds: &[String],
        context: Option<&str>,
        synthesize: bool,
        detail: Option<&str>,
        caller: &BatchCaller,
    ) -> Rendered {
        let request = BatchRequest {
            compounds: compounds.to_vec(),
            context: context.map(str::to_string),
            synthesize,
            detail: detail.map(str::to_string),
            as_of: None,
        };
        match BatchQuery::parse(d, &request, caller) {
            Ok(q) => batch(d, &q),
            Err(refused) => refused,
        }
    }

    fn json(r: &Rendered) -> Value {
        serde_json::from_slice(&r.body).unwrap()
    }

    fn ok(list: &[&str], context: Option<&str>, detail: Option<&str>) -> Value {
        let r = run(dataset(), &inputs(list), context, false, detail, &PUBLIC);
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(r.cache, Cache::Private);
        json(&r)
    }

    fn bpa() -> &'static CompoundRecord {
        dataset().by_cas("80-05-7").unwrap()
    }

    fn critical() -> &'static CompoundRecord {
        dataset()
            .compounds
            .values()
            .find(|r| r.watch_class == WatchClass::CriticalThreat)
            .unwrap()
    }

    #[test]
    fn ids_and_cas_numbers_resolve_and_failures_stay_per_item() {
        let bpa = bpa();
        let benzene = dataset().by_cas("71-43-2").unwrap();
        let (benzene_id, critical_id) = (benzene.hq_id.to_string(), critical().hq_id.to_string());
        let list = [
            "80-05-7",
            benzene_id.as_str(),
            "hq-c-org-999999",
            "nonsense",
            "80-05-8",
            "50-00-1",
            critical_id.as_str(),
        ];
        let v = ok(&list, None, None);
        let results = v["results"].as_object().unwrap();
        let keys: Vec<&str> = results.keys().map(String::as_str).collect();
        assert_eq!(keys, list, "results keep the input order");
        assert_eq!(results["80-05-7"]["hq_id"], bpa.hq_id.to_string());
        assert_eq!(results["80-05-7"]["name"], bpa.name.as_str());
        assert_eq!(results[&benzene_id]["cas"], "71-43-2");
        assert!(results["80-05-7"]["risk_level"].is_string());
        assert!(
            results["hq-c-org-999999"]["error"]
                .as_str()
                .unwrap()
                .starts_with("not found")
        );
        assert!(
            results["nonsense"]["error"]
                .as_str()
                .unwrap()
                .starts_with("malformed")
        );
        assert!(
            results["80-05-8"]["error"]
                .as_str()
                .unwrap()
                .starts_with("malformed")
        );
        assert!(results["50-00-1"]["error"].as_str().is_some());
        let refused = results[&critical_id]["error"].as_str().unwrap();
        assert!(refused.starts_with("refused"));
        assert!(!refused.contains(&critical().name));
        assert_eq!(v["meta"]["requested"], list.len());
        assert_eq!(v["meta"]["found"], 2);
        assert_eq!(v["meta"]["cas_resolved"], 1);
        assert_eq!(v["meta"]["credits"], 1);
        assert_eq!(v["meta"]["detail"], "summary");
        assert!(v["meta"]["context"].is_null());
    }

    #[test]
    fn the_default_context_is_the_compounds_primary_context() {
        let d = dataset();
        let no_adult = d
            .compounds
            .values()
            .find(|r| {
                let a = aggregate::assess(r);
                a.schema == Schema::V2 && a.get("human_adult").is_none()
            })
            .expect("some aggregated compound is assessed only outside adults");
        for r in [bpa(), no_adult] {
            let id = r.hq_id.to_string();
            let v = ok(&[id.as_str()], None, None);
            let single = json(&get_in(dataset(), &format!("/api/compound/{}", r.hq_id)));
            let item = &v["results"][&id];
            assert_eq!(item["context"], single["context"]);
            assert_eq!(item["risk_level"], single["risk_level"]);
            assert_eq!(item["schema"], single["schema"]);
        }
    }

    #[test]
    fn a_requested_context_resolves_aliases_and_may_be_unavailable() {
        let d = dataset();
        let v = ok(&["80-05-7"], Some("pregnancy"), None);
        assert_eq!(v["meta"]["context"], "human_pregnant");
        let item = &v["results"]["80-05-7"];
        assert_eq!(item["context"], "human_pregnant");
        let single = json(&get_in(
            dataset(),
            &format!("/api/compound/{}?context=human_pregnant", bpa().hq_id),
        ));
        assert_eq!(item["risk_level"], single["risk_level"]);

        let lacking = d
            .compounds
            .values()
            .find(|r| {
                r.watch_class != WatchClass::CriticalThreat
                    && aggregate::assess(r).get("pollinator").is_none()
            })
            .unwrap();
        let v = ok(&[lacking.cas.as_str()], Some("bees"), None);
        let error = v["results"][lacking.cas.as_str()]["error"]
            .as_str()
            .unwrap();
        assert!(error.starts_with("unavailable"), "{error}");
        assert_eq!(v["meta"]["found"], 0);
        assert_eq!(v["meta"]["cas_resolved"], 1);

        for bad in ["Martian", "", "ß", "x"] {
            let r = run(d, &inputs(&["80-05-7"]), Some(bad), false, None, &PUBLIC);
            assert_eq!(r.status, 400, "{bad}");
        }
    }

    #[test]
    fn duplicates_and_blanks_are_dropped_keeping_the_first() {
        let v = ok(
            &["80-05-7", " 80-05-7 ", "", "80-05-7", "71-43-2"],
            None,
            None,
        );
        assert_eq!(v["meta"]["requested"], 2);
        assert_eq!(v["meta"]["duplicates_removed"], 2);
        let keys: Vec<&String> = v["results"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["80-05-7", "71-43-2"]);
        // Eleven copies of one compound are one compound, within the public cap.
        assert_eq!(ok(&["71-43-2"; 11], None, None)["meta"]["requested"], 1);
    }

    #[test]
    fn empty_requests_are_400() {
        for list in [&[][..], &[""], &["  ", "\t"]] {
            let r = run(dataset(), &inputs(list), None, false, None, &PUBLIC);
            assert_eq!(r.status, 400);
            assert!(
                json(&r)["error"]
                    .as_str()
                    .unwrap()
                    .starts_with("no compounds")
            );
        }
    }

    /// `n` distinct well-formed compound ids: the caps count inputs, found or not.
    fn many(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| format!("hq-c-org-{:06}", 900_000 + i))
            .collect()
    }

    #[test]
    fn above_the_cap_is_400_with_an_upgrade_link_for_public_callers() {
        let r = run(dataset(), &many(11), None, false, None, &PUBLIC);
        assert_eq!(r.status, 400);
        assert_eq!(r.cache, Cache::Private);
        let v = json(&r);
        assert_eq!(
            v["error"],
            "too many compounds: 11 given, your tier allows 10 per request"
        );
        assert_eq!(v["upgrade_url"], "/api/docs#keys");
        let r = run(dataset(), &many(51), None, false, None, &DEVELOPER);
        assert_eq!(r.status, 400);
        let v = json(&r);
        assert!(
            v["error"]
                .as_str()
                .unwrap()
                .starts_with("too many compounds: 51 given")
        );
        assert!(v.get("upgrade_url").is_none());
        assert_eq!(
            run(dataset(), &many(50), None, false, None, &DEVELOPER).status,
            200
        );
    }

    #[test]
    fn synthesize_needs_a_key_and_at_most_ten_records() {
        let two = inputs(&["80-05-7", "71-43-2"]);
        assert_eq!(run(dataset(), &two, None, true, None, &PUBLIC).status, 401);
        let r = run(dataset(), &many(11), None, true, None, &DEVELOPER);
        assert_eq!(r.status, 400);
        assert!(json(&r)["error"].as_str().unwrap().contains("synthesize"));

        let r = run(dataset(), &two, Some("child"), true, None, &DEVELOPER);
        assert_eq!(r.status, 200);
        let v = json(&r);
        assert_eq!(v["meta"]["credits"], 4);
        assert_eq!(v["meta"]["synthesize"], true);
        let synthesis = &v["results"]["80-05-7"]["synthesis"];
        let single = json(&get_in(
            dataset(),
            &format!("/api/compound/{}?context=human_child", bpa().hq_id),
        ));
        assert_eq!(*synthesis, single);
        assert!(synthesis["risk_profile"]["confidence"]["mean"].is_number());
        assert!(synthesis["evidence"].is_array());
        // A request that finds nothing still costs its one request.
        let v = json(&run(
            dataset(),
            &inputs(&["hq-c-org-999999"]),
            None,
            true,
            None,
            &DEVELOPER,
        ));
        assert_eq!(v["meta"]["credits"], 1);
    }

    #[test]
    fn full_detail_adds_tiers_and_evidence() {
        let v = ok(&["80-05-7"], None, Some("full"));
        assert_eq!(v["meta"]["detail"], "full");
        let item = &v["results"]["80-05-7"];
        let a = aggregate::assess(bpa());
        assert_eq!(item["tiers"].as_object().unwrap().len(), a.contexts.len());
        let evidence = &item["evidence"];
        assert!(evidence["summary"].as_str().unwrap().len() > 10);
        let decisive = evidence["decisive"].as_array().unwrap();
        assert!(!decisive.is_empty() && decisive.iter().all(|e| e["decisive"] == true));
        assert!(evidence["total"].as_u64().unwrap() >= decisive.len() as u64);
        let summary = ok(&["80-05-7"], None, Some("summary"));
        assert!(summary["results"]["80-05-7"].get("tiers").is_none());
        for bad in ["FULL", "", "everything", "fülł"] {
            let r = run(
                dataset(),
                &inputs(&["80-05-7"]),
                None,
                false,
                Some(bad),
                &PUBLIC,
            );
            assert_eq!(r.status, 400, "{bad}");
        }
    }

    #[test]
    fn hostile_inputs_get_short_per_item_errors() {
        let huge = "9".repeat(100_000);
        let list = [
            huge.as_str(),
            "💥",
            "hq-c-org-00000١",
            "-1",
            "0-00-0",
            "\u{0}",
        ];
        let v = ok(&list, None, None);
        for input in list {
            let key = input.trim();
            let error = v["results"][key]["error"].as_str();
            assert!(
                error.is_some_and(|e| e.len() < 300),
                "{:?}",
                &input[..input.len().min(20)]
            );
        }
        // Surrounding whitespace is not part of an input.
        let v = ok(&["\thq-c-org-000001\n"], None, None);
        assert_eq!(v["results"]["hq-c-org-000001"]["hq_id"], "hq-c-org-000001");
        let zero = run(
            dataset(),
            &inputs(&["80-05-7"]),
            None,
            false,
            None,
            &BatchCaller {
                cap: 0,
                keyed: false,
            },
        );
        assert_eq!(zero.status, 400);
    }

    fn dated(list: &[&str], as_of: &str, synthesize: bool, caller: &BatchCaller) -> Rendered {
        let request = BatchRequest {
            compounds: inputs(list),
            context: Some("human_adult".into()),
            synthesize,
            detail: Some("full".into()),
            as_of: Some(as_of.into()),
        };
        match BatchQuery::parse(dataset(), &request, caller) {
            Ok(q) => batch(dataset(), &q),
            Err(refused) => refused,
        }
    }

    /// `as_of` answers each item as its compound stood that day (data/README.md "Dates"):
    /// PFOA's IARC call is 2B before Volume 135 and Group 1 after, which raises its adult tier
    /// from high to very high; the tier, the evidence and the synthesis are
    /// `GET /api/compound/{id}?as_of=`'s for that day.
    #[test]
    fn as_of_answers_each_compound_as_it_stood() {
        let d = dataset();
        let pfoa = d.by_cas("335-67-1").unwrap();
        let iarc = |item: &Value| {
            item["evidence"]["decisive"]
                .as_array()
                .unwrap()
                .iter()
                .chain(item["synthesis"]["evidence"].as_array().unwrap())
                .filter(|e| e["agency"] == "IARC")
                .map(|e| e["finding"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        };
        for (day, group, tier) in [
            ("2022-12-31", "2B", "high"),
            ("2024-01-01", "Group 1", "very_high"),
        ] {
            let r = dated(&["335-67-1", "80-05-7"], day, true, &DEVELOPER);
            assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
            let v = json(&r);
            assert_eq!(v["meta"]["as_of"], day);
            let item = &v["results"]["335-67-1"];
            assert_eq!(item["hq_id"], pfoa.hq_id.to_string());
            assert_eq!(item["risk_level"], tier, "{day}");
            let found = iarc(item);
            assert!(
                !found.is_empty() && found.iter().all(|f| f.contains(group)),
                "{day}: {found:?}"
            );
            let date = NaiveDate::parse_from_str(day, "%Y-%m-%d").unwrap();
            for (input, record) in [("335-67-1", pfoa), ("80-05-7", bpa())] {
                let single =
                    compound_as_of(d, record, CompoundQuery::In(Context::HumanAdult), date);
                let single = json(&single);
                let item = &v["results"][input];
                assert_eq!(item["synthesis"], single, "{input} {day}");
                assert_eq!(item["risk_level"], single["risk_level"], "{input} {day}");
                assert_eq!(
                    item["evidence"]["summary"], single["summary"],
                    "{input} {day}"
                );
            }
        }
        let today = ok(&["335-67-1"], Some("human_adult"), None);
        assert!(today["meta"].get("as_of").is_none());

        for bad in ["2022-13-01", "2022-1-01", "yesterday", ""] {
            assert_eq!(
                dated(&["335-67-1"], bad, false, &DEVELOPER).status,
                400,
                "{bad}"
            );
        }
        let public = dated(&["335-67-1"], "2022-12-31", false, &PUBLIC);
        assert_eq!(public.status, 401);
        assert!(json(&public)["error"].as_str().unwrap().contains("as_of"));
        // Credits count the items found as they stood.
        let request = BatchRequest {
            compounds: inputs(&["335-67-1", "80-05-7", "hq-c-org-999999"]),
            context: None,
            synthesize: true,
            detail: None,
            as_of: Some("2022-12-31".into()),
        };
        assert_eq!(credits(d, &RiskIndex::default(), &request, &DEVELOPER), 4);
    }
}
