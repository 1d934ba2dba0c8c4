//! The compound responses: the aggregated record per context, all contexts, the
//! legacy shape, the raw record, alternatives and the CAS lookup. Wire types live here,
//! separate from the stored model, so the public JSON does not drift with internals.

use std::borrow::Cow;
use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use super::error::{ApiError, ErrorFields};
use super::{Cache, Rendered};
use crate::aggregate::{self, Assessment, ContextResult, Disagreement, EvidenceItem, Schema};
use crate::api::Query;
use crate::model::Dataset;
use crate::model::as_of::as_of;
use crate::model::cas::Cas;
use crate::model::contexts::Context;
use crate::model::ids::CompoundId;
use crate::model::record::{CompoundRecord, Listings, Safety};
use crate::model::vocab::{RiskLevel, WatchClass};

/// Which form of a tier-gated answer is shown: the public one, or the full one a Developer+
/// key sees (not to be confused with `api::Access`, who may call an endpoint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Public,
    /// Developer tier or higher.
    Full,
}

#[derive(Serialize, schemars::JsonSchema)]
struct Links {
    #[serde(rename = "self")]
    this: String,
    raw: String,
    alternatives: String,
    /// The compound's page for people.
    page: String,
}

fn links(id: &CompoundId) -> Links {
    Links {
        this: format!("/api/compound/{id}"),
        raw: format!("/api/compound/{id}/raw"),
        alternatives: format!("/api/compound/{id}/alternatives"),
        page: format!("/compound/{id}"),
    }
}

#[derive(Serialize, schemars::JsonSchema)]
struct Confidence {
    mean: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<f64>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct RiskProfile {
    #[serde(skip_serializing_if = "Option::is_none")]
    risk_level: Option<RiskLevel>,
    confidence: Confidence,
    /// Tier in every available context.
    tiers: BTreeMap<&'static str, RiskLevel>,
}

/// `GET /api/compound/{id}?context=`: the aggregated record for one context.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Aggregated<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    schema: Schema,
    #[schemars(with = "Context")]
    context: &'a str,
    context_label: &'a str,
    risk_level: RiskLevel,
    summary: &'a str,
    risk_profile: RiskProfile,
    evidence: &'a [EvidenceItem],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    disagreements: &'a [Disagreement],
    #[schemars(with = "Vec<Context>")]
    available_contexts: Vec<&'static str>,
    #[schemars(with = "Context")]
    primary_context: &'static str,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<&'a str>,
    #[serde(skip_serializing_if = "WatchClass::is_none")]
    watch_class: WatchClass,
    /// The day the answer stands on (`as_of`), when not today.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    as_of: Option<String>,
    _links: Links,
}

#[derive(Serialize, schemars::JsonSchema)]
struct ContextEntry<'a> {
    risk_level: RiskLevel,
    confidence: f64,
    summary: &'a str,
    evidence: &'a [EvidenceItem],
}

/// `GET /api/compound/{id}?all_contexts=true`.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct AllContexts<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    schema: Schema,
    #[schemars(with = "Context")]
    primary_context: &'static str,
    #[schemars(with = "Vec<Context>")]
    available_contexts: Vec<&'static str>,
    risk_profile: RiskProfile,
    contexts: BTreeMap<&'static str, ContextEntry<'a>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    disagreements: &'a [Disagreement],
    #[serde(skip_serializing_if = "WatchClass::is_none")]
    watch_class: WatchClass,
    /// The day the answer stands on (`as_of`), when not today.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    as_of: Option<String>,
    _links: Links,
}

/// The legacy shape: raw safety and regulatory data where no aggregation is normalizable.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Legacy<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    schema: Schema,
    #[schemars(with = "Vec<Context>")]
    available_contexts: Vec<&'static str>,
    safety: &'a Safety,
    regulatory_listings: &'a Listings,
    risk_profile: RiskProfile,
    /// The day the answer stands on (`as_of`), when not today.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date"))]
    as_of: Option<String>,
    _links: Links,
}

