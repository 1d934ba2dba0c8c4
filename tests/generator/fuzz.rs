//! Property tests of the generator's parsers over arbitrary and near-valid input (proptest;
//! cargo-fuzz needs a nightly toolchain): compound ids, CAS numbers, contexts, dates, search
//! queries, batch inputs, path parameters and the `data/` loader. Each property is bounded in
//! cases so the file runs in seconds; an input that once failed stays as a named regression.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::{Datelike, NaiveDate};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use saferef_generator::aggregate::graph::Graph;
use saferef_generator::api::Op;
use saferef_generator::load;
use saferef_generator::model::Dataset;
use saferef_generator::model::cas::{Cas, CasError, parse_cell};
use saferef_generator::model::contexts::{ContextError, is_context_name};
use saferef_generator::model::ids::{CompoundId, CompoundKind};
use saferef_generator::model::regulatory_status::parse_date;
use saferef_generator::render::batch::{BatchCaller, BatchQuery, BatchRequest, batch_indexed};
use saferef_generator::render::compound::View;
use saferef_generator::render::dispatch::{self, Call, Indexes, Viewer};
use saferef_generator::render::lists::RiskIndex;
use saferef_generator::render::regulatory_status::{RegulatoryStatusQuery, regulatory_status};
use saferef_generator::render::search::SearchIndex;
use saferef_generator::render::{Rendered, entities, found_in, regulatory};
use serde_json::Value;

use crate::fuzzing::config;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// The committed dataset and the indexes the runtime builds from it, once per test binary.
struct Corpus {
    dataset: Dataset,
    risk: RiskIndex,
    search: SearchIndex,
    graph: Graph,
}

fn corpus() -> &'static Corpus {
    static CORPUS: OnceLock<Corpus> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let (dataset, _) = load::load(&data_dir()).unwrap();
        Corpus {
            risk: RiskIndex::build(&dataset),
            search: SearchIndex::build(&dataset),
            graph: Graph::build(&dataset),
            dataset,
        }
    })
}

/// The answer of `op` to a keyed caller as the runtime dispatches it, with the named query
/// values present.
fn dispatched(op: Op, params: &[&str], query: &[(&str, Option<&str>)]) -> Rendered {
    let c = corpus();
    let ix = Indexes {
        graph: &c.graph,
        risk_index: &c.risk,
        search_index: &c.search,
    };
    let query: Vec<(String, String)> = query
        .iter()
        .filter_map(|(n, v)| Some((n.to_string(), (*v)?.to_string())))
        .collect();
    let call = Call {
        params,
        query: &query,
        batch: None,
        today: NaiveDate::default(),
        prepared: None,
    };
    let keyed = Viewer {
        keyed: true,
        batch_cap: 100,
    };
    dispatch::render(&c.dataset, ix, op, call, keyed).expect("a pure op")
}

fn body(r: &Rendered) -> Result<Value, TestCaseError> {
    serde_json::from_slice(&r.body)
        .map_err(|e| TestCaseError::fail(format!("status {} body is not JSON: {e}", r.status)))
}

/// Strings that are arbitrary unicode, or shaped like `pattern` (a regex) to reach past the
/// first check of a parser.
fn text(pattern: &'static str) -> BoxedStrategy<String> {
    prop_oneof![
        any::<String>(),
        pattern,
        "[\\x00-\\x7f]{0,24}",
        Just(String::new()),
    ]
    .boxed()
}

/// The CAS check digit as CAS defines it: each digit before the check digit times its
/// position counted from the right, summed, mod 10 (written here independently of cas.rs).
fn check_digit(head: &str, mid: &str) -> u32 {
    format!("{head}{mid}")
        .chars()
        .rev()
        .enumerate()
        .map(|(i, c)| (i as u32 + 1) * c.to_digit(10).unwrap())
        .sum::<u32>()
        % 10
}

fn is_cas_shape(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    parts.len() == 3
        && parts.iter().all(|p| digits(p))
        && parts[0].len() <= 7
        && parts[1].len() == 2
        && parts[2].len() == 1
}

fn kind() -> impl Strategy<Value = CompoundKind> {
    prop_oneof![
        Just(CompoundKind::Org),
        Just(CompoundKind::Ino),
        Just(CompoundKind::Mix)
    ]
}

