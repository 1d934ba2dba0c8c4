//! The catalogue itself, in the order the reference presents it.

use super::Access::{Developer, DeveloperForbidden, Public};
use super::Answer::{Html, HtmlOrJson, Json, JsonOrCsv, Plain, Svg};
use super::In::{Path, Query};
use super::Kind::{
    Bool, CompoundList, Context, ContextList, Date, DateOrTime, Enum, Int, Pattern, Text,
};
use super::{Endpoint, Op, Param};

const COMPOUND_ID: &str = "^hq-c-(org|ino|mix)-[0-9]{6}$";
const CAS: &str = "^[0-9]{2,7}-[0-9]{2}-[0-9]$";
const RISK: &[&str] = &["low", "moderate", "high", "very_high", "critical"];

const fn path(name: &'static str, kind: super::Kind, description: &'static str) -> Param {
    Param {
        name,
        location: Path,
        required: true,
        kind,
        description,
    }
}

const fn query(name: &'static str, kind: super::Kind, description: &'static str) -> Param {
    Param {
        name,
        location: Query,
        required: false,
        kind,
        description,
    }
}

const fn required(name: &'static str, kind: super::Kind, description: &'static str) -> Param {
    Param {
        name,
        location: Query,
        required: true,
        kind,
        description,
    }
}

const ID: Param = path(
    "id",
    Pattern(COMPOUND_ID),
    "Compound id, e.g. hq-c-org-000145",
);
/// A path's compound, material or product id (badges, relationships).
pub(super) const ENTITY_ID: Param = path(
    "id",
    Text { min: 1, max: 64 },
    "Compound, material or product id",
);
/// A path's material id: a retired one answers a 301 to its replacement's path.
pub(super) const MATERIAL_ID: Param = path(
    "id",
    Text { min: 1, max: 64 },
    "Material id, e.g. hq-m-adh-000001 (a retired id answers 301 to its replacement)",
);
/// A path's product id: a retired one answers a 301 to its replacement's path.
pub(super) const PRODUCT_ID: Param = path(
    "id",
    Text { min: 1, max: 64 },
    "Product id, e.g. hq-p-bdy-000002 (a retired id answers 301 to its replacement)",
);
const CONTEXT: Param = query(
    "context",
    Context,
    "Exposure context (default: the compound's primary context, human_adult when available)",
);
const FORMAT_JSON: Param = query("format", Enum(&["json"]), "json for the JSON form");
const PAGE: Param = query(
    "page",
    Int {
        min: 1,
        max: None,
        default: Some(1),
    },
    "Page number, counting from 1 (instead of offset: page n is offset (n-1) x limit); without page or offset, page 1",
);
const LIMIT_100: Param = query(
    "limit",
    Int {
        min: 1,
        max: Some(100),
        default: Some(20),
    },
    "Items per page",
);
const LIMIT_1000: Param = query(
    "limit",
    Int {
        min: 1,
        max: Some(1000),
        default: Some(100),
    },
    "Most items returned",
);
const OFFSET: Param = query(
    "offset",
    Int {
        min: 0,
        max: None,
        default: Some(0),
    },
    "Items skipped (instead of page); without page or offset, 0",
);
const SEARCH: Param = query(
    "search",
    Text { min: 2, max: 200 },
    "Text in name, CAS or synonyms",
);
const AS_OF: Param = query(
    "as_of",
    Date,
    "Developer+ keys: the answer as it stood on this day, from the values in force then (a public caller gets 401)",
);
const RISK_PARAM: Param = query("risk", Enum(RISK), "Risk tier in `context`");

const fn endpoint(
    op: Op,
    name: &'static str,
    method: &'static str,
    path: &'static str,
    tag: &'static str,
    summary: &'static str,
) -> Endpoint {
    Endpoint {
        op,
        name,
        method,
        path,
        tag,
        summary,
        access: Public,
        params: &[],
        body: None,
        status: 200,
        answer: Json("Object"),
        cost: 1,
        example: None,
        keyed_form: false,
    }
}

