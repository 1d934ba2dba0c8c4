"""Every method of the published Python client aletheia-safety 0.9.0 (PyPI), called as an
integrator would against a running saferef-serve, each answer checked for what the client's
docstring promises. Run by tests/runtime/published_client.rs:

    python published_client.py BASE_URL DEVELOPER_KEY STATE_DIR

BASE_URL is the service's origin; the client is given BASE_URL + "/api", as its own default
ends in /api. STATE_DIR is the server's --state, whose outbox/ holds the mail it sends. Every
failure is reported, not only the first; the exit status is 1 when any call failed.
"""

import glob
import http.server
import json
import os
import sys
import threading
import time
import urllib.request

import aletheia_safety
from aletheia_safety import Aletheia, AletheiaError

BASE, KEY, STATE = sys.argv[1], sys.argv[2], sys.argv[3]
API = BASE + "/api"
failures = []
called = set()


def check(name, condition, detail):
    called.add(name)
    if not condition:
        failures.append(f"{name}: {detail}")


def call(name, fn, *args, **kwargs):
    """The client method's answer, or None with the failure recorded."""
    called.add(name)
    try:
        return fn(*args, **kwargs)
    except AletheiaError as e:
        failures.append(f"{name}{args!r}: {e}")
    except Exception as e:  # a client that cannot read our answer is a failure too
        failures.append(f"{name}{args!r}: {type(e).__name__}: {e}")
    return None


def outbox():
    files = sorted(glob.glob(os.path.join(STATE, "outbox", "*.eml")))
    return [open(f, encoding="utf-8").read() for f in files]


def new_mail(before):
    deadline = time.time() + 10
    while time.time() < deadline:
        mail = outbox()
        if len(mail) > before:
            return mail[before]
        time.sleep(0.05)
    return ""


def subject(mail):
    return next((l for l in mail.splitlines() if l.startswith("Subject:")), "")


def entity_id(item):
    """An entity's id: `hq_id`, or `id` where a response still names it only so."""
    return item.get("hq_id") or item.get("id")


def ids_of(listing, field):
    return [entity_id(item) for item in listing.get(field, [])]


def advances(name, method, field, **kwargs):
    """A paging loop with the client's limit and offset moves on: offset=3 answers the 4th to
    6th items of the list, not the first page again, and says so in `pagination`."""
    six = ids_of(call(name, method, limit=6, offset=0, **kwargs) or {}, field)
    later = call(name, method, limit=3, offset=3, **kwargs) or {}
    check(name, len(six) == 6, f"limit=6: {six}")
    check(name, ids_of(later, field) == six[3:], f"offset=3 of {six}: {ids_of(later, field)}")
    where = later.get("pagination", {})
    check(name, (where.get("offset"), where.get("page")) == (3, 2), f"pagination {where}")


# Contexts, search and relationships need a Developer key here; the client's docstrings
# name no tier for them, so they are called with the key.
client = Aletheia(api_key=KEY, base_url=API)
public = Aletheia(base_url=API)

# ── Service ──────────────────────────────────────────────────────────────
health = call("health", client.health)
check("health", bool(health) and health.get("status") == "ok", health)
contexts = call("contexts", client.contexts)
check("contexts", contexts is not None and "human_adult" in json.dumps(contexts), contexts)

# ── Compounds ───────────────────────────────────────────────────────────
first = call("compounds", client.compounds, limit=5, offset=0) or {}
compound_ids = ids_of(first, "compounds")
check("compounds", len(compound_ids) == 5, first)
found = call("compounds", client.compounds, limit=5, search="benzene") or {}
check("compounds", len(ids_of(found, "compounds")) > 0, f"search=benzene: {found}")