/// A valid CAS number: 2 to 7 leading digits without a leading zero, 2 digits, check digit.
fn valid_cas() -> impl Strategy<Value = String> {
    (10u32..=9_999_999, 0u32..=99).prop_map(|(head, mid)| {
        let (head, mid) = (head.to_string(), format!("{mid:02}"));
        let check = check_digit(&head, &mid);
        format!("{head}-{mid}-{check}")
    })
}

proptest! {
    #![proptest_config(config(1000))]

    /// CompoundId::parse takes exactly the canonical form: whatever it accepts prints back
    /// as the same text.
    #[test]
    fn compound_id_parse_accepts_only_the_canonical_form(
        s in text("hq-c-(org|ino|mix|ORG|xyz)-[0-9a ]{5,7}")
    ) {
        if let Some(id) = CompoundId::parse(&s) {
            prop_assert_eq!(id.to_string(), s);
        }
    }

    /// Every id of every kind and number prints and parses back to itself.
    #[test]
    fn compound_id_round_trips(kind in kind(), number in 0u32..=999_999) {
        let id = CompoundId { kind, number };
        let text = id.to_string();
        prop_assert_eq!(text.len(), 15);
        prop_assert_eq!(CompoundId::parse(&text), Some(id));
    }

    /// The strict CAS parser accepts only the shape with a correct check digit, and
    /// keeps the text as given; the lenient parsers never panic either.
    #[test]
    fn cas_parsers_accept_only_well_formed_numbers(
        s in text("[0 ]{0,2}[0-9]{0,8}-[0-9 ]{0,3}-[0-9]{0,2}")
    ) {
        match Cas::parse(&s) {
            Ok(cas) => {
                prop_assert_eq!(cas.as_str(), s.as_str());
                prop_assert!(is_cas_shape(&s), "{s:?} accepted");
                let (head, rest) = s.split_once('-').unwrap();
                let (mid, check) = rest.split_once('-').unwrap();
                prop_assert_eq!(check_digit(head, mid), check.parse::<u32>().unwrap());
            }
            Err(CasError::Shape(input)) => {
                prop_assert_eq!(input, s.clone());
                prop_assert!(!is_cas_shape(&s), "{s:?} refused for its shape");
            }
            Err(CasError::CheckDigit { given, expected, .. }) => {
                prop_assert!(is_cas_shape(&s));
                prop_assert_ne!(given, expected);
            }
        }
        if let Ok(cas) = Cas::parse_lenient(&s) {
            prop_assert!(Cas::parse(cas.as_str()).is_ok());
        }
        if let Ok(cas) = Cas::from_digits(&s) {
            prop_assert!(Cas::parse(cas.as_str()).is_ok());
        }
        for cas in parse_cell(&s) {
            prop_assert!(Cas::parse(cas.as_str()).is_ok());
        }
    }

    /// A valid CAS number survives every form the tables write it in (spaces, leading
    /// zeros, no hyphens, several in a cell), and every other check digit is refused naming
    /// the right one.
    #[test]
    fn cas_round_trips_through_every_written_form(
        cas in valid_cas(),
        other in valid_cas(),
        wrong in 1u32..=9,
        zeros in 0usize..=3,
        space_at in any::<prop::sample::Index>(),
    ) {
        let parsed = Cas::parse(&cas).unwrap();
        prop_assert_eq!(parsed.as_str(), cas.as_str());
        let digits: String = cas.chars().filter(char::is_ascii_digit).collect();
        prop_assert_eq!(parsed.sort_key(), digits.parse::<u64>().unwrap());
        prop_assert_eq!(Cas::from_digits(&digits).unwrap(), parsed.clone());
        let mut spaced = format!("{}{cas}", "0".repeat(zeros));
        spaced.insert(space_at.index(spaced.len() + 1), ' ');
        prop_assert_eq!(Cas::parse_lenient(&spaced).unwrap(), parsed.clone());
        prop_assert_eq!(
            parse_cell(&format!("{cas}/ {other};x")),
            vec![parsed, Cas::parse(&other).unwrap()]
        );
        let (body, check) = cas.rsplit_once('-').unwrap();
        let expected: u32 = check.parse().unwrap();
        let given = (expected + wrong) % 10;
        prop_assert_eq!(
            Cas::parse(&format!("{body}-{given}")),
            Err(CasError::CheckDigit { input: format!("{body}-{given}"), given, expected })
        );
    }

    /// A requested context resolves only to the context it names (by name or alias); any
    /// other value is a 400 whose message stays short however long the value.
    #[test]
    fn contexts_resolve_only_names_and_aliases(s in text("[a-zA-Z_][a-z0-9_ ]{0,45}")) {
        let contexts = &corpus().dataset.contexts;
        let names: usize = contexts.contexts.iter().map(|c| c.name.len() + 2).sum();
        match contexts.resolve(&s) {
            Ok(c) => prop_assert!(c.name == s || c.aliases.contains(&s)),
            Err(e) => {
                prop_assert!(e.to_string().len() <= names + 200 + 64 * 10, "{e}");
                let malformed = matches!(e, ContextError::Malformed(..));
                prop_assert_eq!(malformed, !is_context_name(&s));
            }
        }
    }

    /// Every name and alias resolves, and changing its case makes it malformed.
    #[test]
    fn every_context_name_and_alias_resolves(pick in any::<prop::sample::Index>()) {
        let contexts = &corpus().dataset.contexts;
        let all: Vec<(&str, &str)> = contexts
            .contexts
            .iter()
            .flat_map(|c| {
                c.aliases
                    .iter()
                    .map(move |a| (a.as_str(), c.name.as_str()))
                    .chain([(c.name.as_str(), c.name.as_str())])
            })
            .collect();
        let (requested, name) = all[pick.index(all.len())];
        prop_assert_eq!(contexts.resolve(requested).unwrap().name.as_str(), name);
        prop_assert!(matches!(
            contexts.resolve(&requested.to_uppercase()),
            Err(ContextError::Malformed(..))
        ));
    }

    /// `as_of`/`before` dates: whatever parse_date accepts is the date it prints as, and
    /// every date of years 0000-9999 parses back.
    #[test]
    fn dates_parse_strictly_and_round_trip(
        s in text("[0-9+-]{4,6}-[0-9]{1,2}-[0-9]{1,3}"),
        days in 0i64..3_652_424,
    ) {
        if let Some(d) = parse_date(&s) {
            prop_assert_eq!(d.format("%Y-%m-%d").to_string(), s);
        }
        let date = NaiveDate::from_ymd_opt(0, 1, 1).unwrap() + chrono::Days::new(days as u64);
        prop_assume!(date.year() <= 9999);
        prop_assert_eq!(parse_date(&date.format("%Y-%m-%d").to_string()), Some(date));
    }
}

