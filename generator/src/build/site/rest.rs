//! The rest of the tree: the routes of no entity, `_redirects` and `_headers` (rendered from
//! every route's routing entry) and the dataset snapshot, with where each record is in it.

use super::last_build::{Frame, record_file};
use super::plan::{Kind, Known, Plan, Previous};
use super::routes::{self, RouteMeta};
use super::state::{self, Group, Hash};
use super::{BuildOptions, GENERATOR_IDENTITY, key, netlify, write_files};
use crate::build::output::Staged;
use crate::model::Dataset;

/// The rest's routes and the dataset snapshot (with its frames' compressed lengths), unless
/// the previous build's rest is reused. Of the snapshot, only the frames whose key is not the
/// previous snapshot's are compressed.
pub(super) fn render_rest(
    dataset: &Dataset,
    plan: &Plan<'_>,
) -> anyhow::Result<Option<RenderedRest>> {
    if plan.rest_reused.is_some() {
        return Ok(None);
    }
    let (routes, snapshot) = rayon::join(
        || routes::rest_routes(dataset),
        || crate::load::snapshot::encode_frames(&plan.parts, |i| plan.frames[i].1),
    );
    let (snapshot, lens) = snapshot?;
    Ok(Some((routes, snapshot, lens)))
}

/// The rest's routes, the snapshot and its frames' compressed lengths.
pub(super) type RenderedRest = (Vec<routes::Route>, Vec<u8>, Vec<u64>);

/// The rest as a build leaves it: its group, its `_redirects` rule count, the key of the
/// routing files (`State::routing`) and the snapshot's frames.
pub(super) struct Rest<'a> {
    pub(super) group: Group<'a>,
    pub(super) redirect_rules: usize,
    pub(super) routing: Hash,
    pub(super) frames: Vec<Frame>,
}