/// The compound in one context, in every context (`all_contexts=true`), or in the legacy shape
/// (`schema` legacy); each form has its own fields (untagged).
#[derive(Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub(crate) enum CompoundBody<'a> {
    /// One context: `context=`, or the primary context.
    Context(Aggregated<'a>),
    /// Every context: `all_contexts=true`.
    All(AllContexts<'a>),
    /// A compound with contexts but no normalizable classification (`schema` `legacy`).
    Legacy(Legacy<'a>),
}

/// The 422's fields after `error` and `code`: the compound exists but has no evidence in the
/// context.
#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct Unavailable<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    message: String,
    schema: Schema,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schemars(with = "Vec<Context>")]
    available_contexts: Vec<&'static str>,
}

/// Finds a compound by a path id, or the 400/404/403 error.
pub fn lookup<'d>(dataset: &'d Dataset, id: &str) -> Result<&'d CompoundRecord, ApiError> {
    let Some(parsed) = CompoundId::parse(id) else {
        return Err(ApiError::bad_request(format!(
            "malformed compound id {id:?}: expected hq-c-<org|ino|mix>-<6 digits>, e.g. hq-c-org-000001"
        )));
    };
    let record = dataset
        .compounds
        .get(&parsed)
        .ok_or_else(|| ApiError::not_found(format!("compound {id} not found")))?;
    if record.watch_class == WatchClass::CriticalThreat {
        return Err(ApiError::forbidden(format!(
            "compound {id} is on the critical-threat watch list (e.g. Chemical Weapons Convention Schedule 1); its record is not served"
        )));
    }
    Ok(record)
}

fn cache_for(record: &CompoundRecord) -> Cache {
    match record.watch_class {
        WatchClass::None => Cache::PublicCompound,
        _ => Cache::Private,
    }
}

fn profile(a: &Assessment, context: Option<&ContextResult>) -> RiskProfile {
    RiskProfile {
        risk_level: context.map(|c| c.risk_level),
        confidence: Confidence {
            mean: a.mean_confidence(),
            context: context.map(|c| c.confidence),
        },
        tiers: a
            .contexts
            .iter()
            .map(|c| (c.context, c.risk_level))
            .collect(),
    }
}

/// What `GET /api/compound/{id}` is asked for (`context`, `all_contexts`), parsed once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompoundQuery {
    /// Neither: the compound's primary context.
    Primary,
    /// `context=` (an alias resolved).
    In(Context),
    /// `all_contexts=true`.
    All,
}

impl CompoundQuery {
    pub fn parse(dataset: &Dataset, q: &dyn Query) -> Result<CompoundQuery, ApiError> {
        // The shared boolean spellings (`api::boolean`): `TRUE` is true, never ignored.
        let all = match q.get("all_contexts").map(|s| (s, crate::api::boolean(s))) {
            None => false,
            Some((_, Some(b))) => b,
            Some((other, None)) => {
                return Err(ApiError::bad_request(format!(
                    "all_contexts accepts true or false, not {other:?}"
                )));
            }
        };
        let context = q
            .get("context")
            .map(|c| dataset.contexts.parse(c))
            .transpose()
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        match (all, context) {
            (true, Some(_)) => Err(ApiError::bad_request(
                "use either context or all_contexts=true, not both",
            )),
            (true, None) => Ok(CompoundQuery::All),
            (false, Some(c)) => Ok(CompoundQuery::In(c)),
            (false, None) => Ok(CompoundQuery::Primary),
        }
    }

    fn context(self) -> Option<Context> {
        match self {
            CompoundQuery::In(c) => Some(c),
            CompoundQuery::Primary | CompoundQuery::All => None,
        }
    }
}

/// The record's assessment: `assessed` when the caller has made it already (the build renders
/// all of a compound's responses from one), else made here. Every renderer of a compound (its
/// JSON, page and badges) takes it from here.
pub fn assessment<'a>(
    record: &CompoundRecord,
    assessed: Option<&'a Assessment>,
) -> Cow<'a, Assessment> {
    assessed.map_or_else(|| Cow::Owned(aggregate::assess(record)), Cow::Borrowed)
}

/// `GET /api/compound/{id}` of a record `lookup` found; `assessed` as `assessment` takes it.
pub fn compound(
    dataset: &Dataset,
    record: &CompoundRecord,
    query: CompoundQuery,
    assessed: Option<&Assessment>,
) -> Rendered {
    answer(dataset, record, query, assessed, None)
}