some = compound_ids[0] if compound_ids else "hq-c-ino-000001"
record = call("compound", public.compound, some) or {}
check("compound", entity_id(record) == some, record)
child = call("compound", public.compound, some, context="human_child") or {}
check("compound", entity_id(child) == some, child)
cas = record.get("cas") or ""
by_cas = call("compound_by_cas", public.compound_by_cas, cas) or {}
check("compound_by_cas", entity_id(by_cas) == some, by_cas)
raw = call("compound_raw", client.compound_raw, some) or {}
check("compound_raw", raw.get("cas") == cas, raw)
alternatives = call("alternatives", public.alternatives, some)
check("alternatives", isinstance(alternatives, dict), alternatives)

# Batch: GET up to 10 ids; the client POSTs {"ids": [...]} above 10 or when asked.
many = (call("compounds", client.compounds, limit=15) or {})
many_ids = ids_of(many, "compounds")
small = call("batch", client.batch, many_ids[:3], context="human_adult") or {}
check("batch", len(small.get("results", {})) == 3, f"GET: {small}")
large = call("batch", client.batch, many_ids, context="human_adult") or {}
check("batch", len(large.get("results", {})) == 15, f"POST of 15: {large}")
posted = call("batch", client.batch, many_ids[:2], method="POST", synthesize=True) or {}
check("batch", len(posted.get("results", {})) == 2, f"POST synthesize: {posted}")
detailed = call("batch", client.batch, many_ids[:2], synthesize=True, detail="full") or {}
check("batch", len(detailed.get("results", {})) == 2, f"GET synthesize=True: {detailed}")

comparison = call("compare", client.compare, many_ids[:2], context="human_adult") or {}
check("compare", comparison.get("meta", {}).get("compared") == 2, comparison)

# ── Search & filter ─────────────────────────────────────────────────────
hits = call("search", client.search, "lead", type="compound", limit=3) or {}
later = call("search", client.search, "lead", type="compound", limit=3, offset=3) or {}
check("search", len(hits.get("results", [])) == 3, hits)
check(
    "search",
    [r.get("id") for r in hits.get("results", [])]
    != [r.get("id") for r in later.get("results", [])],
    "offset=3 answers the first page again",
)
high = call("filter", client.filter, risk="high", context="human_adult", limit=5) or {}
check("filter", len(high.get("compounds", [])) > 0, high)
advances("compounds", client.compounds, "compounds")
advances("filter", client.filter, "compounds", risk="high", context="human_adult")

# ── Relationships ───────────────────────────────────────────────────────
rel = call("relationships", client.relationships, some)
check("relationships", isinstance(rel, dict), rel)
graph = call("graph", client.graph, some, depth=2) or {}
check("graph", len(graph.get("graph", {}).get("nodes", [])) > 1, graph)
stats = call("relationship_stats", client.relationship_stats)
check("relationship_stats", isinstance(stats, dict), stats)

# ── Regulatory ──────────────────────────────────────────────────────────
regulatory = call("regulatory", client.regulatory, some)
check("regulatory", isinstance(regulatory, dict), regulatory)
agencies = call("regulatory_agencies", client.regulatory_agencies) or {}
agency_names = [a.get("name") for a in agencies.get("agencies", [])]
check("regulatory_agencies", "IARC" in agency_names, agencies)
by_agency = call("regulatory_by_agency", client.regulatory_by_agency, "IARC") or {}
check("regulatory_by_agency", len(by_agency.get("results", [])) > 0, by_agency)

# ── Found in ────────────────────────────────────────────────────────────
found_in = call("found_in", client.found_in, some)
check("found_in", isinstance(found_in, dict), found_in)
categories = call("found_in_categories", client.found_in_categories) or {}
category_list = categories.get("categories", [])
check("found_in_categories", len(category_list) > 0, categories)
name = category_list[0]["category"] if category_list else "Food"
in_category = call("found_in_by_category", client.found_in_by_category, name) or {}
check("found_in_by_category", len(in_category.get("results", [])) > 0, in_category)

