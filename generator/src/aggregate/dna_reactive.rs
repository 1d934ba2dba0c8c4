//! Whether a record's structure belongs to a class of carcinogens that IARC finds DNA-reactive
//! by mechanism, read from its SMILES (`structure.rs`): an N-nitroso group, a nitro or
//! primary amino group on a fused polycyclic aromatic (nitro-PAHs, naphthylamines), a
//! nitrogen mustard, or a direct-acting SN2 alkylator: a short alkyl ester of a sulfonic acid
//! (methyl methanesulfonate, busulfan), a sultone (1,3-propane sultone) or a dialkyl sulfate.
//! Such a class keeps a carried cancer listing probable, as a germ cell
//! mutagen class does (METHODOLOGY.md, carcinogenicity), and beside a probable or known call
//! raises children and infants (rule life_stage). Narrow on purpose: a nitro or amino
//! group on a single benzene ring (nitrobenzenes, anilines) is not read as one.

use super::structure::Graph;

/// The DNA-reactive class of a SMILES, in words, if it has one. A SMILES that cannot be read
/// has none.
pub fn dna_reactive_class(smiles: &str) -> Option<&'static str> {
    let g = Graph::parse(smiles)?;
    if (0..g.atoms.len()).any(|s| alkylating_ester(&g, s)) {
        return Some("an alkyl sulfonate or sulfate ester");
    }
    (0..g.atoms.len()).find_map(|n| {
        if g.atoms[n].element != "N" || g.atoms[n].aromatic {
            return None;
        }
        if n_nitroso(&g, n) {
            Some("an N-nitroso compound")
        } else if nitro_carbon(&g, n).is_some_and(|c| on_fused_ring(&g, c)) {
            Some("a nitro-polycyclic aromatic")
        } else if primary_amino_carbon(&g, n).is_some_and(|c| on_fused_ring(&g, c)) {
            Some("a polycyclic aromatic amine")
        } else if mustard(&g, n) {
            Some("a nitrogen mustard")
        } else {
            None
        }
    })
}

/// The atoms bonded to `a` with the order of each bond.
fn neighbours(g: &Graph, a: usize) -> &[(usize, u8)] {
    &g.bonds[a]
}

fn is(g: &Graph, a: usize, element: &str) -> bool {
    g.atoms[a].element == element
}

/// N–N=O: a nitrogen bonded to a nitrogen that is double-bonded to an oxygen.
fn n_nitroso(g: &Graph, n: usize) -> bool {
    neighbours(g, n).iter().any(|&(m, order)| {
        order == 1
            && is(g, m, "N")
            && neighbours(g, m)
                .iter()
                .any(|&(o, order)| order == 2 && is(g, o, "O"))
    })
}

/// The carbon a nitro group (two oxygens on the nitrogen) is bonded to.
fn nitro_carbon(g: &Graph, n: usize) -> Option<usize> {
    let oxygens = neighbours(g, n)
        .iter()
        .filter(|(o, _)| is(g, *o, "O"))
        .count();
    let carbons: Vec<usize> = neighbours(g, n)
        .iter()
        .filter(|(c, _)| is(g, *c, "C"))
        .map(|(c, _)| *c)
        .collect();
    match (oxygens, carbons.as_slice()) {
        (2, [c]) if neighbours(g, n).len() == 3 => Some(*c),
        _ => None,
    }
}

/// The carbon an NH2 group is bonded to: an unbracketed nitrogen with one single bond, to a
/// carbon (a salt's HCl is written apart).
fn primary_amino_carbon(g: &Graph, n: usize) -> Option<usize> {
    if g.atoms[n]
        .bracket
        .is_some_and(|(h, charged)| h != 2 || charged)
    {
        return None;
    }
    match neighbours(g, n) {
        [(c, 1)] if is(g, *c, "C") => Some(*c),
        _ => None,
    }
}

/// A nitrogen carrying two 2-chloroethyl groups (N–CH2–CH2–Cl).
fn mustard(g: &Graph, n: usize) -> bool {
    let chloroethyl = |c1: usize| {
        is(g, c1, "C")
            && !g.atoms[c1].aromatic
            && neighbours(g, c1).iter().any(|&(c2, order)| {
                order == 1
                    && c2 != n
                    && is(g, c2, "C")
                    && neighbours(g, c2)
                        .iter()
                        .any(|&(cl, order)| order == 1 && is(g, cl, "Cl"))
            })
    };
    neighbours(g, n)
        .iter()
        .filter(|&&(c, order)| order == 1 && chloroethyl(c))
        .count()
        >= 2
}

/// Fewer carbons than this in the alkyl group make a sulfonate ester an alkylator (Benigni/Bossa
/// alert SA_2, "alkyl (C<5) ester of sulphonic acid"): a longer chain reacts by SN2 too slowly.
const SHORT_ALKYL: usize = 5;