/// `GET /api/compound/{id}?as_of=` (keyed): the tiers and evidence from what was in force on
/// `day` (`model::as_of`, data/README.md "Dates").
pub fn compound_as_of(
    dataset: &Dataset,
    record: &CompoundRecord,
    query: CompoundQuery,
    day: NaiveDate,
) -> Rendered {
    dated(dataset, &as_of(record, day), query, None, day)
}

/// `compound_as_of` of a record already taken to `day` (`model::as_of`), with its assessment
/// when the caller has made it (a batch assesses the dated record once for its tier and its
/// synthesis).
pub fn dated(
    dataset: &Dataset,
    then: &CompoundRecord,
    query: CompoundQuery,
    assessed: Option<&Assessment>,
    day: NaiveDate,
) -> Rendered {
    answer(dataset, then, query, assessed, Some(day))
}

/// The `as_of` parameter: a `YYYY-MM-DD` day, answered for Developer+ keys only (the static
/// tree holds today's view).
pub fn parse_as_of(q: &dyn Query, view: View) -> Result<Option<NaiveDate>, ApiError> {
    q.get("as_of").map(|raw| as_of_day(raw, view)).transpose()
}

/// An `as_of` value given (a query's or a batch body's): the day, a 400 for a malformed
/// date, else a 401 for a caller without a Developer+ key.
pub fn as_of_day(raw: &str, view: View) -> Result<NaiveDate, ApiError> {
    let day = NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .ok()
        .filter(|_| raw.len() == 10)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "as_of must be a date YYYY-MM-DD, not {}",
                crate::model::quoted(raw)
            ))
        })?;
    if view == View::Public {
        return Err(ApiError::unauthorized(
            "as_of is answered for Developer+ API keys (X-API-Key); without one the answer is today's",
        ));
    }
    Ok(day)
}

fn answer(
    dataset: &Dataset,
    record: &CompoundRecord,
    query: CompoundQuery,
    assessed: Option<&Assessment>,
    day: Option<NaiveDate>,
) -> Rendered {
    let as_of = day.map(|d| d.format("%Y-%m-%d").to_string());
    let a = &*assessment(record, assessed);
    let unavailable = |message: String| {
        Rendered::from(
            ApiError::unprocessable("aggregated record unavailable").with_fields(
                ErrorFields::Unavailable(Unavailable {
                    hq_id: &record.hq_id,
                    name: &record.name,
                    message,
                    schema: a.schema,
                    available_contexts: a.available(),
                }),
            ),
        )
    };
    if a.schema == Schema::V2Research {
        return unavailable(format!(
            "{} has no evidence any exposure context can be assessed from yet (research record); see /api/compound/{}/raw",
            record.name, record.hq_id
        ));
    }
    let cache = if day.is_some() {
        Cache::Private
    } else {
        cache_for(record)
    };
    let primary = a.primary_context().unwrap_or("human_adult");
    if a.schema == Schema::Legacy {
        let body = CompoundBody::Legacy(legacy(record, a, query, as_of));
        return Rendered::json(200, &body, cache).keyed(&record.hq_id);
    }
    if query == CompoundQuery::All {
        let body = CompoundBody::All(all_contexts(record, a, primary, as_of));
        return Rendered::json(200, &body, cache).keyed(&record.hq_id);
    }
    let name = query.context().map_or(primary, Context::name);
    let Some(result) = a.get(name) else {
        return unavailable(format!(
            "{} has no evidence for context {name}; available contexts: {}",
            record.name,
            a.available().join(", ")
        ));
    };
    let label = dataset
        .contexts
        .get(name)
        .map_or(name, |c| c.label.as_str());
    let body = CompoundBody::Context(in_context(record, a, result, label, primary, as_of));
    Rendered::json(200, &body, cache).keyed(&record.hq_id)
}

/// The legacy shape: the stored safety block and listings beside the risk profile.
fn legacy<'a>(
    record: &'a CompoundRecord,
    a: &Assessment,
    query: CompoundQuery,
    as_of: Option<String>,
) -> Legacy<'a> {
    Legacy {
        hq_id: &record.hq_id,
        name: &record.name,
        cas: record.cas.as_str(),
        schema: Schema::Legacy,
        available_contexts: a.available(),
        safety: &record.safety,
        regulatory_listings: &record.regulatory.listings,
        risk_profile: profile(a, query.context().and_then(|c| a.get(c.name()))),
        as_of,
        _links: links(&record.hq_id),
    }
}