proptest! {
    #![proptest_config(config(300))]

    /// `GET /api/regulatory-status` with arbitrary parameters, through its typed query: a 200
    /// or a 400 (a 403 for a refused compound), and a 200 echoes the date it was asked for.
    #[test]
    fn regulatory_status_takes_any_query(
        analyte in proptest::option::of(prop_oneof![
            text("[a-zA-Z_ ]{0,12}"),
            text("[0-9]{2,7}-[0-9]{2}-[0-9]"),
            text("hq-c-(org|ino|mix)-00000[0-9]"),
        ]),
        matrix in proptest::option::of(text("[a-zA-Z_ ]{0,12}")),
        listing in proptest::option::of(text("(iarc_classification|eggs|[a-z_]{0,8})")),
        jurisdiction in proptest::option::of(text("(US|eu|Ca_ab899|XX)")),
        as_of in proptest::option::of(text("[0-9]{4}-[0-9]{2}-[0-9]{2}")),
        view in proptest::option::of(text("(calendar|cells)")),
        before in proptest::option::of(text("[0-9]{4}-[0-9]{2}-[0-9]{2}")),
    ) {
        let q: Vec<(String, String)> = [
            ("analyte", &analyte),
            ("matrix", &matrix),
            ("listing", &listing),
            ("jurisdiction", &jurisdiction),
            ("as_of", &as_of),
            ("view", &view),
            ("before", &before),
        ]
        .into_iter()
        .filter_map(|(name, value)| Some((name.to_string(), value.clone()?)))
        .collect();
        let today = NaiveDate::from_ymd_opt(2026, 11, 21).unwrap();
        let d = &corpus().dataset;
        let r = match RegulatoryStatusQuery::parse(d, &q, today) {
            Ok(parsed) => regulatory_status(&d.regulatory_status, &d.compounds, &parsed),
            Err(e) => e.into(),
        };
        // 403: a compound id of the critical-threat watch list, refused as its record is.
        let refused = r.status == 403 && analyte.as_deref().is_some_and(|a| a.starts_with("hq-c-"));
        prop_assert!(r.status == 200 || r.status == 400 || refused, "status {}", r.status);
        let json = body(&r)?;
        if r.status == 200 && view.as_deref() != Some("calendar") {
            let expected = as_of.as_deref().map_or_else(|| today.to_string(), str::to_string);
            prop_assert_eq!(json["as_of"].as_str(), Some(expected.as_str()));
        }
    }

    /// `GET /api/search`: any unicode query gives a 200 or a 400; a 200 holds at most
    /// `limit` results, each scored 0..=100, and a total no smaller than what it shows.
    #[test]
    fn search_takes_any_query_and_bounds_its_results(
        q in prop_oneof![
            any::<String>(),
            "[a-zA-Z0-9 ,.-]{0,30}",
            "\\PC{0,300}",
            Just("benzene".to_string()),
            Just("BPA".to_string()),
        ],
        limit in proptest::option::of(prop_oneof![
            (0usize..=120).prop_map(|n| n.to_string()),
            text("[ 0-9-]{0,4}"),
        ]),
        offset in proptest::option::of(prop_oneof![
            (0usize..=3000).prop_map(|n| n.to_string()),
            text("[0-9]{0,25}"),
        ]),
        kind in proptest::option::of(text("(compound|product|material|Compound)")),
    ) {
        let r = dispatched(
            Op::Search,
            &[],
            &[
                ("q", Some(&q)),
                ("limit", limit.as_deref()),
                ("offset", offset.as_deref()),
                ("type", kind.as_deref()),
            ],
        );
        prop_assert!(r.status == 200 || r.status == 400, "status {}", r.status);
        let json = body(&r)?;
        if r.status == 200 {
            let results = json["results"].as_array().unwrap();
            let shown_limit = json["meta"]["limit"].as_u64().unwrap() as usize;
            prop_assert!((1..=100).contains(&shown_limit));
            prop_assert!(results.len() <= shown_limit);
            prop_assert!(json["meta"]["total"].as_u64().unwrap() as usize >= results.len());
            for hit in results {
                prop_assert!(hit["score"].as_u64().unwrap() <= 100);
            }
        }
    }

    /// The batch lookup over any list of inputs, context, detail and day: a 200, a 400 or a
    /// 401, never more items than the caller's cap, and one result per distinct input.
    #[test]
    fn batch_takes_any_inputs_within_the_cap(
        inputs in prop::collection::vec(
            prop_oneof![
                text("hq-c-(org|ino|mix)-0000[0-9]{2}"),
                valid_cas(),
                Just(" hq-c-org-000001 ".to_string()),
                Just("80-05-7".to_string()),
            ],
            0..14,
        ),
        context in proptest::option::of(text("[a-z_]{2,20}")),
        detail in proptest::option::of(text("(summary|full)")),
        synthesize in any::<bool>(),
        as_of in proptest::option::of(text("(19|20)[0-9]{2}-[0-1][0-9]-[0-3][0-9]")),
        cap in 1usize..=12,
        keyed in any::<bool>(),
    ) {
        let c = corpus();
        let caller = BatchCaller { cap, keyed };
        let request = BatchRequest { compounds: inputs.clone(), context, synthesize, detail, as_of };
        let r = BatchQuery::parse(&c.dataset, &request, &caller)
            .map_or_else(|refused| refused, |q| batch_indexed(&c.dataset, &c.risk, &q));
        prop_assert!([200, 400, 401].contains(&r.status), "status {}", r.status);
        let json = body(&r)?;
        if r.status == 200 {
            let mut distinct: Vec<&str> =
                inputs.iter().map(|i| i.trim()).filter(|i| !i.is_empty()).collect();
            distinct.sort_unstable();
            distinct.dedup();
            let results = json["results"].as_object().unwrap();
            prop_assert!(results.len() <= cap);
            prop_assert_eq!(results.len(), distinct.len());
            prop_assert_eq!(json["meta"]["requested"].as_u64(), Some(distinct.len() as u64));
        }
    }

    /// Every path parameter the runtime hands a render function, arbitrary: each answers a
    /// JSON (or SVG) response that is a 2xx, 3xx or 4xx, never a panic or a 5xx.
    #[test]
    fn path_parameters_never_fail_the_server(
        id in prop_oneof![
            text("hq-(c|m|p)-[a-z]{3}-0000[0-9]{2}"),
            valid_cas(),
            Just("hq-c-org-000218".to_string()),
        ],
        context in proptest::option::of(text("[a-z_]{2,20}")),
        extra in proptest::option::of(text("(true|false|1|flat|plastic|[a-z_]{0,10})")),
    ) {
        let d = &corpus().dataset;
        let (ctx, x) = (context.as_deref(), extra.as_deref());
        let answer = |op: Op, query: &[(&str, Option<&str>)]| dispatched(op, &[id.as_str()], query);
        let answers = [
            ("compound", answer(Op::Compound, &[("context", ctx), ("all_contexts", x)])),
            ("raw", answer(Op::CompoundRaw, &[])),
            ("alternatives", answer(Op::Alternatives, &[])),
            ("by_cas", answer(Op::CompoundByCas, &[("redirect", x), ("context", ctx)])),
            ("material", entities::material(d, &id)),
            ("product", entities::product(d, &id, View::Public)),
            ("product_raw", entities::product_raw(d, &id)),
            ("badge", answer(Op::Badge, &[("context", ctx), ("style", x), ("label", x)])),
            ("relationships", answer(Op::Relationships, &[("rel_type", x)])),
            ("graph", answer(Op::RelationshipGraph, &[("depth", x), ("rel_type", ctx)])),
            ("regulatory", regulatory::compound(d, &id, None)),
            ("by_agency", answer(Op::RegulatoryByAgency, &[("limit", x), ("offset", x)])),
            ("found_in", found_in::compound(d, &id)),
            ("by_category", answer(Op::FoundInByCategory, &[("limit", x), ("page", ctx)])),
        ];
        for (name, r) in answers {
            prop_assert!((200..500).contains(&r.status), "{name}: status {}", r.status);
            if r.content_type.contains("json") {
                body(&r).map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
            }
        }
        let segments: Vec<&str> = ["compound", id.as_str(), "raw"].into();
        for (endpoint, params) in saferef_generator::api::resolve(&segments) {
            prop_assert_eq!(endpoint.path.split('/').count() - 2, segments.len());
            prop_assert!(params.iter().all(|p| segments.contains(p)));
        }
    }
}

