//! Relationship responses: an entity's direct links, a breadth-first graph to a
//! depth of 1 to 3, and graph statistics. Keyed endpoints: the runtime serves them once keys
//! exist.

use serde::Serialize;

use super::{Cache, Rendered};
use crate::aggregate::graph::{Edge, Graph, Node, NodeType, Stats};
use crate::api::{Op, Query};
use crate::render::declared;
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

/// An entity id path segment, its shape checked (compound, material or product).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntityId<'a>(&'a str);

impl<'a> EntityId<'a> {
    pub fn parse(id: &'a str) -> Result<EntityId<'a>, ApiError> {
        if is_entity_id(id) {
            Ok(EntityId(id))
        } else {
            Err(ApiError::bad_request(format!(
                "malformed entity id {id:?}: expected a compound, material or product id"
            )))
        }
    }
}

/// `rel_type`: only neighbours (or nodes) of this type.
pub fn rel_type(q: &dyn Query) -> Result<Option<NodeType>, ApiError> {
    match q.get("rel_type") {
        None => Ok(None),
        Some("compound") => Ok(Some(NodeType::Compound)),
        Some("material") => Ok(Some(NodeType::Material)),
        Some("product") => Ok(Some(NodeType::Product)),
        Some(other) => Err(ApiError::bad_request(format!(
            "rel_type must be compound, material or product, not {other:?}"
        ))),
    }
}

/// What `GET /api/relationships/{id}/graph` is asked for, parsed once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphQuery {
    depth: u8,
    only: Option<NodeType>,
}

impl GraphQuery {
    pub fn parse(q: &dyn Query) -> Result<GraphQuery, ApiError> {
        let depth = declared::count(Op::RelationshipGraph, "depth", q)?;
        Ok(GraphQuery {
            depth: u8::try_from(depth)
                .map_err(|_| ApiError::internal("depth is declared beyond 255"))?,
            only: rel_type(q)?,
        })
    }
}

fn start<'g>(graph: &'g Graph, id: EntityId<'_>) -> Result<(&'g str, NodeType), ApiError> {
    graph
        .node(id.0)
        .ok_or_else(|| ApiError::not_found(format!("{} not found", id.0)))
}

#[derive(Serialize, schemars::JsonSchema)]
struct Related {
    id: String,
    hq_id: String,
    name: String,
    role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pct: Option<String>,
}

#[derive(Serialize, Default, schemars::JsonSchema)]
struct Relationships {
    compounds: Vec<Related>,
    materials: Vec<Related>,
    products: Vec<Related>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct RelationshipsBody<'a> {
    id: &'a str,
    hq_id: &'a str,
    name: &'a str,
    #[serde(rename = "type")]
    kind: NodeType,
    relationships: Relationships,
    total_edges: usize,
}

/// `GET /api/relationships/{id}?rel_type=`.
pub fn relationships(
    graph: &Graph,
    id: EntityId<'_>,
    only: Option<NodeType>,
) -> Result<Rendered, ApiError> {
    let (name, kind) = start(graph, id)?;
    let id = id.0;
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
            hq_id: other.clone(),
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
        hq_id: id,
        name,
        kind,
        relationships: out,
        total_edges: total,
    };
    Ok(Rendered::json(200, &body, Cache::Private))
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct GraphBody<'a> {
    id: &'a str,
    hq_id: &'a str,
    name: &'a str,
    #[serde(rename = "type")]
    kind: NodeType,
    depth: u8,
    graph: TraversalOut<'a>,
}

/// A traversal as answered: each node's id also under `hq_id`.
#[derive(Serialize, schemars::JsonSchema)]
struct TraversalOut<'a> {
    nodes: Vec<NodeOut<'a>>,
    edges: &'a [Edge],
    node_count: usize,
    edge_count: usize,
}

#[derive(Serialize, schemars::JsonSchema)]
struct NodeOut<'a> {
    #[serde(flatten)]
    node: &'a Node,
    hq_id: &'a str,
}

/// `GET /api/relationships/{id}/graph?depth=&rel_type=` (depth 1 to 3, default 1).
pub fn graph(graph: &Graph, id: EntityId<'_>, q: GraphQuery) -> Result<Rendered, ApiError> {
    let (name, kind) = start(graph, id)?;
    let traversal = graph.traverse(id.0, q.depth, q.only);
    let body = GraphBody {
        id: id.0,
        hq_id: id.0,
        name,
        kind,
        depth: q.depth,
        graph: TraversalOut {
            nodes: traversal
                .nodes
                .iter()
                .map(|node| NodeOut {
                    node,
                    hq_id: &node.id,
                })
                .collect(),
            edges: &traversal.edges,
            node_count: traversal.node_count,
            edge_count: traversal.edge_count,
        },
    };
    Ok(Rendered::json(200, &body, Cache::Private))
}

#[derive(Serialize, schemars::JsonSchema)]
pub(crate) struct StatsBody<'a> {
    #[schemars(extend("format" = "date-time"))]
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

    /// The status of `op` at `id` with `query`, parsed as the dispatch parses it.
    fn status(op: Op, id: &str, query: &[(&str, &str)]) -> u16 {
        let g = Graph::default();
        let q: Vec<(String, String)> = query
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        let answer = EntityId::parse(id).and_then(|id| match op {
            Op::RelationshipGraph => graph(&g, id, GraphQuery::parse(&q)?),
            _ => relationships(&g, id, rel_type(&q)?),
        });
        answer.map_or_else(|e| e.status, |r| r.status)
    }

    #[test]
    fn bad_parameters_are_400_and_unknown_ids_404() {
        let g = Op::RelationshipGraph;
        assert_eq!(status(g, "hq-c-org-000001", &[("depth", "4")]), 400);
        assert_eq!(status(g, "hq-c-org-000001", &[("depth", "0")]), 400);
        assert_eq!(status(g, "nope", &[]), 400);
        assert_eq!(status(g, "hq-c-org-000001", &[]), 404);
        assert_eq!(status(g, "hq-c-org-000001", &[("depth", "3")]), 404);
        let r = Op::Relationships;
        assert_eq!(status(r, "hq-c-org-000001", &[("rel_type", "thing")]), 400);
        assert_eq!(status(r, "hq-c-org-000001", &[]), 404);
    }
}
