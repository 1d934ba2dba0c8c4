"""Real answers of the service against the schemas its own OpenAPI document gives them.

Run by tests/runtime/openapi_answers.rs as `python3 openapi_answers.py BASE KEY` against the
real binary (an enterprise key, so no quota refuses). Every catalogued example request, the
public forms of the keyed endpoints, the other forms an answer takes (all contexts, several
contexts, each export type, the Postman collection), the account, watchlist and webhook calls
and a set of error answers are sent; each answer's status must be one the document lists for
that operation, and its body must validate against the schema listed for that status and
media type (JSON Schema 2020-12, which OpenAPI 3.1 uses). Prints every disagreement and exits
1 if there is any.
"""

import json
import re
import sys
import urllib.error
import urllib.request

import jsonschema
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

BASE, KEY = sys.argv[1], sys.argv[2]


def call(method, path, body=None, key=KEY):
    headers = {"Accept": "application/json"}
    if key:
        headers["X-API-Key"] = key
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(BASE + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            return res.status, res.headers.get("Content-Type", ""), res.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read()


status, _, raw = call("GET", "/api/openapi")
assert status == 200, status
doc = json.loads(raw)
registry = Registry().with_resource(
    "urn:saferef:openapi", Resource.from_contents(doc, default_specification=DRAFT202012)
)


def operation(method, path):
    """The document's operation for a concrete request: the template with the most literal
    segments that matches (/api/regulatory/agencies before /api/regulatory/{id})."""
    path = path.split("?", 1)[0]
    best = None
    for template, item in doc["paths"].items():
        if method.lower() not in item:
            continue
        pattern = "^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"
        if re.match(pattern, path):
            literal = len([s for s in template.split("/") if s and not s.startswith("{")])
            if best is None or literal > best[0]:
                best = (literal, template, item[method.lower()])
    return best


failures = []
checked = 0


def check(method, path, body=None, key=KEY):
    """Sends the request and checks its answer against the document; returns the JSON body."""
    global checked
    status, content_type, raw = call(method, path, body, key)
    label = f"{method} {path}{' (no key)' if not key else ''} -> {status}"
    found = operation(method, path)
    if found is None:
        failures.append(f"{label}: no operation in the document")
        return None
    _, template, op = found
    response = op["responses"].get(str(status))
    if response is None:
        failures.append(f"{label}: status not listed for {template} ({raw[:200]!r})")
        return None
    media = content_type.split(";")[0].strip()
    content = response.get("content", {})
    if media not in content:
        if content or raw:
            failures.append(f"{label}: {media or 'no Content-Type'} not listed ({list(content)})")
        return None
    checked += 1
    if media != "application/json":
        return None
    value = json.loads(raw)
    schema = dict(content[media]["schema"])
    if "$ref" in schema:
        schema = {"$ref": "urn:saferef:openapi" + schema["$ref"]}
    validator = jsonschema.Draft202012Validator(
        schema, registry=registry, format_checker=jsonschema.FormatChecker()
    )
    for error in sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))[:5]:
        where = "/".join(str(p) for p in error.absolute_path)
        failures.append(f"{label}: at /{where}: {error.message[:300]}")
    return value


# Every catalogued example request.
for template, item in doc["paths"].items():
    for method, op in item.items():
        example = op.get("x-example-request")
        if example and method == "get":
            check("GET", example)

compound = "hq-c-org-000145"
# The forms a public caller gets, and the keyed-only lists refused to it.
for path in [
    f"/api/compound/{compound}",
    f"/api/compound/{compound}/alternatives",
    "/api/product/hq-p-bdy-000002",
    "/api/compounds?limit=3",
    "/api/search?q=benzene",
]:
    check("GET", path, key=None)

# The other forms an answer takes.
listed = check("GET", "/api/compounds?limit=100&offset=100") or {}
for c in (listed.get("compounds") or [])[:25]:
    check("GET", f"/api/compound/{c['hq_id']}")
    check("GET", f"/api/compound/{c['hq_id']}?all_contexts=true")
    check("GET", f"/api/compound/{c['hq_id']}/raw")
    check("GET", f"/api/compound/{c['hq_id']}/alternatives")
    check("GET", f"/api/regulatory/{c['hq_id']}")
    check("GET", f"/api/found-in/{c['hq_id']}")
    check("GET", f"/api/relationships/{c['hq_id']}/graph?depth=2")
