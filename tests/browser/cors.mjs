// A page on another origin calls saferef from a real browser (headless Debian Chromium driven
// by playwright-core): node cors.mjs BASE_URL DEVELOPER_KEY COMPOUND_ID
//
// The page is served by this script on another loopback port, so every call is cross-origin.
// It fetch()es a public record (a plain GET: no preflight), a keyed list with X-API-Key (the
// header makes Chromium send a preflight first), reads the exposed ETag and quota headers,
// and reads the JSON body of a 404. Screenshot in SAFEREF_BROWSER_ARTIFACTS (default
// target/browser-artifacts).

import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [base, key, id] = process.argv.slice(2);
if (!base || !key || !id) {
  console.error("usage: node cors.mjs BASE_URL DEVELOPER_KEY COMPOUND_ID");
  process.exit(2);
}
const artifacts = process.env.SAFEREF_BROWSER_ARTIFACTS || "target/browser-artifacts";
mkdirSync(artifacts, { recursive: true });

const failures = [];
function check(ok, message) {
  if (!ok) failures.push(message);
  console.log(`${ok ? "ok  " : "FAIL"} ${message}`);
}

// The embedding page: an ordinary page of some shop, on its own origin.
const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A shop</title></head>
<body><h1>A shop's product page</h1><pre id="out"></pre></body></html>`;
const pages = createServer((req, res) => {
  if (req.url === "/") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(html);
  } else {
    res.writeHead(204);
    res.end();
  }
});
await new Promise((resolve) => pages.listen(0, "127.0.0.1", resolve));
const pageOrigin = `http://127.0.0.1:${pages.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  // The sandbox needs user namespaces, which containers and root CI runners lack.
  args: ["--no-sandbox"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });

/** Opens the shop's page, collecting console messages and failed requests. */
async function open() {
  const page = await context.newPage();
  const errors = [];
  const messages = [];
  page.on("console", (m) => {
    messages.push(m.text());
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()}`));
  await page.goto(pageOrigin + "/", { waitUntil: "load" });
  return { page, errors, messages };
}

const shop = await open();
const origin = await shop.page.evaluate(() => location.origin);
check(origin !== new URL(base).origin, `the page's origin ${origin} is not the service's ${new URL(base).origin}`);

// Each call as a page script makes it; the result is what the page could read.
const calls = await shop.page.evaluate(
  async ({ base, key, id }) => {
    const read = async (url, init) => {
      try {
        const res = await fetch(url, init);
        const body = await res.json();
        const header = (n) => res.headers.get(n);
        return {
          status: res.status,
          body,
          etag: header("etag"),
          tier: header("x-api-tier"),
          remaining: header("x-ratelimit-remaining"),
        };
      } catch (e) {
        return { error: String(e) };
      }
    };
    const out = {
      record: await read(`${base}/api/compound/${id}`),
      keyed: await read(`${base}/api/compounds?limit=2`, { headers: { "X-API-Key": key } }),
    };
    document.getElementById("out").textContent = JSON.stringify(out, null, 2);
    return out;
  },
  { base, key, id },
);
const { record, keyed } = calls;
check(record.status === 200 && record.body.hq_id === id, `public record: GET ${id} read (${record.status ?? record.error})`);
check(typeof record.etag === "string" && record.etag.startsWith('"'), `public record: the ETag is readable (${record.etag})`);
check(keyed.status === 200 && Array.isArray(keyed.body.compounds) && keyed.body.compounds.length > 0,
  `keyed GET: compounds read with X-API-Key after the preflight (${keyed.status ?? keyed.error})`);
check(keyed.tier === "developer", `keyed GET: X-API-Tier is readable (${keyed.tier})`);
check(/^[0-9]+$/.test(keyed.remaining || ""), `keyed GET: X-RateLimit-Remaining is readable (${keyed.remaining})`);
await shop.page.screenshot({ path: join(artifacts, "cors-page.png"), fullPage: true });
check(shop.errors.length === 0, `no console errors ${shop.errors.join(" | ")}`);
await shop.page.close();

// An error's JSON body is readable too. Chromium logs every 4xx a page fetches as a console
// error ("Failed to load resource"), so this page is checked for CORS refusals instead.
const failing = await open();
const missing = await failing.page.evaluate(async (base) => {
  try {
    const res = await fetch(`${base}/api/compound/hq-c-org-999999`);
    return { status: res.status, body: await res.json() };
  } catch (e) {
    return { error: String(e) };
  }
}, base);
check(missing.status === 404 && typeof missing.body?.error === "string", `a 404's JSON body is readable (${missing.status ?? missing.error})`);
const refused = failing.messages.filter((m) => /CORS|Access-Control/i.test(m));
check(refused.length === 0, `no CORS refusal ${refused.join(" | ")}`);
await failing.page.close();

await browser.close();
pages.close();
if (failures.length) {
  console.error(`\n${failures.length} browser check(s) failed:\n- ${failures.join("\n- ")}`);
  process.exit(1);
}
console.log("\nall cross-origin checks passed");
