//! Relationship responses: an entity's direct links, a breadth-first graph to a
//! depth of 1 to 3, and graph statistics. Keyed endpoints: the runtime serves them once keys
//! exist.

use serde::Serialize;

use super::{Cache, Rendered};
use crate::aggregate::graph::{Graph, NodeType, Stats, Traversal};
use crate::render::error::ApiError;

/// `^hq-[cmp](-[a-z]{3})?-[0-9]{4,6}$`.
pub fn is_entity_id(id: &str) -> bool {
    let Some(rest) = id.strip_prefix("hq-") else {
        return false;
    };
    let mut parts = rest.split('-');
    let (Some(kind), Some(second)) = (parts.next(), parts.next()) else {
        return false;
    };
    if !matches!(kind, "c" | "m" | "p") {
        return false;
    }
    let number = match parts.next() {
        None => second,
        Some(n) if second.len() == 3 && second.bytes().all(|b| b.is_ascii_lowercase()) => n,
        Some(_) => return false,
    };
    parts.next().is_none()
        && (4..=6).contains(&number.len())
        && number.bytes().all(|b| b.is_ascii_digit())
}

fn rel_type(value: Option<&str>) -> Result<Option<NodeType>, Rendered> {
    match value {
        None => Ok(None),
        Some("compound") => Ok(Some(NodeType::Compound)),
        Some("material") => Ok(Some(NodeType::Material)),
        Some("product") => Ok(Some(NodeType::Product)),
        Some(other) => Err(Rendered::from(ApiError::bad_request(format!(
            "rel_type must be compound, material or product, not {other:?}"
        )))),
    }
}

fn start<'g>(graph: &'g Graph, id: &str) -> Result<(&'g str, NodeType), Rendered> {
    if !is_entity_id(id) {
        return Err(Rendered::from(ApiError::bad_request(format!(
            "malformed entity id {id:?}: expected a compound, material or product id"
        ))));
    }
    graph
        .node(id)
        .ok_or_else(|| Rendered::from(ApiError::not_found(format!("{id} not found"))))
}

#[derive(Serialize)]
struct Related {
    id: String,
    name: String,
    role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pct: Option<String>,
}

#[derive(Serialize, Default)]
struct Relationships {
    compounds: Vec<Related>,
    materials: Vec<Related>,
    products: Vec<Related>,
}

#[derive(Serialize)]
struct RelationshipsBody<'a> {
    id: &'a str,
    name: &'a str,
    #[serde(rename = "type")]
    kind: NodeType,
    relationships: Relationships,
    total_edges: usize,
}

/// `GET /api/relationships/{id}?rel_type=`.
pub fn relationships(graph: &Graph, id: &str, rel: Option<&str>) -> Rendered {
    let only = match rel_type(rel) {
        Ok(t) => t,
        Err(e) => return e,
    };
    let (name, kind) = match start(graph, id) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let mut out = Relationships::default();
    let mut total = 0;
    for link in graph.neighbours(id) {
        let other = if link.source == id {
            &link.target
        } else {
            &link.source
        };
        let Some((other_name, other_kind)) = graph.node(other) else {
            continue;
        };
        if only.is_some_and(|t| t != other_kind) {
            continue;
        }
        total += 1;
        let item = Related {
            id: other.clone(),
            name: other_name.to_string(),
            role: link.role.clone(),
            pct: link.pct.clone(),
        };
        match other_kind {
            NodeType::Compound => out.compounds.push(item),
            NodeType::Material => out.materials.push(item),
            NodeType::Product => out.products.push(item),
        }
    }
    let body = RelationshipsBody {
        id,
        name,
        kind,
        relationships: out,
        total_edges: total,
    };
    Rendered::json(200, &body, Cache::Private)
}

#[derive(Serialize)]
struct GraphBody<'a> {
    id: &'a str,
    name: &'a str,
    #[serde(rename = "type")]
    kind: NodeType,
    depth: u8,
    graph: Traversal,
}

/// `GET /api/relationships/{id}/graph?depth=&rel_type=` (depth 1 to 3, default 1).
pub fn graph(graph: &Graph, id: &str, depth: Option<&str>, rel: Option<&str>) -> Rendered {
    let depth = match depth.map(str::parse::<u8>) {
        None => 1,
        Some(Ok(d @ 1..=3)) => d,
        Some(_) => {
            return Rendered::from(ApiError::bad_request(
                "depth must be an integer from 1 to 3",
            ));
        }
    };
    let only = match rel_type(rel) {
        Ok(t) => t,
        Err(e) => return e,
    };
    let (name, kind) = match start(graph, id) {
        Ok(n) => n,
        Err(e) => return e,
    };
    let body = GraphBody {
        id,
        name,
        kind,
        depth,
        graph: graph.traverse(id, depth, only),
    };
    Rendered::json(200, &body, Cache::Private)
}

#[derive(Serialize)]
struct StatsBody<'a> {
    generated: &'a str,
    stats: Stats,
}

/// `GET /api/relationships/stats`; `generated` is when the graph was built.
pub fn stats(graph: &Graph, generated: &str) -> Rendered {
    Rendered::json(
        200,
        &StatsBody {
            generated,
            stats: graph.stats(),
        },
        Cache::Private,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_ids() {
        for ok in [
            "hq-c-org-000001",
            "hq-m-ply-000123",
            "hq-p-hom-0001",
            "hq-c-12345",
        ] {
            assert!(is_entity_id(ok), "{ok}");
        }
        for bad in [
            "hq-x-org-000001",
            "hq-c-org-001",
            "hq-c-ORG-000001",
            "hq-c-org-0000001",
            "c-org-000001",
            "hq-c-org-000001-1",
        ] {
            assert!(!is_entity_id(bad), "{bad}");
        }
    }

    #[test]
    fn bad_parameters_are_400_and_unknown_ids_404() {
        let g = Graph::default();
        assert_eq!(graph(&g, "hq-c-org-000001", Some("4"), None).status, 400);
        assert_eq!(graph(&g, "nope", None, None).status, 400);
        assert_eq!(graph(&g, "hq-c-org-000001", None, None).status, 404);
        assert_eq!(
            relationships(&g, "hq-c-org-000001", Some("thing")).status,
            400
        );
    }
}