/// A small copy of `data/`: the reference files, two compounds, a material, a product, the
/// curated, fragrance, regulatory-status and document files, and three changelog entries.
struct MiniData {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

/// The files of the copy that the loader property rewrites, relative to `data/`.
const TARGETS: &[&str] = &[
    "compounds/hq-c-ino-000069.json",
    "compounds/hq-c-org-000218.json",
    "materials/hq-m-cer-000015.json",
    "products/hq-p-pet-000015.json",
    "contexts.json",
    "agencies.json",
    "sources.json",
    "aliases.json",
    "curated/cancer-positions.json",
    "curated/data-quality.json",
    "fragrance/classes.json",
    "fragrance/ingredients.json",
    "regulatory-status/vocabulary.json",
    "regulatory-status/us.json",
    "changelog.jsonl",
    "ids.tsv",
    "materials/index.tsv",
    "documents/terms.md",
    "release-notes/2026-11-21-1.7.0.md",
];

impl MiniData {
    fn new() -> MiniData {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("data");
        let copy = |rel: &str| {
            let to = root.join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(data_dir().join(rel), to).unwrap();
        };
        let other = [
            "documents/disclaimer.md",
            "documents/privacy.md",
            "regulatory-status/eu.json",
            "regulatory-status/ca_ab899.json",
        ];
        for rel in TARGETS.iter().chain(&other) {
            copy(rel);
        }
        let changelog = std::fs::read_to_string(data_dir().join("changelog.jsonl")).unwrap();
        let first: Vec<&str> = changelog.lines().take(3).collect();
        std::fs::write(root.join("changelog.jsonl"), first.join("\n") + "\n").unwrap();
        MiniData { _dir: dir, root }
    }