for path in [
    f"/api/compound/{compound}?context=dog",
    f"/api/compound/{compound}?context=pollinator",
    "/api/compound/cas/50-00-0",
    f"/api/compounds/compare?ids={compound},hq-c-org-000001&contexts=human_child,dog",
    f"/api/compounds/compare?ids={compound},hq-c-org-000001,80-05-7",
    f"/api/compounds/batch?ids={compound},71-43-2,nonsense&detail=full",
    "/api/search?q=bisphenol&limit=5&offset=5",
    "/api/lookup?q=benzen",
    "/api/regulatory-status?analyte=lead&jurisdiction=US",
    "/api/regulatory-status?analyte=71-43-2",
    "/api/export?type=compounds&format=json&limit=20",
    "/api/export?type=materials&format=json&detail=full&limit=20",
    "/api/export?type=products&format=json&limit=20",
    "/api/materials?limit=100&offset=200",
    "/api/products?limit=100&offset=400",
    "/api/product/hq-p-bdy-000001/raw",
    "/api/relationships/hq-m-adh-000001",
    "/api/relationships/hq-p-bdy-000001/graph?depth=3",
    "/api/relationships/stats",
    "/api/changelog?limit=100&offset=100",
    "/api/health?check=integrity",
    "/api/openapi?format=postman",
    "/api/release-notes?format=json",
    "/api/keys/status",
    "/api/keys/usage?days=3",
]:
    check("GET", path)
check("POST", "/api/compounds/batch", {"ids": [compound, "71-43-2"], "context": "human_child"})
check("POST", "/api/compounds/batch", {"compounds": [compound], "synthesize": True})

# Accounts (the first step of each mailed flow), the watchlist and the webhooks.
check("POST", "/api/keys/trial", {"email": "integrator@example.org"}, key=None)
check("POST", "/api/keys/resend", {"email": "integrator@example.org"}, key=None)
check("POST", "/api/keys/recover", {"email": "integrator@example.org"}, key=None)
check("POST", "/api/keys/recover", {"email": "integrator@example.org", "code": "000000"}, key=None)
check("POST", "/api/keys/erasure", {"email": "integrator@example.org"}, key=None)
check("POST", "/api/watchlist", {"compounds": [compound, "hq-c-org-000001"]})
check("GET", "/api/watchlist")
check("POST", "/api/watchlist/check", {"compounds": [compound, "80-05-7", "nonsense"]})
check("DELETE", f"/api/watchlist/{compound}")
hook = check("POST", "/api/webhooks", {"url": "http://127.0.0.1:9/saferef"}) or {}
check("GET", "/api/webhooks")
if hook.get("id"):
    check("GET", f"/api/webhooks?action=deliveries&webhook_id={hook['id']}")
    check("POST", f"/api/webhooks/test/{hook['id']}")
    check("DELETE", f"/api/webhooks/{hook['id']}")

# Error answers: each must be a listed status with the Error schema (or a gray badge).
for method, path, body, key in [
    ("GET", "/api/compound/hq-c-org-999999", None, KEY),
    ("GET", "/api/compound/not-an-id", None, KEY),
    ("GET", f"/api/compound/{compound}?context=horse", None, KEY),
    ("GET", "/api/compounds?limit=0", None, KEY),
    ("GET", "/api/compounds?page=2&offset=5", None, KEY),
    ("GET", "/api/search?q=x", None, KEY),
    ("GET", "/api/regulatory-status?matrix=baby%20food", None, KEY),
    ("GET", "/api/keys/status", None, "sr_live_not_a_key_at_all_000000000"),
    ("GET", "/api/watchlist", None, None),
    ("POST", "/api/compounds/batch", {"compounds": []}, KEY),
    ("POST", "/api/billing/webhook", {"id": "evt_1", "type": "x", "data": {"object": {}}}, None),
    ("GET", "/api/badge/hq-c-org-999999", None, None),
    ("DELETE", "/api/webhooks/wh_missing", None, KEY),
]:
    check(method, path, body, key)

# Last: rotation replaces the key this run uses.
check("POST", "/api/keys/rotate")

print(f"{checked} answers checked against the document")
for f in failures:
    print("MISMATCH", f)
sys.exit(1 if failures or checked < 100 else 0)