/// `all_contexts=true`: each assessed context's tier, summary and evidence.
fn all_contexts<'a>(
    record: &'a CompoundRecord,
    a: &'a Assessment,
    primary: &'static str,
    as_of: Option<String>,
) -> AllContexts<'a> {
    AllContexts {
        hq_id: &record.hq_id,
        name: &record.name,
        cas: record.cas.as_str(),
        schema: a.schema,
        primary_context: primary,
        available_contexts: a.available(),
        risk_profile: profile(a, None),
        contexts: a
            .contexts
            .iter()
            .map(|c| {
                (
                    c.context,
                    ContextEntry {
                        risk_level: c.risk_level,
                        confidence: c.confidence,
                        summary: &c.summary,
                        evidence: &c.evidence,
                    },
                )
            })
            .collect(),
        disagreements: &a.disagreements,
        watch_class: record.watch_class,
        as_of,
        _links: links(&record.hq_id),
    }
}

/// The answer in one context, `result` (the asked or the primary one).
fn in_context<'a>(
    record: &'a CompoundRecord,
    a: &'a Assessment,
    result: &'a ContextResult,
    label: &'a str,
    primary: &'static str,
    as_of: Option<String>,
) -> Aggregated<'a> {
    Aggregated {
        hq_id: &record.hq_id,
        name: &record.name,
        cas: record.cas.as_str(),
        schema: a.schema,
        context: result.context,
        context_label: label,
        risk_level: result.risk_level,
        summary: &result.summary,
        risk_profile: profile(a, Some(result)),
        evidence: &result.evidence,
        disagreements: &a.disagreements,
        available_contexts: a.available(),
        primary_context: primary,
        kind: record.kind.as_deref(),
        category: record.category.as_deref(),
        watch_class: record.watch_class,
        as_of,
        _links: links(&record.hq_id),
    }
}

/// `GET /api/compound/{id}/raw`: the stored record, overlays applied.
pub fn raw(record: &CompoundRecord) -> Rendered {
    Rendered::json(200, record, cache_for(record)).keyed(&record.hq_id)
}

#[derive(Serialize, schemars::JsonSchema)]
struct AlternativeItem<'a> {
    name: &'a str,
    effectiveness: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tradeoffs: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    relative_cost: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    regulatory_status: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    compound_id: Option<Option<&'a CompoundId>>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct AlternativesBody<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    alternatives: Vec<AlternativeItem<'a>>,
    count: usize,
    no_substitute_reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mitigation_strategies: Option<Vec<&'a str>>,
    _tier: &'static str,
    _links: KeyedLinks,
}

/// Where a keyed form is reached with a key in the `X-API-Key` header: the service's own base
/// `/api/v1/`, which a CDN in front never answers from a file (the docs page, "Keys").
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct KeyedLinks {
    keyed: String,
}

impl KeyedLinks {
    /// The links of the answer at `path` (under `/api`).
    pub fn of(path: &str) -> KeyedLinks {
        KeyedLinks {
            keyed: format!("/api/v1{}", path.trim_start_matches("/api")),
        }
    }
}

/// `GET /api/compound/{id}/alternatives`: basic list for everyone, full data for Developer+.
pub fn alternatives(dataset: &Dataset, record: &CompoundRecord, view: View) -> Rendered {
    let full = view == View::Full;
    let items: Vec<AlternativeItem<'_>> = record
        .alternatives
        .iter()
        .flat_map(|a| a.items.iter())
        .map(|alt| AlternativeItem {
            name: &alt.name,
            effectiveness: alt.effectiveness.as_deref(),
            tradeoffs: full.then_some(alt.tradeoffs.as_deref()),
            relative_cost: full.then_some(alt.relative_cost.as_deref()),
            regulatory_status: full.then_some(alt.regulatory_status.as_deref()),
            compound_id: full.then(|| {
                alt.cas
                    .as_deref()
                    .and_then(|c| dataset.by_cas(c))
                    .map(|r| &r.hq_id)
            }),
        })
        .collect();
    let body = AlternativesBody {
        hq_id: &record.hq_id,
        name: &record.name,
        count: items.len(),
        alternatives: items,
        no_substitute_reason: record
            .alternatives
            .as_ref()
            .and_then(|a| a.no_substitute_reason.as_ref())
            .map(|r| r.value.as_str()),
        mitigation_strategies: full.then(|| {
            record
                .alternatives
                .iter()
                .flat_map(|a| a.mitigation_strategies.iter())
                .map(|m| m.value.as_str())
                .collect()
        }),
        _tier: if full { "full" } else { "basic" },
        _links: KeyedLinks::of(&format!("/api/compound/{}/alternatives", record.hq_id)),
    };
    Rendered::json(200, &body, cache_for(record)).keyed(&record.hq_id)
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct CasBody<'a> {
    hq_id: &'a CompoundId,
    name: &'a str,
    cas: &'a str,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    category: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    molecular_formula: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pubchem_cid: Option<u64>,
    compound_url: String,
}

