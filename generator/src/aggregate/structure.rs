//! A SMILES read into a graph of atoms and bonds, enough to recognise a few groups (a phenol's
//! hydroxyl, the DNA-reactive groups of `dna_reactive.rs`). The SMILES the sources give are
//! mostly Kekulé ("OC1=CC=CC=C1"), so a carbon counts as aromatic when written lowercase or
//! when it lies in a six-carbon ring whose every atom has one double bond to a ring carbon
//! (a quinone's exocyclic C=O is not one).

/// One atom: its element (capitalised), whether written aromatic, and for a bracket atom its
/// hydrogen count and whether it is charged.
pub(super) struct Atom {
    pub(super) element: String,
    pub(super) aromatic: bool,
    pub(super) bracket: Option<(u8, bool)>,
}

/// A parsed SMILES: atoms and their bonds (order 1, 2, 3, or 0 for aromatic).
pub(super) struct Graph {
    pub(super) atoms: Vec<Atom>,
    pub(super) bonds: Vec<Vec<(usize, u8)>>,
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

    pub(super) fn order(&self, a: usize, b: usize) -> Option<u8> {
        self.bonds[a].iter().find(|(n, _)| *n == b).map(|(_, o)| *o)
    }

    /// Parses a SMILES; `None` for anything it does not read (no guess is made).
    pub(super) fn parse(smiles: &str) -> Option<Graph> {
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

    pub(super) fn is_carbon(&self, a: usize) -> bool {
        self.atoms[a].element == "C"
    }

    /// The six-membered rings through `start`, as atom lists.
    pub(super) fn six_rings(&self, start: usize) -> Vec<Vec<usize>> {
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
    pub(super) fn on_benzene_ring(&self, a: usize) -> bool {
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
