"""A client generated from the service's OpenAPI document, run against the real binary.

Run by tests/runtime/generated_client.rs as `python generated_client.py BASE KEY DIR`, where DIR
holds the package `saferef_client` that openapi-python-client (PyPI) generated from the
served document. The client raises on a status the document does not list, and its models
raise on a missing required field or an enum value the document does not name; the calls
below also check the types of the fields they read. Exits non-zero on the first disagreement.
"""

import datetime
import sys
from enum import Enum

BASE, KEY, DIR = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, DIR)

from saferef_client import AuthenticatedClient  # noqa: E402
from saferef_client.api.badges import badge  # noqa: E402
from saferef_client.api.compounds import (  # noqa: E402
    batch,
    batch_post,
    compare,
    compound,
    compound_by_cas,
    compounds,
)
from saferef_client.api.materials_and_products import materials, products  # noqa: E402
from saferef_client.api.regulatory import (  # noqa: E402
    regulatory_status,
    regulatory_status_vocabulary,
)
from saferef_client.api.search import lookup, search  # noqa: E402
from saferef_client.api.service import health  # noqa: E402
from saferef_client.models import (  # noqa: E402
    Batch,
    Compare,
    Compound,
    CompoundList,
    CompoundRiskLevel,
    CompoundSummary,
    Error,
    Health,
    Lookup,
    MaterialList,
    ProductList,
    RegulatoryStatus,
    RegulatoryStatusVocabulary,
    Search,
)
from saferef_client.models.compound_all_contexts import CompoundAllContexts  # noqa: E402
from saferef_client.models.compound_context import CompoundContext  # noqa: E402
from saferef_client.types import Unset  # noqa: E402

client = AuthenticatedClient(
    base_url=BASE,
    token=KEY,
    prefix="",
    auth_header_name="X-API-Key",
    raise_on_unexpected_status=True,
)
BENZENE = "hq-c-org-000145"
calls = 0


def parsed(response, model):
    """The typed answer of a 2xx, or the failure."""
    global calls
    calls += 1
    assert 200 <= response.status_code < 300, (response.status_code, response.content[:300])
    assert isinstance(response.parsed, model), (model, type(response.parsed))
    return response.parsed


def error(response, status, code):
    """A documented error answer with its code."""
    global calls
    calls += 1
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert isinstance(response.parsed, Error), type(response.parsed)
    assert response.parsed.code.value == code, response.parsed.code
    assert isinstance(response.parsed.error, str) and response.parsed.error


def paged(answer, limit, offset):
    p = answer.pagination
    assert (p.limit, p.offset) == (limit, offset), p
    assert p.page == offset // limit + 1 and isinstance(p.has_more, bool)
    return p


# Compound: the typed risk level the issue found unreadable.
c = parsed(compound.sync_detailed(BENZENE, client=client, context=CompoundContext.HUMAN_CHILD), Compound)
assert c.hq_id == BENZENE and c.cas == "71-43-2" and c.context == "human_child", c
assert c.risk_level == CompoundRiskLevel.VERY_HIGH, c.risk_level
assert c.risk_profile.confidence.mean > 0 and c.evidence, c.risk_profile
assert all(isinstance(e.finding, str) and isinstance(e.decisive, bool) for e in c.evidence)
# Closed sets are enums, dates are dates: a context name, the rule of each item.
assert isinstance(c.context, Enum) and isinstance(c.primary_context, Enum), c.context
assert all(isinstance(x, Enum) for x in c.available_contexts), c.available_contexts
assert "human_child" in {x.value for x in c.available_contexts}, c.available_contexts
assert all(isinstance(e.rule, Enum) for e in c.evidence), [e.rule for e in c.evidence]
dated = parsed(compound.sync_detailed(BENZENE, client=client, as_of=datetime.date(2020, 1, 1)), Compound)
assert dated.as_of == datetime.date(2020, 1, 1), dated.as_of
assert c.field_links.page == f"/compound/{BENZENE}", c.field_links
every = parsed(
    compound.sync_detailed(BENZENE, client=client, all_contexts=CompoundAllContexts.TRUE), Compound
)
assert isinstance(every.risk_level, Unset) and "dog" not in every.contexts.additional_properties
assert every.contexts["human_adult"].risk_level.value == "very_high", every.contexts
by_cas = parsed(compound_by_cas.sync_detailed("71-43-2", client=client), CompoundSummary)
assert by_cas.hq_id == BENZENE and by_cas.compound_url.endswith(BENZENE), by_cas

