//! Whether a record's structure is a phenol: a hydroxyl group on a benzene ring, read from
//! its SMILES. Cats glucuronidate phenols poorly (METHODOLOGY.md, "Severity rubric for
//! animals and the environment"), so the cat rule reads this. The SMILES the sources give are
//! mostly Kekulé ("OC1=CC=CC=C1"), so a carbon counts as aromatic when written lowercase or
//! when it lies in a six-carbon ring whose every atom has one double bond to a ring carbon
//! (a quinone's exocyclic C=O is not one). A phenolate salt counts as its phenol: its oxygen
//! charged (`[O-].[Na+]`) or bonded to an alkali metal (`O[Na]`), it is the phenol's anion,
//! the form in which a phenol as acidic as pentachlorophenol (pKa 4.7) circulates anyway.

/// One atom: its element (capitalised), whether written aromatic, and for a bracket atom its
/// hydrogen count and whether it is charged.
struct Atom {
    element: String,
    aromatic: bool,
    bracket: Option<(u8, bool)>,
}

/// A parsed SMILES: atoms and their bonds (order 1, 2, 3, or 0 for aromatic).
struct Graph {
    atoms: Vec<Atom>,
    bonds: Vec<Vec<(usize, u8)>>,
}

const AROMATIC: u8 = 0;

/// The organic subset written without brackets, two-letter symbols first.
const ORGANIC: [&str; 16] = [
    "Cl", "Br", "B", "C", "N", "O", "P", "S", "F", "I", "b", "c", "n", "o", "p", "s",
];

impl Graph {
    fn bond(&mut self, a: usize, b: usize, order: Option<u8>) {
        let order = order.unwrap_or(if self.atoms[a].aromatic && self.atoms[b].aromatic {
            AROMATIC
        } else {
            1
        });
        self.bonds[a].push((b, order));
        self.bonds[b].push((a, order));
    }

    fn order(&self, a: usize, b: usize) -> Option<u8> {
        self.bonds[a].iter().find(|(n, _)| *n == b).map(|(_, o)| *o)
    }

    /// Parses a SMILES; `None` for anything it does not read (no guess is made).
    fn parse(smiles: &str) -> Option<Graph> {
        let mut g = Graph {
            atoms: Vec::new(),
            bonds: Vec::new(),
        };
        let mut prev: Option<usize> = None;
        let mut branches: Vec<Option<usize>> = Vec::new();
        let mut rings: std::collections::HashMap<String, (usize, Option<u8>)> =
            std::collections::HashMap::new();
        let mut pending: Option<u8> = None;
        let mut rest = smiles;
        while let Some(c) = rest.chars().next() {
            let mut step = c.len_utf8();
            match c {
                '(' => branches.push(prev),
                ')' => prev = branches.pop()?,
                '-' | '/' | '\\' => pending = Some(1),
                '=' => pending = Some(2),
                '#' => pending = Some(3),
                ':' => pending = Some(AROMATIC),
                '.' => {
                    prev = None;
                    pending = None;
                }
                '0'..='9' | '%' => {
                    let label = if c == '%' {
                        step = 3;
                        rest.get(1..3)?.to_string()
                    } else {
                        c.to_string()
                    };
                    let here = prev?;
                    match rings.remove(&label) {
                        Some((other, order)) => g.bond(other, here, pending.or(order)),
                        None => {
                            rings.insert(label, (here, pending));
                        }
                    }
                    pending = None;
                }
                '[' => {
                    let end = rest.find(']')?;
                    let body = &rest[1..end];
                    step = end + 1;
                    let body = body.trim_start_matches(|c: char| c.is_ascii_digit());
                    if !body.is_ascii() {
                        return None;
                    }
                    let mut chars = body.chars();
                    let two_letters = chars.next().is_some_and(|c| c.is_ascii_uppercase())
                        && chars.next().is_some_and(|c| c.is_ascii_lowercase());
                    let symbol_len = if two_letters { 2 } else { 1 };
                    let (symbol, tail) = body.split_at(symbol_len.min(body.len()));
                    let hydrogens = match tail.find('H') {
                        Some(h) => tail[h + 1..]
                            .chars()
                            .next()
                            .and_then(|d| d.to_digit(10))
                            .map_or(1, |d| d as u8),
                        None => 0,
                    };
                    let charged = tail.contains(['+', '-']);
                    g.push(symbol, Some((hydrogens, charged)), &mut prev, &mut pending);
                }
                _ => {
                    let symbol = ORGANIC.iter().find(|s| rest.starts_with(**s))?;
                    step = symbol.len();
                    g.push(symbol, None, &mut prev, &mut pending);
                }
            }
            rest = &rest[step..];
        }
        rings.is_empty().then_some(g)
    }

    fn push(
        &mut self,
        symbol: &str,
        bracket: Option<(u8, bool)>,
        prev: &mut Option<usize>,
        pending: &mut Option<u8>,
    ) {
        let aromatic = symbol.starts_with(|c: char| c.is_ascii_lowercase());
        let mut element = symbol.to_string();
        if let Some(first) = element.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        self.atoms.push(Atom {
            element,
            aromatic,
            bracket,
        });
        self.bonds.push(Vec::new());
        let here = self.atoms.len() - 1;
        if let Some(p) = *prev {
            self.bond(p, here, pending.take());
        }
        *pending = None;
        *prev = Some(here);
    }

    fn is_carbon(&self, a: usize) -> bool {
        self.atoms[a].element == "C"
    }

    /// The six-membered rings through `start`, as atom lists.
    fn six_rings(&self, start: usize) -> Vec<Vec<usize>> {
        let mut found = Vec::new();
        let mut path = vec![start];
        self.extend(&mut path, &mut found);
        found
    }

    fn extend(&self, path: &mut Vec<usize>, found: &mut Vec<Vec<usize>>) {
        let last = path[path.len() - 1];
        if path.len() == 6 {
            if self.order(last, path[0]).is_some() {
                found.push(path.clone());
            }
            return;
        }
        for &(next, _) in &self.bonds[last] {
            if !path.contains(&next) {
                path.push(next);
                self.extend(path, found);
                path.pop();
            }
        }
    }

    /// The one carbon `a` is double-bonded to, if it has exactly one double bond and that to
    /// a carbon.
    fn double_partner(&self, a: usize) -> Option<usize> {
        let mut doubles = self.bonds[a].iter().filter(|(_, o)| *o == 2);
        match (doubles.next(), doubles.next()) {
            (Some(&(n, _)), None) if self.is_carbon(n) => Some(n),
            _ => None,
        }
    }

    /// Whether carbon `a` is on a benzene ring, written aromatic or Kekulé.
    fn on_benzene_ring(&self, a: usize) -> bool {
        if !self.is_carbon(a) {
            return false;
        }
        if self.atoms[a].aromatic {
            return true;
        }
        self.six_rings(a).iter().any(|ring| {
            ring.iter().all(|&x| {
                self.is_carbon(x)
                    && self
                        .double_partner(x)
                        .is_some_and(|p| ring.contains(&p) || !self.six_rings(p).is_empty())
            })
        })
    }
}

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
