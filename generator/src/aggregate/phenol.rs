//! Whether a record's structure is a phenol: a hydroxyl group on a benzene ring, read from
//! its SMILES (`structure.rs`). Cats glucuronidate phenols poorly (METHODOLOGY.md, "Severity
//! rubric for animals and the environment"), so the cat rule reads this. A phenolate salt
//! counts as its phenol: its oxygen charged (`[O-].[Na+]`) or bonded to an alkali metal
//! (`O[Na]`), it is the phenol's anion, the form in which a phenol as acidic as
//! pentachlorophenol (pKa 4.7) circulates anyway.

use super::structure::Graph;

/// Whether the SMILES has a hydroxyl on a benzene ring. A SMILES it cannot read says no.
pub fn is_phenol(smiles: &str) -> bool {
    let Some(g) = Graph::parse(smiles) else {
        return false;
    };
    g.atoms.iter().enumerate().any(|(i, atom)| {
        if atom.element != "O" || atom.aromatic {
            return false;
        }
        let is_alkali = |n: usize| ALKALI.contains(&g.atoms[n].element.as_str());
        let alkali = g.bonds[i].iter().filter(|(n, _)| is_alkali(*n)).count();
        let others: Vec<(usize, u8)> = g.bonds[i]
            .iter()
            .copied()
            .filter(|(n, _)| !is_alkali(*n))
            .collect();
        // One neighbour besides a metal, by a single bond: the ring carbon.
        let [(carbon, 1)] = others.as_slice() else {
            return false;
        };
        // A hydroxyl (O, [OH]), a phenolate anion ([O-]) or an oxygen bonded to an alkali
        // metal (O[Na]).
        let hydroxyl_or_salt = match atom.bracket {
            None => alkali <= 1,
            Some((h, charged)) => alkali == 0 && ((h == 1 && !charged) || (h == 0 && charged)),
        };
        hydroxyl_or_salt && g.on_benzene_ring(*carbon)
    })
}

/// The alkali metals a phenolate's oxygen may be written bonded to.
const ALKALI: [&str; 3] = ["Li", "Na", "K"];

#[cfg(test)]
mod tests {
    use super::is_phenol;

    #[test]
    fn a_hydroxyl_on_a_benzene_ring_is_a_phenol_written_either_way() {
        for smiles in [
            "Oc1ccccc1",
            "OC1=CC=CC=C1",
            "C1=CC=C(C=C1)C2=CC=CC=C2O",
            "CC(=O)NC1=CC=C(C=C1)O",
            "C1=CC=C2C=C(C=CC2=C1)O",
            "C1=CC=C2C(=C1)C=CC=C2O",
            "CC(C)(C1=CC=C(C=C1)O)C2=CC=C(C=C2)O",
            "[OH]c1ccccc1",
            "C1=CC(=CC=C1O)[N+](=O)[O-]",
        ] {
            assert!(is_phenol(smiles), "{smiles}");
        }
    }

    #[test]
    fn a_phenolate_salt_is_its_phenol() {
        for smiles in [
            "C1=CC=C(C=C1)[O-].[Na+]",
            "C1=CC=C(C=C1)O[Na]",
            "C1(=C(C(=C(C(=C1Cl)Cl)Cl)Cl)Cl)[O-].[Na+]",
            "[K+].[O-]c1ccccc1",
        ] {
            assert!(is_phenol(smiles), "{smiles}");
        }
    }

    #[test]
    fn other_hydroxyls_quinones_alkoxides_ethers_and_unread_smiles_are_not() {
        for smiles in [
            "C1CCCCC1O",
            "OCC1=CC=CC=C1",
            "OC(=O)C1=CC=CC=C1",
            "C1=CC(=O)C=CC1=O",
            "CC[O-].[Na+]",
            "COC1=CC=CC=C1",
            "C1=CC=C(C=C1)O[Hg]C",
            "CCO",
            "OC1=CC=CC=C",
            "c1ccccc1O)",
        ] {
            assert!(!is_phenol(smiles), "{smiles}");
        }
    }
}