/// The key of `_redirects` and `_headers`: what they are rendered from (every group's routing
/// entries, in order, the rest's, the runtime origin, whether there are materials or
/// products: `routes::every_id_has`, and the retired ids' forwards), and the generator.
fn routing_key(
    dataset: &Dataset,
    opts: &BuildOptions,
    plan: &Plan<'_>,
    groups: &[Group<'_>],
    rest: &[RouteMeta],
) -> Hash {
    let rest = state::encode_routes(rest);
    let forwards: String = crate::render::moved::forwards(dataset)
        .into_iter()
        .map(|(from, to)| format!("{from} {to}\n"))
        .collect();
    let flags = [
        u8::from(opts.runtime_origin.is_some()),
        u8::from(dataset.materials.is_empty()),
        u8::from(dataset.products.is_empty()),
    ];
    let mut inputs: Vec<&[u8]> = vec![
        GENERATOR_IDENTITY.as_bytes(),
        opts.runtime_origin.as_deref().unwrap_or("").as_bytes(),
        &flags,
        forwards.as_bytes(),
    ];
    for ((id, kind), group) in plan.entities.iter().zip(groups) {
        inputs.push(id.as_bytes());
        inputs.push(match kind {
            Kind::Compound => b"c",
            Kind::Material => b"m",
            Kind::Product => b"p",
        });
        inputs.push(&group.routes);
    }
    inputs.push(&rest);
    key(&inputs)
}

/// Stages the rest: its routes, `_redirects` and `_headers` (from every route, in the route
/// table's order: `routes::routes`; the previous build's when their key is unchanged), and the
/// snapshot. The rest, how many files were written and their paths.
pub(super) fn write_rest(
    dataset: &Dataset,
    opts: &BuildOptions,
    plan: &Plan<'_>,
    staged: &Staged,
    groups: &[Group<'_>],
    (routes, snapshot, lens): RenderedRest,
) -> anyhow::Result<(Rest<'static>, usize, Vec<String>)> {
    let entries = netlify::routing_entries(&routes)?;
    let routing = routing_key(dataset, opts, plan, groups, &entries);
    let known = match &plan.previous {
        Previous::State(s) => plan.known(Some(&s.rest))?,
        Previous::Manifest(_) => plan.known(None)?,
    };
    let (mut files, mut written) = write_files(
        staged,
        0,
        routes.into_iter().map(|r| (r.file, r.rendered.body)),
        &known,
    )?;
    let reused = match (&plan.previous, &known) {
        (Previous::State(s), Known::Files(before)) if s.routing == routing => {
            let find = |path: &str| before.iter().find(|f| f.path == path).cloned();
            find(REDIRECTS)
                .zip(find(HEADERS))
                .map(|(r, h)| ([r, h], s.redirect_rules))
        }
        _ => None,
    };
    let redirect_rules = match reused {
        // The same entries render the same files, which the tree holds.
        Some((entries, rules)) => {
            files.extend(entries);
            rules
        }
        None => {
            let (redirects, headers, rules) = routing_files(dataset, opts, plan, groups, entries)?;
            let routing_files = [
                (REDIRECTS.to_string(), redirects.into_bytes()),
                (HEADERS.to_string(), headers.into_bytes()),
            ];
            let (entries, w) = write_files(staged, files.len(), routing_files.into_iter(), &known)?;
            files.extend(entries);
            written += w;
            rules
        }
    };
    let snapshot = [(crate::load::snapshot::PATH.to_string(), snapshot)];
    let (entries, w) = write_files(staged, files.len(), snapshot.into_iter(), &known)?;
    files.extend(entries);
    written += w;
    let paths = files.iter().map(|f| f.path.clone()).collect();
    let rest = Rest {
        group: Group::new(plan.rest_key, &files, &[]),
        redirect_rules,
        routing,
        frames: plan.frames.iter().map(|(k, _)| *k).zip(lens).collect(),
    };
    Ok((rest, written, paths))
}

/// The routing files' places in the tree.
const REDIRECTS: &str = "_redirects";

const HEADERS: &str = "_headers";

/// `_redirects`, `_headers` and the number of redirect rules, from every group's routing
/// entries and the rest's (`entries`).
fn routing_files(
    dataset: &Dataset,
    opts: &BuildOptions,
    plan: &Plan<'_>,
    groups: &[Group<'_>],
    entries: Vec<RouteMeta>,
) -> anyhow::Result<(String, String, usize)> {
    let decoded = groups
        .iter()
        .map(Group::route_entries)
        .collect::<anyhow::Result<Vec<_>>>()?;
    let compounds = plan
        .entities
        .iter()
        .take_while(|(_, kind)| *kind == Kind::Compound)
        .count();
    let (compound_entries, entity_entries) = decoded.split_at(compounds);
    // Route order: every compound's own routes, then the CAS lookups, then the materials' and
    // products', then the rest.
    let mut all: Vec<RouteMeta> = Vec::new();
    for cas in [false, true] {
        all.extend(
            compound_entries
                .iter()
                .flatten()
                .filter(|r| (r.pattern == routes::CAS_PATTERN) == cas)
                .cloned(),
        );
    }
    all.extend(routes::entity_order(entity_entries, |r| r.pattern));
    all.extend(entries);
    let (redirects, rules) = netlify::redirects(&all, dataset, opts.runtime_origin.as_deref());
    Ok((redirects, netlify::headers(&all), rules))
}

/// Where each compound file's record is in the snapshot of the tree (`rest` lists its hash).
pub(super) fn records(
    dataset: &Dataset,
    parts: &crate::load::snapshot::Parts<'_>,
    rest: &Group<'_>,
    frames: Vec<Frame>,
) -> anyhow::Result<state::Records> {
    let ranges = crate::load::snapshot::record_ranges(parts)?;
    let files = parts
        .compounds
        .iter()
        .zip(ranges)
        .filter_map(|((id, _), range)| {
            let (file, digest) = record_file(dataset, id)?;
            let entry = state::RecordEntry {
                digest: *digest,
                start: range.start as u64,
                len: range.len() as u64,
                stamp: dataset.stamps.get(id).copied(),
            };
            Some((file.to_string(), entry))
        })
        .collect();
    Ok(state::Records {
        identity: GENERATOR_IDENTITY.to_string(),
        records_key: dataset.records_key,
        checks_key: dataset.checks_key,
        snapshot: rest
            .file_entries()?
            .into_iter()
            .find(|f| f.path == crate::load::snapshot::PATH)
            .map(|f| f.sha256)
            .unwrap_or_default(),
        files,
        frames,
    })
}