# Search and lookup.
s = parsed(search.sync_detailed(client=client, q="bisphenol", limit=5), Search)
assert s.results and all(isinstance(r.score, int) for r in s.results), s
paged(s, 5, 0)
s2 = parsed(search.sync_detailed(client=client, q="bisphenol", limit=5, offset=5), Search)
paged(s2, 5, 5)
assert {r.id for r in s.results}.isdisjoint({r.id for r in s2.results}), "offset advances"
found = parsed(lookup.sync_detailed(client=client, q="Benzene"), Lookup)
assert found.results[0].id == BENZENE and found.results[0].kind.value == "compound", found

# Batch, by GET and by POST under both body names.
b = parsed(batch.sync_detailed(client=client, ids=f"{BENZENE},80-05-7,nonsense"), Batch)
assert b.meta.requested == 3 and b.meta.found == 2 and b.meta.cas_resolved == 1, b.meta
assert isinstance(b.meta.detail, Enum) and b.meta.detail.value == "summary", b.meta.detail
results = b.results.additional_properties
assert results[BENZENE].risk_level == "very_high" and results["nonsense"].error, results
for body in ({"ids": [BENZENE, "71-43-2"]}, {"compounds": [BENZENE], "context": "human_child"}):
    bp = parsed(batch_post.sync_detailed(client=client, body=body), Batch)
    assert bp.meta.found >= 1, bp.meta

# Compare.
cmp = parsed(compare.sync_detailed(client=client, ids=f"{BENZENE},hq-c-org-000001"), Compare)
assert [x.hq_id for x in cmp.comparison.compounds] == [BENZENE, "hq-c-org-000001"], cmp
assert cmp.meta.compared == 2, cmp.meta

# Regulatory status and its vocabulary.
rs = parsed(regulatory_status.sync_detailed(client=client, analyte="lead"), RegulatoryStatus)
assert rs.count == len(rs.results) > 0 and isinstance(rs.dataset_version, str), rs.count
assert isinstance(rs.as_of, datetime.date), rs.as_of
for cell in rs.results:
    assert cell.legal_status is None or isinstance(cell.legal_status, Enum), cell.legal_status
    for v in cell.governance_timeline:
        assert isinstance(v.status, Enum) and isinstance(v.confidence, Enum), v
        assert v.effective_from is None or isinstance(v.effective_from, datetime.date), v
vocab = parsed(regulatory_status_vocabulary.sync_detailed(client=client), RegulatoryStatusVocabulary)
assert any(a.id == "lead" for a in vocab.analytes), "lead is an analyte"
error(regulatory_status.sync_detailed(client=client, matrix="baby food"), 400, "bad_request")

# Lists paged by limit and offset.
first = parsed(compounds.sync_detailed(client=client, limit=10), CompoundList)
second = parsed(compounds.sync_detailed(client=client, limit=10, offset=10), CompoundList)
paged(first, 10, 0)
paged(second, 10, 10)
assert first.compounds[0].hq_id != second.compounds[0].hq_id, "offset advances"
paged(parsed(materials.sync_detailed(client=client, limit=3, offset=3), MaterialList), 3, 3)
paged(parsed(products.sync_detailed(client=client, limit=3, page=2), ProductList), 3, 3)

# Service health.
h = parsed(health.sync_detailed(client=client), Health)
assert h.status == "ok" and isinstance(h.version, str), h
assert isinstance(h.status, Enum) and isinstance(h.timestamp, datetime.datetime), h

# Errors: each a documented status with its code.
error(compound.sync_detailed("hq-c-org-999999", client=client), 404, "not_found")
error(compound.sync_detailed("benzene", client=client), 400, "bad_request")
error(compounds.sync_detailed(client=client, limit=10, offset=5, page=2), 400, "bad_request")
stranger = AuthenticatedClient(
    base_url=BASE, token="sr_live_0000000000000000000000000000000", prefix="",
    auth_header_name="X-API-Key", raise_on_unexpected_status=True,
)
error(compounds.sync_detailed(client=stranger, limit=1), 401, "unauthorized")

# Badges: SVG answers, which the generator leaves unparsed; the statuses are the document's.
raw = AuthenticatedClient(base_url=BASE, token=KEY, prefix="", auth_header_name="X-API-Key")
ok = badge.sync_detailed(BENZENE, client=raw)
missing = badge.sync_detailed("hq-c-org-999999", client=raw)
calls += 2
assert ok.status_code == 200 and ok.content.startswith(b"<svg"), ok.status_code
assert missing.status_code == 404 and missing.content.startswith(b"<svg"), missing.status_code

print(f"generated client: {calls} calls agree with the document")