    fn original(&self, rel: &str) -> Vec<u8> {
        std::fs::read(self.root.join(rel)).unwrap()
    }
}

fn mini() -> &'static std::sync::Mutex<MiniData> {
    static MINI: OnceLock<std::sync::Mutex<MiniData>> = OnceLock::new();
    MINI.get_or_init(|| std::sync::Mutex::new(MiniData::new()))
}

/// How a target file is damaged.
#[derive(Debug, Clone)]
enum Mutation {
    /// The whole file replaced by an arbitrary JSON document.
    Replace(Value),
    /// One value at a path chosen by the indices replaced (or, in an object, removed).
    Splice(Vec<prop::sample::Index>, Option<Value>),
    /// The bytes cut at a point.
    Truncate(prop::sample::Index),
    /// One byte overwritten.
    Byte(prop::sample::Index, u8),
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |f| f.is_finite())
            .prop_map(Value::from),
        any::<String>().prop_map(Value::from),
        text("(hq-c-org-000218|50-00-0|2026-11-21|human_adult|[a-z_]{1,8})").prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{1,12}", inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        json_value().prop_map(Mutation::Replace),
        (
            prop::collection::vec(any::<prop::sample::Index>(), 1..6),
            proptest::option::of(json_value())
        )
            .prop_map(|(path, v)| Mutation::Splice(path, v)),
        any::<prop::sample::Index>().prop_map(Mutation::Truncate),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(at, b)| Mutation::Byte(at, b)),
    ]
}