# ── Materials & products ────────────────────────────────────────────────
materials = call("materials", client.materials, limit=3) or {}
material_ids = ids_of(materials, "materials")
check("materials", len(material_ids) == 3, materials)
material = call("material", public.material, material_ids[0] if material_ids else "x") or {}
check("material", entity_id(material) == (material_ids or [None])[0], material)
products = call("products", client.products, limit=3) or {}
product_ids = ids_of(products, "products")
check("products", len(product_ids) == 3, products)
pid = product_ids[0] if product_ids else "x"
product = call("product", public.product, pid) or {}
check("product", entity_id(product) == pid, product)
product_raw = call("product_raw", client.product_raw, pid) or {}
check("product_raw", isinstance(product_raw, dict) and bool(product_raw), product_raw)
advances("materials", client.materials, "materials")
advances("products", client.products, "products")

# ── Fragrance ───────────────────────────────────────────────────────────
page1 = call("fragrance", client.fragrance, limit=5) or {}
page2 = call("fragrance", client.fragrance, limit=5, offset=5) or {}
check("fragrance", len(page1.get("ingredients", [])) == 5, page1)
check("fragrance", page1.get("ingredients") != page2.get("ingredients"), "offset=5 repeats page 1")
classes = call("fragrance_classes", client.fragrance_classes)
check("fragrance_classes", isinstance(classes, dict), classes)
linalool = call("fragrance_search", client.fragrance_search, "linalool") or {}
check("fragrance_search", linalool.get("results", [{}])[0].get("cas") == "78-70-6", linalool)

# ── Badge ───────────────────────────────────────────────────────────────
badge = client.badge_url(some)
called.add("badge_url")
try:
    with urllib.request.urlopen(badge, timeout=30) as resp:
        check("badge_url", resp.headers["Content-Type"].startswith("image/svg+xml"), badge)
except Exception as e:
    failures.append(f"badge_url: GET {badge}: {e}")

# ── Export ──────────────────────────────────────────────────────────────
export = call("export", client.export, type="compounds", format="json", risk="high", context="human_adult")
check("export", export is not None, export)

# ── Watchlist ───────────────────────────────────────────────────────────
added = call("watchlist_add", client.watchlist_add, many_ids[:3])
check("watchlist_add", isinstance(added, dict), added)
single = call("watchlist_add", client.watchlist_add, many_ids[3])
check("watchlist_add", isinstance(single, dict), single)
watched = call("watchlist", client.watchlist, limit=2) or {}
rest = call("watchlist", client.watchlist, limit=2, offset=2) or {}
check("watchlist", len(ids_of(watched, "watchlist")) == 2, watched)
check(
    "watchlist",
    len(ids_of(rest, "watchlist")) == 2
    and not set(ids_of(rest, "watchlist")) & set(ids_of(watched, "watchlist")),
    f"offset=2 of 4: {rest}",
)
on = call("watchlist_check", client.watchlist_check, [many_ids[0], many_ids[9]]) or {}
check("watchlist_check", "on_watchlist" in json.dumps(on), on)
removed = call("watchlist_remove", client.watchlist_remove, many_ids[0])
check("watchlist_remove", isinstance(removed, dict), removed)

# ── Changelog ───────────────────────────────────────────────────────────
changes = call("changelog", client.changelog, since="2020-01-01", limit=5)
check("changelog", isinstance(changes, dict), changes)
summary = call("changelog", client.changelog, summary=True)
check("changelog", isinstance(summary, dict), summary)


