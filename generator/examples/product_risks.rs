//! Prints each product's synthesised risk level and the graph's size:
//! `cargo run --release --example product_risks`.
fn main() {
    let (dataset, _) = saferef_generator::load::load(std::path::Path::new("data")).unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for p in dataset.products.values() {
        let (s, traces) = saferef_generator::aggregate::synthesis::synthesize(&dataset, p);
        let level = s.risk_level.map_or("none", |r| r.as_str());
        *counts.entry((p.tier.clone(), level)).or_insert(0) += 1;
        let top = traces
            .iter()
            .max_by(|a, b| a.adjusted_score.total_cmp(&b.adjusted_score));
        println!(
            "{} {:<45} {:<17} {:.2} {}",
            p.id,
            p.name,
            level,
            s.score,
            top.map_or(String::new(), |t| t.name.clone())
        );
    }
    for ((tier, level), n) in counts {
        eprintln!("{tier} {level}: {n}");
    }
    let stats = saferef_generator::aggregate::graph::Graph::build(&dataset).stats();
    eprintln!("graph: {stats:?}");
}