/// A CAS path segment, or the 400.
pub fn parse_cas(raw: &str) -> Result<Cas, ApiError> {
    Cas::parse(raw).map_err(|e| ApiError::bad_request(format!("malformed CAS number: {e}")))
}

/// What `GET /api/compound/cas/{cas}` is asked for (`redirect`, `context`), parsed once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CasQuery {
    pub redirect: bool,
    pub context: Option<Context>,
}

impl CasQuery {
    pub fn parse(dataset: &Dataset, q: &dyn Query) -> Result<CasQuery, ApiError> {
        let redirect = match q.get("redirect").map(|s| (s, crate::api::boolean(s))) {
            None => false,
            Some((_, Some(b))) => b,
            Some((other, None)) => {
                return Err(ApiError::bad_request(format!(
                    "redirect accepts true or false, not {other:?}"
                )));
            }
        };
        let context = q
            .get("context")
            .map(|c| dataset.contexts.parse(c))
            .transpose()
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(CasQuery { redirect, context })
    }
}

/// `GET /api/compound/cas/{cas}?redirect=&context=`.
pub fn by_cas(dataset: &Dataset, cas: &Cas, query: CasQuery) -> Result<Rendered, ApiError> {
    let Some(id) = dataset.ids.get(cas).map(ToString::to_string) else {
        return Err(ApiError::not_found(format!("no compound with CAS {cas}")));
    };
    let record = lookup(dataset, &id)?;
    // `context` is a parsed context (an unknown one is a 400 above), and it is still written
    // encoded: `Location` carries nothing of the request as given.
    let target = match query.context {
        Some(c) => match serde_urlencoded::to_string([("context", c.name())]) {
            Ok(q) => format!("/api/compound/{id}?{q}"),
            Err(e) => return Err(ApiError::internal(format!("context query: {e}"))),
        },
        None => format!("/api/compound/{id}"),
    };
    if query.redirect {
        let mut r = Rendered::json(
            302,
            &serde_json::json!({"location": target}),
            cache_for(record),
        );
        r.location = Some(target);
        return Ok(r.keyed(&record.hq_id));
    }
    let body = CasBody {
        hq_id: &record.hq_id,
        name: &record.name,
        cas: record.cas.as_str(),
        kind: record.kind.as_deref(),
        category: record.category.as_deref(),
        molecular_formula: record
            .properties
            .chemical_properties
            .molecular_formula
            .as_deref(),
        pubchem_cid: record.crossrefs.pubchem_cid,
        compound_url: target,
    };
    Ok(Rendered::json(200, &body, cache_for(record)).keyed(&record.hq_id))
}

#[cfg(test)]
mod tests {
    use crate::render::test_data::{fixture, get_in};

    /// The 422 is an `ApiError` whose added fields follow `error` and `code` in their order.
    #[test]
    fn a_context_without_evidence_is_a_422_naming_the_contexts_answered() {
        let r = get_in(
            fixture(),
            "/api/compound/hq-c-org-000145?context=pollinator",
        );
        assert_eq!(r.status, 422);
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "error",
                "code",
                "hq_id",
                "name",
                "message",
                "schema",
                "available_contexts"
            ]
        );
        assert_eq!(v["error"], "aggregated record unavailable");
        assert_eq!(v["code"], "unprocessable");
        assert!(
            v["available_contexts"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c == "human_adult")
        );
    }
}
