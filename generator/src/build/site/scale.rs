//! `--scale N` for build benchmarks only: the dataset with every compound, material and
//! product cloned N-1 times under new ids (number + k x 100000) and new CAS numbers, so a
//! benchmark can show how build cost grows. Never written to data/.

use crate::model::Dataset;
use crate::model::cas::Cas;

/// The dataset scaled `factor` times (1 returns it unchanged). At most 10.
pub fn scaled(mut dataset: Dataset, factor: usize) -> anyhow::Result<Dataset> {
    anyhow::ensure!(
        (1..=10).contains(&factor),
        "--scale takes 1 to 10 (ids have room for nine copies), not {factor}"
    );
    if factor == 1 {
        return Ok(dataset);
    }
    let renumber = |id: &str, k: usize| -> String {
        let (head, number) = id.rsplit_once('-').unwrap_or((id, "0"));
        let n: usize = number.parse().unwrap_or(0);
        format!("{head}-{:06}", n + k * 100_000)
    };
    let mut taken: std::collections::BTreeSet<String> = dataset
        .compounds
        .values()
        .map(|r| r.cas.to_string())
        .collect();
    let compounds: Vec<_> = dataset.compounds.values().cloned().collect();
    let materials: Vec<_> = dataset.materials.values().cloned().collect();
    let products: Vec<_> = dataset.products.values().cloned().collect();
    for k in 1..factor {
        for r in &compounds {
            let digits: String = r
                .cas
                .as_str()
                .chars()
                .filter(char::is_ascii_digit)
                .collect();
            let body = &digits[..digits.len() - 1];
            // The copy number before the digits, with whichever check digit parses: a
            // well-formed CAS that no compound of the corpus uses.
            let Some(cas) = (0..10)
                .map(|check| format!("{k}{body:0>8}{check}"))
                .find_map(|d| Cas::from_digits(&d).ok())
            else {
                continue;
            };
            if !taken.insert(cas.as_str().to_string()) {
                continue;
            }
            let mut copy = r.clone();
            copy.hq_id.number += u32::try_from(k * 100_000)?;
            copy.cas = cas;
            dataset.compounds.insert(copy.hq_id, copy);
        }
        for m in &materials {
            let mut copy = m.clone();
            copy.id = renumber(&m.id, k);
            dataset.materials.insert(copy.id.clone(), copy);
        }
        for p in &products {
            let mut copy = p.clone();
            copy.id = renumber(&p.id, k);
            dataset.products.insert(copy.id.clone(), copy);
        }
    }
    Ok(dataset)
}