/// Replaces (or removes) the value `path` leads to: each index picks a child of the
/// current object or array until the path ends or a leaf is reached.
fn splice(value: &mut Value, path: &[prop::sample::Index], with: Option<Value>) {
    let (pick, rest) = match path.split_first() {
        Some(p) => p,
        None => {
            *value = with.unwrap_or(Value::Null);
            return;
        }
    };
    match value {
        Value::Object(map) if !map.is_empty() => {
            let key = map.keys().nth(pick.index(map.len())).unwrap().clone();
            if rest.is_empty() && with.is_none() {
                map.remove(&key);
            } else {
                splice(map.get_mut(&key).unwrap(), rest, with);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let at = pick.index(items.len());
            splice(&mut items[at], rest, with);
        }
        leaf => *leaf = with.unwrap_or(Value::Null),
    }
}

fn apply(original: &[u8], m: &Mutation) -> Vec<u8> {
    match m {
        Mutation::Replace(v) => serde_json::to_vec_pretty(v).unwrap(),
        Mutation::Splice(path, with) => match serde_json::from_slice::<Value>(original) {
            Ok(mut v) => {
                splice(&mut v, path, with.clone());
                serde_json::to_vec_pretty(&v).unwrap()
            }
            // Not one JSON document (TSV, Markdown, JSON lines): a splice cuts a line instead.
            Err(_) => {
                let text = String::from_utf8_lossy(original);
                let lines: Vec<&str> = text.lines().collect();
                let cut = path[0].index(lines.len().max(1));
                let mut kept: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                if cut < kept.len() {
                    kept[cut] = with.as_ref().map_or(String::new(), Value::to_string);
                }
                kept.join("\n").into_bytes()
            }
        },
        Mutation::Truncate(at) => original[..at.index(original.len() + 1)].to_vec(),
        Mutation::Byte(at, b) => {
            let mut bytes = original.to_vec();
            if !bytes.is_empty() {
                let i = at.index(bytes.len());
                bytes[i] = *b;
            }
            bytes
        }
    }
}

/// Loads (and checks, as `saferef-generate check` does) the copy with one file damaged.
fn load_damaged(root: &Path, rel: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
    let path = root.join(rel);
    std::fs::write(&path, bytes).unwrap();
    let (dataset, problems) = load::load(root)
        .map_err(|e| TestCaseError::fail(format!("load refused the directory: {e:#}")))?;
    let checked = saferef_generator::validate::validate(&dataset);
    let single_document = rel.ends_with(".json");
    if single_document && serde_json::from_slice::<Value>(bytes).is_err() {
        let named = problems
            .iter()
            .chain(&checked)
            .any(|p| p.file.ends_with(rel));
        prop_assert!(
            named,
            "{rel} does not parse but no problem names it: {problems:?}"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(400))]

    /// The `data/` loader over a copy with one file damaged (replaced, spliced, cut or a byte
    /// overwritten): it loads and checks without panicking, and a file that no longer parses
    /// is named by a problem.
    #[test]
    fn the_loader_reports_damaged_files(
        target in prop::sample::select(TARGETS),
        m in mutation(),
    ) {
        let mini = mini().lock().unwrap_or_else(|e| e.into_inner());
        let original = mini.original(target);
        let damaged = apply(&original, &m);
        let outcome = load_damaged(&mini.root, target, &damaged);
        std::fs::write(mini.root.join(target), &original).unwrap();
        outcome?;
    }
}

#[test]
fn the_undamaged_copy_loads_without_problems() {
    let mini = mini().lock().unwrap_or_else(|e| e.into_inner());
    let (dataset, problems) = load::load(&mini.root).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(dataset.compounds.len(), 2);
    assert_eq!(dataset.products.len(), 1);
}
