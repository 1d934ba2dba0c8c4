//! The compound–material–product relationship graph, built from compositions: an edge for
//! each compound in a material, each material in a product, and each compound in a product.
//! Traversal is breadth-first; every node and edge carries the depth it was reached at.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde::Serialize;

use crate::model::Dataset;
use crate::model::material::Component;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NodeType {
    Compound,
    Material,
    Product,
}

/// One undirected link as stored: `source` contains or uses `target`.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Link {
    pub source: String,
    pub target: String,
    /// compound_material, material_product, compound_product.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pct: Option<String>,
}

/// A link's `pct`: the component's share, prefixed by its kind when it is only a ceiling so a
/// legal or advisory maximum never reads as the content.
fn pct(c: &Component) -> Option<String> {
    let share = c.share.as_deref()?;
    Some(match c.share_kind {
        Some(k) if k.is_content() => share.to_string(),
        Some(k) => format!("{}: {share}", k.as_str()),
        None => share.to_string(),
    })
}

#[derive(Debug, Default)]
pub struct Graph {
    nodes: BTreeMap<String, (String, NodeType)>,
    links: Vec<Link>,
    /// Node id -> indexes into `links`.
    adjacency: BTreeMap<String, Vec<usize>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Node {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub kind: NodeType,
    pub depth: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Edge {
    pub source: String,
    pub target: String,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub role: String,
    pub depth: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Traversal {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub node_count: usize,
    pub edge_count: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Stats {
    pub nodes: usize,
    pub edges: usize,
    pub compounds_with_links: usize,
    pub materials_with_links: usize,
    pub products_with_links: usize,
}

impl Graph {
    pub fn build(dataset: &Dataset) -> Graph {
        let mut g = Graph::default();
        for r in dataset.compounds.values() {
            g.nodes
                .insert(r.hq_id.to_string(), (r.name.clone(), NodeType::Compound));
        }
        let slugs: BTreeMap<&str, &str> = dataset
            .materials
            .values()
            .map(|m| (m.slug.as_str(), m.id.as_str()))
            .collect();
        for m in dataset.materials.values() {
            g.nodes
                .insert(m.id.clone(), (m.name.clone(), NodeType::Material));
            let c = &m.composition;
            for comp in c.base.iter().chain(&c.additives).chain(&c.contaminants) {
                if let Some(r) = dataset.by_cas(&comp.cas) {
                    g.link(
                        &r.hq_id.to_string(),
                        &m.id,
                        "compound_material",
                        &comp.role,
                        pct(comp),
                    );
                }
            }
        }
        for p in dataset.products.values() {
            g.nodes
                .insert(p.id.clone(), (p.name.clone(), NodeType::Product));
            for comp in &p.composition {
                if let Some(r) = dataset.by_cas(&comp.cas) {
                    g.link(
                        &r.hq_id.to_string(),
                        &p.id,
                        "compound_product",
                        &comp.role,
                        pct(comp),
                    );
                }
            }
            for (role, uses) in [
                ("common", &p.materials.common),
                ("concerning", &p.materials.concerning),
                ("preferred", &p.materials.preferred),
            ] {
                for u in uses {
                    if let Some(mid) = slugs.get(u.slug.as_str()) {
                        g.link(mid, &p.id, "material_product", role, None);
                    }
                }
            }
        }
        g
    }

    fn link(
        &mut self,
        source: &str,
        target: &str,
        kind: &'static str,
        role: &str,
        pct: Option<String>,
    ) {
        let i = self.links.len();
        self.links.push(Link {
            source: source.to_string(),
            target: target.to_string(),
            kind,
            role: role.to_string(),
            pct,
        });
        self.adjacency
            .entry(source.to_string())
            .or_default()
            .push(i);
        self.adjacency
            .entry(target.to_string())
            .or_default()
            .push(i);
    }

    pub fn node(&self, id: &str) -> Option<(&str, NodeType)> {
        self.nodes.get(id).map(|(n, t)| (n.as_str(), *t))
    }

    /// The links touching `id`.
    pub fn neighbours(&self, id: &str) -> impl Iterator<Item = &Link> {
        self.adjacency
            .get(id)
            .into_iter()
            .flatten()
            .map(|i| &self.links[*i])
    }

    /// Breadth-first from `start` to `depth` hops; each node and edge once, at the depth it
    /// was first reached; `only` keeps nodes of one type (and the start).
    pub fn traverse(&self, start: &str, depth: u8, only: Option<NodeType>) -> Traversal {
        let mut seen: BTreeSet<&str> = BTreeSet::from([start]);
        let mut used: BTreeSet<usize> = BTreeSet::new();
        let mut nodes = Vec::new();
        let mut edges = Vec::new();
        if let Some((name, kind)) = self.node(start) {
            nodes.push(Node {
                id: start.to_string(),
                name: name.to_string(),
                kind,
                depth: 0,
            });
        }
        let mut queue = VecDeque::from([(start, 0u8)]);
        while let Some((id, d)) = queue.pop_front() {
            if d >= depth {
                continue;
            }
            for &i in self.adjacency.get(id).into_iter().flatten() {
                let link = &self.links[i];
                let other = if link.source == id {
                    &link.target
                } else {
                    &link.source
                };
                let Some((name, kind)) = self.node(other) else {
                    continue;
                };
                if only.is_some_and(|t| t != kind) {
                    continue;
                }
                if used.insert(i) {
                    edges.push(Edge {
                        source: link.source.clone(),
                        target: link.target.clone(),
                        kind: link.kind,
                        role: link.role.clone(),
                        depth: d + 1,
                    });
                }
                if seen.insert(other.as_str()) {
                    nodes.push(Node {
                        id: other.clone(),
                        name: name.to_string(),
                        kind,
                        depth: d + 1,
                    });
                    queue.push_back((other.as_str(), d + 1));
                }
            }
        }
        Traversal {
            node_count: nodes.len(),
            edge_count: edges.len(),
            nodes,
            edges,
        }
    }

    pub fn stats(&self) -> Stats {
        let linked = |t: NodeType| {
            self.adjacency
                .keys()
                .filter(|id| self.nodes.get(*id).is_some_and(|(_, k)| *k == t))
                .count()
        };
        Stats {
            nodes: self.nodes.len(),
            edges: self.links.len(),
            compounds_with_links: linked(NodeType::Compound),
            materials_with_links: linked(NodeType::Material),
            products_with_links: linked(NodeType::Product),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// c1 -> m1 -> p1 <- c2, and c1 -> p1 directly: a cycle c1-m1-p1-c1.
    fn graph() -> Graph {
        let mut g = Graph::default();
        for (id, t) in [
            ("c1", NodeType::Compound),
            ("c2", NodeType::Compound),
            ("m1", NodeType::Material),
            ("p1", NodeType::Product),
            ("p2", NodeType::Product),
        ] {
            g.nodes.insert(id.into(), (id.to_uppercase(), t));
        }
        g.link(
            "c1",
            "m1",
            "compound_material",
            "base_polymer",
            Some("90 %".into()),
        );
        g.link("m1", "p1", "material_product", "common", None);
        g.link("c1", "p1", "compound_product", "contaminant", None);
        g.link("c2", "p1", "compound_product", "plasticizer", None);
        g.link("m1", "p2", "material_product", "concerning", None);
        g
    }

    #[test]
    fn depth_limits_the_walk() {
        let g = graph();
        let one = g.traverse("c1", 1, None);
        let ids: Vec<&str> = one.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["c1", "m1", "p1"]);
        assert_eq!(one.edge_count, 2);
        let two = g.traverse("c1", 2, None);
        let ids: BTreeSet<&str> = two.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, BTreeSet::from(["c1", "c2", "m1", "p1", "p2"]));
        assert_eq!(two.nodes.iter().find(|n| n.id == "c2").unwrap().depth, 2);
    }

    #[test]
    fn cycles_visit_each_node_and_edge_once() {
        let g = graph();
        let all = g.traverse("c1", 3, None);
        assert_eq!(all.node_count, 5);
        assert_eq!(
            all.edge_count, 5,
            "every link once, the cycle's closing edge included"
        );
        let mut ids: Vec<&str> = all.nodes.iter().map(|n| n.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 5);
    }

    #[test]
    fn type_filter_and_stats() {
        let g = graph();
        let products = g.traverse("m1", 1, Some(NodeType::Product));
        assert!(
            products
                .nodes
                .iter()
                .skip(1)
                .all(|n| n.kind == NodeType::Product)
        );
        assert_eq!(products.node_count, 3);
        let s = g.stats();
        assert_eq!((s.nodes, s.edges), (5, 5));
        assert_eq!(
            (
                s.compounds_with_links,
                s.materials_with_links,
                s.products_with_links
            ),
            (2, 1, 2)
        );
    }
}