# ── Webhooks: a loopback receiver, verified with the client's own check ──
class Receiver(http.server.BaseHTTPRequestHandler):
    received = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Receiver.received.append((dict(self.headers), body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


receiver = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
threading.Thread(target=receiver.serve_forever, daemon=True).start()
hook_url = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
secret = "whsec_published_client_0001"
hook = call(
    "webhook_register",
    client.webhook_register,
    hook_url,
    events=["compound.updated"],
    compounds=many_ids[:2],
    signing_secret=secret,
) or {}
hook_id = hook.get("id") or hook.get("webhook", {}).get("id") or "wh_missing"
check("webhook_register", hook_id.startswith("wh_"), hook)
hooks = call("webhook_list", client.webhook_list) or {}
check("webhook_list", hook_id in json.dumps(hooks), hooks)
tested = call("webhook_test", client.webhook_test, hook_id)
check("webhook_test", isinstance(tested, dict), tested)
deadline = time.time() + 15
while not Receiver.received and time.time() < deadline:
    time.sleep(0.05)
check("webhook_test", bool(Receiver.received), "no delivery reached the receiver")
if Receiver.received:
    headers, body = Receiver.received[0]
    signature = next(
        (v for k, v in headers.items() if k.lower().endswith("-signature")), None
    )
    verified = call("verify_webhook_signature", Aletheia.verify_webhook_signature, body, signature, secret)
    check("verify_webhook_signature", bool(verified) and verified.get("valid") is True, verified)
deliveries = {}
while time.time() < deadline:
    deliveries = call("webhook_deliveries", client.webhook_deliveries, hook_id, offset=0, limit=5) or {}
    if deliveries.get("deliveries"):
        break
    time.sleep(0.1)
check("webhook_deliveries", len(deliveries.get("deliveries", [])) >= 1, deliveries)
deleted = call("webhook_delete", client.webhook_delete, hook_id)
check("webhook_delete", isinstance(deleted, dict), deleted)
receiver.shutdown()

# ── Keys ────────────────────────────────────────────────────────────────
status = call("key_status", client.key_status) or {}
check("key_status", status.get("tier") == "developer", status)
usage = call("key_usage", client.key_usage, days=3) or {}
check("key_usage", len(usage.get("days", [])) == 3, usage)

email = "integrator@example.com"
before = len(outbox())
trial = call("key_trial", public.key_trial, email) or {}
check("key_trial", trial.get("tier") == "developer", f"the answer names the tier: {trial}")
expires = trial.get("expires_at") or ""
check("key_trial", expires[:4].isdigit(), f"the answer names the expiry: {trial}")
mail = new_mail(before)
check("key_trial", "sr_live_" in mail, "no trial key was mailed")
trial_key = mail[mail.find("sr_live_"):][:40] if "sr_live_" in mail else ""
trial_client = Aletheia(api_key=trial_key, base_url=API)
trial_status = call("key_status", trial_client.key_status) or {}
check("key_trial", trial_status.get("tier") == trial.get("tier"), trial_status)
check(
    "key_trial",
    (trial_status.get("expires_at") or "")[:10] == expires[:10],
    f"the key expires when the answer said: {trial_status} vs {trial}",
)

before = len(outbox())
resent = call("key_resend", public.key_resend, email)
check("key_resend", isinstance(resent, dict), resent)
check("key_resend", bool(new_mail(before)), "key_resend mailed nothing to an address with a key")

before = len(outbox())
recovering = call("key_recover", public.key_recover, email)
check("key_recover", isinstance(recovering, dict), recovering)
check("key_recover", bool(new_mail(before)), "no recovery code was mailed")

rotated = call("key_rotate", client.key_rotate) or {}
check("key_rotate", rotated.get("key") == client.api_key and client.api_key != KEY, rotated)
check("key_rotate", (call("key_status", client.key_status) or {}).get("tier") == "developer", "the rotated key works")

before = len(outbox())
asked = call("key_erasure", public.key_erasure, email)
check("key_erasure", isinstance(asked, dict), asked)
code = subject(new_mail(before)).rsplit(" ", 1)[-1].strip()
erased = call("key_erasure", public.key_erasure, email, code=code) or {}
check("key_erasure", erased.get("status") == "erased", erased)
gone = Aletheia(api_key=trial_key, base_url=API)
try:
    gone.key_status()
    failures.append("key_erasure: the erased trial key still works")
except AletheiaError as e:
    check("key_erasure", e.status == 401, f"erased key: {e}")

# Every public method of the client was called.
surface = {
    name
    for name in dir(Aletheia)
    if not name.startswith("_") and callable(getattr(Aletheia, name))
}
missing = sorted(surface - called)
if missing:
    failures.append(f"methods never called: {missing}")

print(f"aletheia-safety {aletheia_safety.__version__}: {len(surface)} methods called")
for failure in failures:
    print("FAIL", failure)
sys.exit(1 if failures else 0)
