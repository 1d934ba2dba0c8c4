//! Prints each compound's tier per context: `cargo run --example tiers -- CAS...`.
fn main() {
    let (dataset, _) = saferef_generator::load::load(std::path::Path::new("data")).unwrap();
    for cas in std::env::args().skip(1) {
        let Some(r) = dataset.by_cas(&cas) else {
            println!("{cas}: not in corpus");
            continue;
        };
        let a = saferef_generator::aggregate::assess(r);
        let cells: Vec<String> = a
            .contexts
            .iter()
            .map(|c| format!("{}={}({})", c.context, c.risk_level.as_str(), c.confidence))
            .collect();
        println!("{} [{:?}] {}", r.name, a.schema, cells.join(" "));
    }
}