pub static ENDPOINTS: &[Endpoint] = &[
    // Service
    Endpoint {
        answer: Json("Root"),
        example: Some("/api"),
        ..endpoint(
            Op::Root,
            "root",
            "GET",
            "/api",
            "Service",
            "Service, endpoints and dataset totals",
        )
    },
    Endpoint {
        params: &[query(
            "check",
            Enum(&["integrity", "monitor"]),
            "integrity: the static tree against its manifest, checked off the request path; the last verdict is answered, and a new check starts at most once a minute (only for a keyed or admin caller); monitor: admin token only",
        )],
        answer: Json("Health"),
        example: Some("/api/health"),
        ..endpoint(
            Op::Health,
            "health",
            "GET",
            "/api/health",
            "Service",
            "Health of the service",
        )
    },
    Endpoint {
        answer: Json("Freshness"),
        example: Some("/api/freshness"),
        ..endpoint(
            Op::Freshness,
            "freshness",
            "GET",
            "/api/freshness",
            "Service",
            "How recently the records were reviewed",
        )
    },
    Endpoint {
        answer: Json("OpenApiDocument"),
        params: &[query(
            "format",
            Enum(&["postman"]),
            "postman for a Postman v2.1 collection",
        )],
        example: Some("/api/openapi"),
        ..endpoint(
            Op::OpenApi,
            "openapi",
            "GET",
            "/api/openapi",
            "Service",
            "This OpenAPI 3.1 document",
        )
    },
    Endpoint {
        params: &[FORMAT_JSON],
        answer: HtmlOrJson("ReleaseNotes"),
        example: Some("/api/release-notes?format=json"),
        ..endpoint(
            Op::ReleaseNotes,
            "releaseNotes",
            "GET",
            "/api/release-notes",
            "Documents",
            "Release notes, newest first",
        )
    },
    Endpoint {
        params: &[FORMAT_JSON],
        answer: HtmlOrJson("Document"),
        example: Some("/api/disclaimer?format=json"),
        ..endpoint(
            Op::Disclaimer,
            "disclaimer",
            "GET",
            "/api/disclaimer",
            "Documents",
            "Disclaimer (JSON form has envelope_notice)",
        )
    },
    Endpoint {
        params: &[FORMAT_JSON],
        answer: HtmlOrJson("Document"),
        example: Some("/api/terms?format=json"),
        ..endpoint(
            Op::Terms,
            "terms",
            "GET",
            "/api/terms",
            "Documents",
            "Terms of service",
        )
    },
    Endpoint {
        params: &[FORMAT_JSON],
        answer: HtmlOrJson("Document"),
        example: Some("/api/privacy?format=json"),
        ..endpoint(
            Op::Privacy,
            "privacy",
            "GET",
            "/api/privacy",
            "Documents",
            "Privacy notice",
        )
    },
    // Compounds
    Endpoint {
        params: &[
            ID,
            CONTEXT,
            query(
                "all_contexts",
                Bool,
                "true for every available context in one answer",
            ),
            AS_OF,
        ],
        answer: Json("Compound"),
        example: Some("/api/compound/hq-c-org-000145?context=human_child"),
        ..endpoint(
            Op::Compound,
            "compound",
            "GET",
            "/api/compound/{id}",
            "Compounds",
            "Aggregated safety record in one exposure context",
        )
    },
    Endpoint {
        answer: Json("CompoundRecord"),
        params: &[ID],
        example: Some("/api/compound/hq-c-org-000145/raw"),
        ..endpoint(
            Op::CompoundRaw,
            "compoundRaw",
            "GET",
            "/api/compound/{id}/raw",
            "Compounds",
            "The stored record with its sources",
        )
    },
    Endpoint {
        answer: Json("Alternatives"),
        params: &[ID],
        example: Some("/api/compound/hq-c-org-000145/alternatives"),
        keyed_form: true,
        ..endpoint(
            Op::Alternatives,
            "alternatives",
            "GET",
            "/api/compound/{id}/alternatives",
            "Compounds",
            "Safer alternatives (basic list without a key, full data for Developer+)",
        )
    },
    Endpoint {
        access: Developer,
        params: &[ID],
        answer: Json("Timeline"),
        example: Some("/api/compound/hq-c-org-000678/timeline"),
        ..endpoint(
            Op::Timeline,
            "compoundTimeline",
            "GET",
            "/api/compound/{id}/timeline",
            "Compounds",
            "Every dated change of a compound's classifications and reference values, with its source",
        )
    },
    Endpoint {
        params: &[
            path("cas", Pattern(CAS), "CAS registry number, e.g. 71-43-2"),
            query(
                "redirect",
                Bool,
                "true for a 302 to the compound URL instead of the record",
            ),
            CONTEXT,
        ],
        answer: Json("CompoundSummary"),
        example: Some("/api/compound/cas/71-43-2"),
        ..endpoint(
            Op::CompoundByCas,
            "compoundByCas",
            "GET",
            "/api/compound/cas/{cas}",
            "Compounds",
            "Compound by CAS number",
        )
    },
    Endpoint {
        access: Developer,
        params: &[
            PAGE,
            LIMIT_100,
            OFFSET,
            SEARCH,
            RISK_PARAM,
            CONTEXT,
            query(
                "hazard",
                Text { min: 1, max: 64 },
                "Hazard class, GHS H-code or use class",
            ),
            query("cas", Pattern(CAS), "Exact CAS number"),
            query(
                "type_filter",
                Text { min: 1, max: 64 },
                "Use class of `type`",
            ),
            query(
                "category_filter",
                Text { min: 1, max: 64 },
                "Category or use class",
            ),
        ],
        answer: Json("CompoundList"),
        example: Some("/api/compounds?risk=high&context=human_child&limit=5"),
        ..endpoint(
            Op::Compounds,
            "compounds",
            "GET",
            "/api/compounds",
            "Compounds",
            "Compounds with filters, paginated",
        )
    },
    Endpoint {
        access: Developer,
        params: &[
            RISK_PARAM,
            CONTEXT,
            query("type", Text { min: 1, max: 64 }, "Use class of `type`"),
            query(
                "agency",
                Text { min: 1, max: 200 },
                "Agency of a classification",
            ),
            query("hazard", Text { min: 1, max: 64 }, "Hazard class or H-code"),
            query(
                "cas_prefix",
                Text { min: 1, max: 12 },
                "Start of the CAS number",
            ),
            query(
                "exposure",
                Text { min: 1, max: 64 },
                "Exposure route or source",
            ),
            query("functional_use", Text { min: 1, max: 64 }, "Use class"),
            query(
                "year",
                Int {
                    min: 1800,
                    max: Some(2100),
                    default: None,
                },
                "Year of a classification",
            ),
            query(
                "year_min",
                Int {
                    min: 1800,
                    max: Some(2100),
                    default: None,
                },
                "Earliest classification year",
            ),
            query(
                "year_max",
                Int {
                    min: 1800,
                    max: Some(2100),
                    default: None,
                },
                "Latest classification year",
            ),
            PAGE,
            LIMIT_100,
            OFFSET,
        ],
        answer: Json("CompoundList"),
        example: Some("/api/filter?hazard=mutagen&limit=5"),
        ..endpoint(
            Op::Filter,
            "filter",
            "GET",
            "/api/filter",
            "Compounds",
            "Compound filters (agency, hazard, exposure, years)",
        )
    },
    Endpoint {
        params: &[
            required(
                "ids",
                CompoundList { min: 1, max: 100 },
                "Compound ids or CAS numbers, comma-separated (tier cap: public 10, developer 50, pro and enterprise 100)",
            ),
            CONTEXT,
            query(
                "synthesize",
                Bool,
                "true to synthesize records (Developer+, at most 10, 2 credits each)",
            ),
            query("detail", Enum(&["summary", "full"]), "Answer detail"),
            AS_OF,
        ],
        answer: Json("Batch"),
        example: Some("/api/compounds/batch?ids=hq-c-org-000145,71-43-2"),
        ..endpoint(
            Op::Batch,
            "batch",
            "GET",
            "/api/compounds/batch",
            "Compounds",
            "Several compounds at once (counts as one request)",
        )
    },
    Endpoint {
        body: Some("BatchBody"),
        answer: Json("Batch"),
        ..endpoint(
            Op::Batch,
            "batchPost",
            "POST",
            "/api/compounds/batch",
            "Compounds",
            "Several compounds at once, as a JSON body",
        )
    },
    Endpoint {
        access: DeveloperForbidden,
        params: &[
            required(
                "ids",
                CompoundList { min: 2, max: 5 },
                "2 to 5 distinct compound ids",
            ),
            CONTEXT,
            query(
                "contexts",
                ContextList { min: 2, max: 5 },
                "2 to 5 contexts for a matrix (instead of context)",
            ),
            AS_OF,
        ],
        answer: Json("Compare"),
        example: Some("/api/compounds/compare?ids=hq-c-org-000145,hq-c-org-000001"),
        ..endpoint(
            Op::Compare,
            "compare",
            "GET",
            "/api/compounds/compare",
            "Compounds",
            "Compare 2 to 5 compounds",
        )
    },
    Endpoint {
        answer: Json("Contexts"),
        access: Developer,
        example: Some("/api/contexts"),
        ..endpoint(
            Op::Contexts,
            "contexts",
            "GET",
            "/api/contexts",
            "Compounds",
            "The 19 exposure contexts",
        )
    },
    // Search
    Endpoint {
        params: &[required(
            "q",
            Text { min: 1, max: 200 },
            "An exact name, synonym, curated alias (BPA, PFOA, ...), id, InChIKey or CAS number (dashes optional); case and spacing do not count",
        )],
        answer: Json("Lookup"),
        example: Some("/api/lookup?q=Benzene"),
        ..endpoint(
            Op::Lookup,
            "lookup",
            "GET",
            "/api/lookup",
            "Search",
            "Name lookup without a key: exact matches with their JSON and page links, near misses when none",
        )
    },
    Endpoint {
        access: Developer,
        params: &[
            required(
                "q",
                Text { min: 2, max: 200 },
                "Names, identifiers, CAS, types, categories, synonyms; curated aliases (BPA, PFOA, ...)",
            ),
            LIMIT_100,
            OFFSET,
            PAGE,
            query(
                "type",
                Enum(&["compound", "product", "material"]),
                "Only this entity type",
            ),
        ],
        answer: Json("Search"),
        example: Some("/api/search?q=BPA"),
        ..endpoint(
            Op::Search,
            "search",
            "GET",
            "/api/search",
            "Search",
            "Unified search, relevance-scored and typo-tolerant",
        )
    },
    // Materials and products
    Endpoint {
        answer: Json("Material"),
        params: &[MATERIAL_ID],
        example: Some("/api/material/hq-m-adh-000001"),
        ..endpoint(
            Op::Material,
            "material",
            "GET",
            "/api/material/{id}",
            "Materials and products",
            "Material record",
        )
    },
    Endpoint {
        answer: Json("Product"),
        params: &[PRODUCT_ID],
        example: Some("/api/product/hq-p-bdy-000002"),
        keyed_form: true,
        ..endpoint(
            Op::Product,
            "product",
            "GET",
            "/api/product/{id}",
            "Materials and products",
            "Product profile with risk synthesis (compound traces for Developer+)",
        )
    },
    Endpoint {
        answer: Json("ProductRecord"),
        params: &[PRODUCT_ID],
        example: Some("/api/product/hq-p-bdy-000002/raw"),
        ..endpoint(
            Op::ProductRaw,
            "productRaw",
            "GET",
            "/api/product/{id}/raw",
            "Materials and products",
            "Stored product",
        )
    },
    Endpoint {
        answer: Json("MaterialList"),
        access: Developer,
        params: &[PAGE, LIMIT_100, OFFSET, SEARCH],
        example: Some("/api/materials?limit=5"),
        ..endpoint(
            Op::Materials,
            "materials",
            "GET",
            "/api/materials",
            "Materials and products",
            "Materials, paginated",
        )
    },
    Endpoint {
        answer: Json("ProductList"),
        access: Developer,
        params: &[
            PAGE,
            LIMIT_100,
            OFFSET,
            SEARCH,
            query(
                "risk",
                Text { min: 1, max: 32 },
                "Synthesised product risk level",
            ),
            query(
                "tier",
                Text { min: 1, max: 8 },
                "Product tier code (BDY, FOD, ...)",
            ),
            query(
                "category_filter",
                Text { min: 1, max: 64 },
                "Product category",
            ),
        ],
        example: Some("/api/products?limit=5"),
        ..endpoint(
            Op::Products,
            "products",
            "GET",
            "/api/products",
            "Materials and products",
            "Products, paginated",
        )
    },
    // Badges
    Endpoint {
        params: &[
            ENTITY_ID,
            CONTEXT,
            query(
                "style",
                Enum(&["flat", "flat-square", "pill"]),
                "Badge style (default flat)",
            ),
            query(
                "label",
                Text { min: 1, max: 40 },
                "Left-hand text (default the service name)",
            ),
            query(
                "show_name",
                Bool,
                "true to add the entity's name after the label (cut at 32 characters)",
            ),
            query(
                "show_context",
                Bool,
                "true to put the context's label before a compound's tier (Children: high)",
            ),
        ],
        answer: Svg,
        example: Some("/api/badge/hq-c-org-000145?style=pill"),
        ..endpoint(
            Op::Badge,
            "badge",
            "GET",
            "/api/badge/{id}",
            "Badges",
            "Embeddable SVG badge of a compound's tier, a product's risk level or a material; every error is a gray SVG badge too",
        )
    },
    // Regulatory
    Endpoint {
        answer: Json("Regulatory"),
        access: Developer,
        params: &[ID, AS_OF],
        example: Some("/api/regulatory/hq-c-org-000145"),
        ..endpoint(
            Op::Regulatory,
            "regulatory",
            "GET",
            "/api/regulatory/{id}",
            "Regulatory",
            "Classifications of a compound by agency",
        )
    },
    Endpoint {
        answer: Json("RegulatoryAgencies"),
        access: Developer,
        example: Some("/api/regulatory/agencies"),
        ..endpoint(
            Op::RegulatoryAgencies,
            "regulatoryAgencies",
            "GET",
            "/api/regulatory/agencies",
            "Regulatory",
            "The agencies of record",
        )
    },
    Endpoint {
        answer: Json("RegulatoryByAgency"),
        access: Developer,
        params: &[
            path("agency", Text { min: 1, max: 200 }, "Agency name"),
            LIMIT_1000,
            OFFSET,
            PAGE,
        ],
        example: Some("/api/regulatory/by-agency/IARC?limit=5"),
        ..endpoint(
            Op::RegulatoryByAgency,
            "regulatoryByAgency",
            "GET",
            "/api/regulatory/by-agency/{agency}",
            "Regulatory",
            "Compounds classified by one agency",
        )
    },
    Endpoint {
        answer: Json("RegulatoryStatus"),
        access: Developer,
        params: &[
            query(
                "analyte",
                Text { min: 1, max: 200 },
                "Analyte id, name or abbreviation (any case), a CAS number or a compound id (/api/regulatory-status/vocabulary lists them)",
            ),
            query(
                "matrix",
                Text { min: 1, max: 200 },
                "Food, article or drug matrix id or label (any case); not with listing",
            ),
            query(
                "listing",
                Text { min: 1, max: 200 },
                "Hazard listing or classification id or label (any case); not with matrix",
            ),
            query(
                "jurisdiction",
                Enum(&["US", "EU", "CA_AB899"]),
                "Jurisdiction",
            ),
            query(
                "as_of",
                Date,
                "Date of the view (default today): past = then in force, future = scheduled changes rolled in",
            ),
            query(
                "view",
                Enum(&["calendar"]),
                "calendar for the forward change calendar",
            ),
            query(
                "before",
                Date,
                "Calendar: changes effective on or before this date",
            ),
        ],
        example: Some("/api/regulatory-status?jurisdiction=EU"),
        ..endpoint(
            Op::RegulatoryStatus,
            "regulatoryStatus",
            "GET",
            "/api/regulatory-status",
            "Regulatory",
            "Limits per analyte, matrix and jurisdiction, with a temporal view and a change calendar",
        )
    },
    Endpoint {
        answer: Json("RegulatoryStatusVocabulary"),
        example: Some("/api/regulatory-status/vocabulary"),
        ..endpoint(
            Op::RegulatoryStatusVocabulary,
            "regulatoryStatusVocabulary",
            "GET",
            "/api/regulatory-status/vocabulary",
            "Regulatory",
            "The analytes, matrices, listings and jurisdictions regulatory-status filters take, and its answer's enumerated values, with labels",
        )
    },
    // Exposure and relationships
    Endpoint {
        answer: Json("FoundIn"),
        access: Developer,
        params: &[ID],
        example: Some("/api/found-in/hq-c-org-000145"),
        ..endpoint(
            Op::FoundIn,
            "foundIn",
            "GET",
            "/api/found-in/{id}",
            "Exposure",
            "Where a compound is found",
        )
    },
    Endpoint {
        answer: Json("FoundInCategories"),
        access: Developer,
        example: Some("/api/found-in/categories"),
        ..endpoint(
            Op::FoundInCategories,
            "foundInCategories",
            "GET",
            "/api/found-in/categories",
            "Exposure",
            "Exposure source categories",
        )
    },
    Endpoint {
        answer: Json("FoundInByCategory"),
        access: Developer,
        params: &[
            path("category", Text { min: 1, max: 64 }, "Exposure category"),
            LIMIT_1000,
            OFFSET,
            PAGE,
        ],
        ..endpoint(
            Op::FoundInByCategory,
            "foundInByCategory",
            "GET",
            "/api/found-in/by-category/{category}",
            "Exposure",
            "Compounds found in one category",
        )
    },
    Endpoint {
        answer: Json("Relationships"),
        access: Developer,
        params: &[
            ENTITY_ID,
            query(
                "rel_type",
                Enum(&["compound", "material", "product"]),
                "Only neighbours of this type",
            ),
        ],
        example: Some("/api/relationships/hq-c-org-000145"),
        ..endpoint(
            Op::Relationships,
            "relationships",
            "GET",
            "/api/relationships/{id}",
            "Relationships",
            "Direct neighbours in the compound–material–product graph",
        )
    },
    Endpoint {
        answer: Json("RelationshipGraph"),
        access: Developer,
        params: &[
            ENTITY_ID,
            query(
                "depth",
                Int {
                    min: 1,
                    max: Some(3),
                    default: Some(1),
                },
                "Hops",
            ),
            query(
                "rel_type",
                Enum(&["compound", "material", "product"]),
                "Only nodes of this type",
            ),
        ],
        example: Some("/api/relationships/hq-c-org-000145/graph?depth=2"),
        ..endpoint(
            Op::RelationshipGraph,
            "relationshipGraph",
            "GET",
            "/api/relationships/{id}/graph",
            "Relationships",
            "Multi-hop graph around an entity",
        )
    },
    Endpoint {
        answer: Json("RelationshipStats"),
        access: Developer,
        example: Some("/api/relationships/stats"),
        ..endpoint(
            Op::RelationshipStats,
            "relationshipStats",
            "GET",
            "/api/relationships/stats",
            "Relationships",
            "Graph totals",
        )
    },
    // Fragrance
    Endpoint {
        answer: Json("FragranceList"),
        access: Developer,
        params: &[
            LIMIT_100,
            OFFSET,
            PAGE,
            query(
                "class",
                Text { min: 1, max: 64 },
                "Odour family or chemical class",
            ),
        ],
        example: Some("/api/fragrance?limit=5"),
        ..endpoint(
            Op::Fragrance,
            "fragrance",
            "GET",
            "/api/fragrance",
            "Fragrance",
            "Fragrance ingredients: EU allergen status, IFRA status, dermal and adult tiers",
        )
    },
    Endpoint {
        answer: Json("FragranceClasses"),
        access: Developer,
        example: Some("/api/fragrance/classes"),
        ..endpoint(
            Op::FragranceClasses,
            "fragranceClasses",
            "GET",
            "/api/fragrance/classes",
            "Fragrance",
            "Fragrance classes with member counts",
        )
    },
    Endpoint {
        answer: Json("FragranceSearch"),
        access: Developer,
        params: &[
            required(
                "q",
                Text { min: 2, max: 200 },
                "Name, synonym, CAS or class",
            ),
            LIMIT_100,
            OFFSET,
            PAGE,
        ],
        example: Some("/api/fragrance/search?q=linalool"),
        ..endpoint(
            Op::FragranceSearch,
            "fragranceSearch",
            "GET",
            "/api/fragrance/search",
            "Fragrance",
            "Search fragrance ingredients",
        )
    },
    // Export and changes
    Endpoint {
        access: Developer,
        params: &[
            query(
                "type",
                Enum(&["compounds", "materials", "products"]),
                "What to export (default compounds)",
            ),
            query("format", Enum(&["json", "csv"]), "json (default) or csv"),
            query(
                "detail",
                Enum(&["full"]),
                "full for full detail; otherwise the standard index",
            ),
            SEARCH,
            RISK_PARAM,
            CONTEXT,
        ],
        answer: JsonOrCsv("Export"),
        cost: 10,
        example: Some("/api/export?type=compounds&format=csv"),
        ..endpoint(
            Op::Export,
            "export",
            "GET",
            "/api/export",
            "Export",
            "Bulk export, streamed (counts as 10 requests)",
        )
    },
    Endpoint {
        answer: Json("Changelog"),
        access: Developer,
        params: &[
            query("since", DateOrTime, "Entries on or after this date or time"),
            query("compound_id", Pattern(COMPOUND_ID), "Only this compound"),
            query(
                "type",
                Enum(&[
                    "compound.added",
                    "compound.updated",
                    "compound.risk_changed",
                    "regulatory.updated",
                ]),
                "Only this change type",
            ),
            query(
                "summary",
                Bool,
                "true for compact entries without field changes",
            ),
            LIMIT_100,
            OFFSET,
            PAGE,
        ],
        example: Some("/api/changelog?limit=5"),
        ..endpoint(
            Op::Changelog,
            "changelog",
            "GET",
            "/api/changelog",
            "Changelog",
            "Data changes between releases, newest first",
        )
    },
    // Keys
    Endpoint {
        answer: Json("KeyStatus"),
        access: Developer,
        ..endpoint(
            Op::KeyStatus,
            "keyStatus",
            "GET",
            "/api/keys/status",
            "Keys",
            "Tier, state, expiry, payment status and usage today of the calling key",
        )
    },
    Endpoint {
        answer: Json("KeyUsage"),
        access: Developer,
        params: &[query(
            "days",
            Int {
                min: 1,
                max: Some(30),
                default: Some(7),
            },
            "Days of history",
        )],
        ..endpoint(
            Op::KeyUsage,
            "keyUsage",
            "GET",
            "/api/keys/usage",
            "Keys",
            "Requests per day, newest first",
        )
    },
    Endpoint {
        answer: Json("KeyRotated"),
        access: Developer,
        status: 201,
        ..endpoint(
            Op::KeyRotate,
            "keyRotate",
            "POST",
            "/api/keys/rotate",
            "Keys",
            "Replace the calling key (new key shown once; the old one stops at once)",
        )
    },
    Endpoint {
        body: Some("EmailBody"),
        status: 202,
        answer: Json("TrialAccepted"),
        ..endpoint(
            Op::KeyTrial,
            "keyTrial",
            "POST",
            "/api/keys/trial",
            "Keys",
            "A 7-day Developer trial key, mailed to the address (one per address)",
        )
    },
    Endpoint {
        answer: Json("Recovered"),
        body: Some("CodeBody"),
        ..endpoint(
            Op::KeyRecover,
            "keyRecover",
            "POST",
            "/api/keys/recover",
            "Keys",
            "Two steps: {email} mails a code; {email, code} returns replacement keys",
        )
    },
    Endpoint {
        answer: Json("Accepted"),
        body: Some("EmailBody"),
        status: 202,
        ..endpoint(
            Op::KeyResend,
            "keyResend",
            "POST",
            "/api/keys/resend",
            "Keys",
            "Keys are kept only as hashes and cannot be sent again: mails the recovery code (step one of /api/keys/recover)",
        )
    },
    Endpoint {
        answer: Json("Erased"),
        body: Some("CodeBody"),
        ..endpoint(
            Op::KeyErasure,
            "keyErasure",
            "POST",
            "/api/keys/erasure",
            "Keys",
            "Two steps: {email} mails a code; {email, code} erases the account's personal data",
        )
    },
    Endpoint {
        answer: Json("BillingReceived"),
        body: Some("BillingEvent"),
        ..endpoint(
            Op::BillingWebhook,
            "billingWebhook",
            "POST",
            "/api/billing/webhook",
            "Keys",
            "Payment-provider notifications (signed with X-Provider-Signature)",
        )
    },
    // Watchlist
    Endpoint {
        answer: Json("Watchlist"),
        access: Developer,
        params: &[LIMIT_100, OFFSET, PAGE],
        ..endpoint(
            Op::WatchlistList,
            "watchlist",
            "GET",
            "/api/watchlist",
            "Watchlist",
            "Watched compounds with name, tiers and when added",
        )
    },
    Endpoint {
        answer: Json("WatchlistAdded"),
        access: Developer,
        body: Some("CompoundsBody"),
        ..endpoint(
            Op::WatchlistAdd,
            "watchlistAdd",
            "POST",
            "/api/watchlist",
            "Watchlist",
            "Watch compounds (ids or CAS; tier caps 100 / 1,000 / 10,000)",
        )
    },
    Endpoint {
        answer: Json("WatchlistChecked"),
        access: Developer,
        body: Some("CompoundsBody"),
        ..endpoint(
            Op::WatchlistCheck,
            "watchlistCheck",
            "POST",
            "/api/watchlist/check",
            "Watchlist",
            "Whether each compound is watched",
        )
    },
    Endpoint {
        answer: Json("WatchlistRemoved"),
        access: Developer,
        params: &[ID],
        ..endpoint(
            Op::WatchlistRemove,
            "watchlistRemove",
            "DELETE",
            "/api/watchlist/{id}",
            "Watchlist",
            "Stop watching a compound",
        )
    },
    // Webhooks
    Endpoint {
        answer: Json("Webhooks"),
        access: Developer,
        params: &[
            query(
                "action",
                Enum(&["deliveries"]),
                "deliveries for a webhook's delivery log",
            ),
            query(
                "webhook_id",
                Text { min: 1, max: 64 },
                "The webhook (with action=deliveries)",
            ),
            OFFSET,
            PAGE,
            query(
                "limit",
                Int {
                    min: 1,
                    max: Some(50),
                    default: Some(20),
                },
                "Log entries per page",
            ),
        ],
        ..endpoint(
            Op::Webhooks,
            "webhooks",
            "GET",
            "/api/webhooks",
            "Webhooks",
            "The account's webhooks, or one webhook's delivery log",
        )
    },
    Endpoint {
        answer: Json("WebhookCreated"),
        access: Developer,
        body: Some("WebhookBody"),
        status: 201,
        ..endpoint(
            Op::Webhooks,
            "webhookCreate",
            "POST",
            "/api/webhooks",
            "Webhooks",
            "Register a webhook (https, public address; signing secret shown once)",
        )
    },
    Endpoint {
        answer: Json("WebhookDeleted"),
        access: Developer,
        params: &[path("id", Text { min: 1, max: 64 }, "Webhook id (wh_...)")],
        ..endpoint(
            Op::WebhookDelete,
            "webhookDelete",
            "DELETE",
            "/api/webhooks/{id}",
            "Webhooks",
            "Delete a webhook",
        )
    },
    Endpoint {
        answer: Json("WebhookTestQueued"),
        access: Developer,
        params: &[path("id", Text { min: 1, max: 64 }, "Webhook id (wh_...)")],
        status: 202,
        ..endpoint(
            Op::WebhookTest,
            "webhookTest",
            "POST",
            "/api/webhooks/test/{id}",
            "Webhooks",
            "Queue a webhook.test event",
        )
    },
    // Pages
    Endpoint {
        answer: Html,
        example: Some("/api/docs"),
        ..endpoint(
            Op::Docs,
            "docs",
            "GET",
            "/api/docs",
            "Pages",
            "The reference, readable",
        )
    },
    Endpoint {
        answer: Html,
        example: Some("/api/playground"),
        ..endpoint(
            Op::Playground,
            "playground",
            "GET",
            "/api/playground",
            "Pages",
            "Run public queries in the browser without a key",
        )
    },
    Endpoint {
        answer: Json("Examples"),
        example: Some("/api/examples"),
        ..endpoint(
            Op::Examples,
            "examples",
            "GET",
            "/api/examples",
            "Pages",
            "Curated example requests",
        )
    },
    Endpoint {
        answer: Html,
        example: Some("/api/dashboard"),
        ..endpoint(
            Op::Dashboard,
            "dashboard",
            "GET",
            "/api/dashboard",
            "Pages",
            "Usage dashboard for a key holder",
        )
    },
    Endpoint {
        answer: Html,
        example: Some("/api/compliance"),
        ..endpoint(
            Op::Compliance,
            "compliance",
            "GET",
            "/api/compliance",
            "Pages",
            "Data sources and licences, sub-processors, retention, erasure",
        )
    },
    // The site for people, outside /api: the front door, a page per entity, and what search
    // engines and the pages' name search read.
    Endpoint {
        answer: Html,
        example: Some("/"),
        ..endpoint(
            Op::Home,
            "home",
            "GET",
            "/",
            "Pages",
            "The front door: what saferef is, name search, badges, the trial key form",
        )
    },
    Endpoint {
        params: &[ID],
        answer: Html,
        example: Some("/compound/hq-c-org-000145"),
        ..endpoint(
            Op::CompoundPage,
            "compoundPage",
            "GET",
            "/compound/{id}",
            "Pages",
            "A compound's page: its 19 context tiers with their evidence, classifications, where it is found",
        )
    },
    Endpoint {
        params: &[MATERIAL_ID],
        answer: Html,
        example: Some("/material/hq-m-adh-000001"),
        ..endpoint(
            Op::MaterialPage,
            "materialPage",
            "GET",
            "/material/{id}",
            "Pages",
            "A material's page",
        )
    },
    Endpoint {
        params: &[PRODUCT_ID],
        answer: Html,
        example: Some("/product/hq-p-bdy-000002"),
        ..endpoint(
            Op::ProductPage,
            "productPage",
            "GET",
            "/product/{id}",
            "Pages",
            "A product's page: its risk synthesis, composition and materials",
        )
    },
    Endpoint {
        answer: Plain("application/xml"),
        example: Some("/sitemap.xml"),
        ..endpoint(
            Op::Sitemap,
            "sitemap",
            "GET",
            "/sitemap.xml",
            "Pages",
            "Every page for search engines (sitemaps.org)",
        )
    },
    Endpoint {
        answer: Plain("text/plain"),
        example: Some("/robots.txt"),
        ..endpoint(
            Op::Robots,
            "robots",
            "GET",
            "/robots.txt",
            "Pages",
            "Crawler rules and the sitemap's address",
        )
    },
    Endpoint {
        answer: Json("NameIndex"),
        example: Some("/search-index.json"),
        ..endpoint(
            Op::NameIndex,
            "nameIndex",
            "GET",
            "/search-index.json",
            "Pages",
            "Every compound's, material's and product's names, synonyms and CAS, for the pages' search",
        )
    },
];