/// A sulfonyl sulfur (two S=O) whose ester oxygen carries a short saturated alkyl group, and
/// whose other substituent is a carbon (a sulfonate or sultone) or a second such alkoxy group
/// (a dialkyl sulfate). A sulfonic acid, a salt, a monoalkyl sulfate (sodium lauryl sulfate),
/// an aryl or vinyl ester (acesulfame) leaves no alkyl group to attack.
fn alkylating_ester(g: &Graph, s: usize) -> bool {
    if !is(g, s, "S") {
        return false;
    }
    let oxo = neighbours(g, s)
        .iter()
        .filter(|&&(o, order)| order == 2 && is(g, o, "O"))
        .count();
    let single: Vec<usize> = neighbours(g, s)
        .iter()
        .filter(|&&(_, order)| order == 1)
        .map(|&(a, _)| a)
        .collect();
    let &[a, b] = single.as_slice() else {
        return false;
    };
    let alkoxy = |o: usize| is(g, o, "O") && short_alkyl_on(g, o, s);
    oxo == 2 && ((alkoxy(a) && (alkoxy(b) || is(g, b, "C"))) || (alkoxy(b) && is(g, a, "C")))
}

/// Whether oxygen `o` (bonded to the sulfur `s`) carries a saturated carbon whose chain of
/// saturated carbons, not crossing back through `o`, holds fewer than `SHORT_ALKYL` carbons.
fn short_alkyl_on(g: &Graph, o: usize, s: usize) -> bool {
    let saturated = |c: usize| {
        is(g, c, "C")
            && !g.atoms[c].aromatic
            && neighbours(g, c).iter().all(|&(_, order)| order == 1)
    };
    let carbons: Vec<usize> = neighbours(g, o)
        .iter()
        .filter(|&&(a, _)| a != s)
        .map(|&(a, _)| a)
        .collect();
    let [start] = carbons.as_slice() else {
        return false;
    };
    if !saturated(*start) {
        return false;
    }
    let mut seen = vec![*start];
    let mut i = 0;
    while i < seen.len() {
        for &(next, _) in neighbours(g, seen[i]) {
            if is(g, next, "C") && !seen.contains(&next) {
                if !saturated(next) {
                    return false;
                }
                seen.push(next);
            }
        }
        i += 1;
    }
    seen.len() < SHORT_ALKYL
}

/// Whether carbon `c` is on a benzene ring that shares atoms with another six-membered ring
/// (naphthalene, pyrene), not on a lone ring or rings joined by a bond (biphenyl).
fn on_fused_ring(g: &Graph, c: usize) -> bool {
    if !g.on_benzene_ring(c) {
        return false;
    }
    let as_set = |ring: &Vec<usize>| {
        let mut ring = ring.clone();
        ring.sort_unstable();
        ring
    };
    g.six_rings(c).iter().map(as_set).any(|ring| {
        ring.iter()
            .any(|&x| g.six_rings(x).iter().map(as_set).any(|other| other != ring))
    })
}

#[cfg(test)]
mod tests {
    use super::dna_reactive_class;

    #[test]
    fn iarc_s_dna_reactive_classes_are_read_from_the_structure() {
        for (smiles, class) in [
            ("CCN(C)N=O", "an N-nitroso compound"),
            ("CN(CCC#N)N=O", "an N-nitroso compound"),
            (
                "C1=CC2=C3C(=C1)C=CC4=C(C=C(C(=C43)C=C2)[N+](=O)[O-])[N+](=O)[O-]",
                "a nitro-polycyclic aromatic",
            ),
            ("C1=CC=C2C(=C1)C=CC=C2N", "a polycyclic aromatic amine"),
            ("Nc1cccc2ccccc12", "a polycyclic aromatic amine"),
            ("C(CCl)N(CCCl)CCCl.Cl", "a nitrogen mustard"),
            ("COS(=O)(=O)C", "an alkyl sulfonate or sulfate ester"),
            ("CCOS(=O)(=O)C", "an alkyl sulfonate or sulfate ester"),
            (
                "CS(=O)(=O)OCCCCOS(=O)(=O)C",
                "an alkyl sulfonate or sulfate ester",
            ),
            ("C1COS(=O)(=O)C1", "an alkyl sulfonate or sulfate ester"),
            ("COS(=O)(=O)OC", "an alkyl sulfonate or sulfate ester"),
            (
                "CC(C)OS(=O)(=O)OC(C)C",
                "an alkyl sulfonate or sulfate ester",
            ),
        ] {
            assert_eq!(dna_reactive_class(smiles), Some(class), "{smiles}");
        }
    }

    #[test]
    fn single_ring_nitro_and_amino_groups_and_other_nitrogens_are_not() {
        for smiles in [
            "C1=CC=C(C(=C1)[N+](=O)[O-])Cl",
            "C1=CC(=C(C=C1Cl)N)O",
            "CC1=C(C(=CC=C1)C)N",
            "C1=CC=C(C=C1)C2=CC=C(C=C2)[N+](=O)[O-]",
            "C(CO)NCCO",
            "CN(C)C1=CC=C(C=C1)C",
            "C1=CC=C2C=C3C=CC=CC3=CC2=C1",
            "CC(=O)N",
            "C(CCl)NC",
            "N(",
            "OS(=O)(=O)O",
            "CS(=O)(=O)O",
            "C(C(F)(F)S(=O)(=O)O)(C(F)(F)F)(F)F",
            "CCCCCCCCCCCCOS(=O)(=O)[O-].[Na+]",
            "CCCCCCCCCCCCOS(=O)(=O)OCCCCCCCCCCCC",
            "CC1=CC(=O)[N-]S(=O)(=O)O1.[K+]",
            "CC1=CC=C(C=C1)S(=O)(=O)OC2=CC=CC=C2",
            "CS(=O)(=O)C",
            "CS(=O)(=O)N",
        ] {
            assert_eq!(dna_reactive_class(smiles), None, "{smiles}");
        }
    }
}
