// Browser tests of the saferef pages against a running service, in headless Debian Chromium
// driven by playwright-core (no browser download): node pages.mjs BASE_URL DEVELOPER_KEY
//
// The front door finds a compound by a misspelt name, a CAS number and a synonym and lands
// on its page, and its trial form is accepted; the compound page shows its 19 tiers, evidence,
// timeline (the timeline endpoint's events) and links, and its badge builder builds and copies a snippet; the playground looks up a compound by CAS, switches context, shows the badges,
// builds one with a label and the name, and copies the embed snippet, whose badge link lands on
// the compound's page; the dashboard draws the 30-day chart for the key and rotates it; docs, examples and
// compliance load without console errors; every page passes a basic accessibility check and
// has no horizontal scroll at phone width. Screenshots go to SAFEREF_BROWSER_ARTIFACTS
// (default target/browser-artifacts). Optional: SAFEREF_SIG_SECRET, SAFEREF_SIG_BODY and
// SAFEREF_SIG_HEADER (a real signature) check the docs' Node.js verification code.

import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const [base, key] = process.argv.slice(2);
if (!base || !key) {
  console.error("usage: node pages.mjs BASE_URL DEVELOPER_KEY");
  process.exit(2);
}
const artifacts = process.env.SAFEREF_BROWSER_ARTIFACTS || "target/browser-artifacts";
mkdirSync(artifacts, { recursive: true });

const failures = [];
function check(ok, message) {
  if (!ok) failures.push(message);
  console.log(`${ok ? "ok  " : "FAIL"} ${message}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  // The sandbox needs user namespaces, which containers and root CI runners lack.
  args: ["--no-sandbox"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(base).origin });

/** Opens `path`, collecting console errors, failed requests and every requested URL. */
async function open(path, viewport) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const errors = [];
  const urls = [];
  // Chromium asks for /favicon.ico on its own (for the JSON page); that 404 is not the page's.
  page.on("console", (m) => {
    if (m.type() === "error" && !(m.location().url || "").endsWith("/favicon.ico")) errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("request", (r) => urls.push(r.url()));
  // A request the page itself cancels (an image whose src it replaced before the answer came,
  // as the badge builder does on every change) fails as net::ERR_ABORTED: not an error.
  page.on("requestfailed", (r) => {
    if (r.failure()?.errorText !== "net::ERR_ABORTED") errors.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  const res = await page.goto(base + path, { waitUntil: "load" });
  return { page, errors, urls, status: res.status() };
}

/** The basic accessibility rules every page must pass; returns the problems found. */
function accessibility() {
  const problems = [];
  if (!document.documentElement.lang) problems.push("html has no lang");
  if (!document.title.trim()) problems.push("no title");
  const h1 = document.querySelectorAll("h1").length;
  if (h1 !== 1) problems.push(`${h1} h1 elements`);
  for (const el of document.querySelectorAll("input, select, textarea")) {
    if (el.type === "hidden") continue;
    const named = (el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`))
      || el.closest("label") || el.getAttribute("aria-label") || el.getAttribute("aria-labelledby");
    if (!named) problems.push(`unlabelled ${el.tagName.toLowerCase()}#${el.id}`);
  }
  for (const img of document.querySelectorAll("img")) {
    if (!img.hasAttribute("alt")) problems.push(`img without alt: ${img.src}`);
  }
  for (const svg of document.querySelectorAll('svg[role="img"]')) {
    if (!svg.getAttribute("aria-label") && !svg.getAttribute("aria-labelledby")) problems.push("svg image without a name");
  }
  for (const el of document.querySelectorAll("a, button")) {
    if (!el.textContent.trim() && !el.getAttribute("aria-label")) problems.push(`${el.tagName.toLowerCase()} without text`);
  }
  const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
  const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (dup.length) problems.push(`duplicate ids: ${[...new Set(dup)].join(", ")}`);
  return problems;
}

async function commonChecks(name, opened) {
  const { page } = opened;
  check(opened.status === 200, `${name}: HTTP 200 (got ${opened.status})`);
  const problems = await page.evaluate(accessibility);
  check(problems.length === 0, `${name}: accessibility ${problems.join("; ") || "clean"}`);
  // No asset from anywhere but this origin.
  const outside = opened.urls.filter((u) => !u.startsWith(base) && !u.startsWith("data:"));
  check(outside.length === 0, `${name}: no outside requests ${outside.join(", ")}`);
  // Keyboard: the first Tab reaches the skip link.
  await page.keyboard.press("Tab");
  const first = await page.evaluate(() => document.activeElement && document.activeElement.className);
  check(first === "skip", `${name}: the first Tab focuses the skip link`);
}

async function phone(name, path, prepare) {
  const opened = await open(path, { width: 375, height: 740 });
  if (prepare) await prepare(opened.page);
  const overflow = await opened.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, `${name}: no horizontal scroll at 375 px (overflow ${overflow} px)`);
  await opened.page.screenshot({ path: join(artifacts, `${name}-phone.png`), fullPage: true });
  check(opened.errors.length === 0, `${name} (phone): no console errors ${opened.errors.join(" | ")}`);
  await opened.page.close();
}

// Examples: real requests, one by CAS and one in another context, which the playground uses.
const examplesOpened = await open("/api/examples");
check(examplesOpened.status === 200, `examples: HTTP 200 (got ${examplesOpened.status})`);
const examples = JSON.parse(await examplesOpened.page.evaluate(() => document.body.innerText));
check(examples.count >= 12 && examples.examples.length === examples.count, `examples: ${examples.count} examples`);
const byCas = examples.examples.find((e) => e.name === "compound-by-cas");
const inContext = examples.examples.find((e) => e.name === "compound-in-context");
const cas = byCas.url.split("/").pop();
const otherContext = new URL(base + inContext.url).searchParams.get("context");
for (const e of examples.examples.filter((x) => !x.key_required && x.method === "GET")) {
  const res = await examplesOpened.page.request.get(base + e.url, { maxRedirects: 0 });
  check(res.status() < 400, `examples: ${e.url} answers ${res.status()}`);
}
check(examplesOpened.errors.length === 0, `examples: no console errors ${examplesOpened.errors.join(" | ")}`);
await examplesOpened.page.close();

// The front door: name search from the CDN's index (a typo forgiven) reaches the compound's
// page, and the trial form posts the address (the key goes by mail, never to the page).
let benzenePage = null;
{
  const opened = await open("/");
  const { page } = opened;
  await commonChecks("home", opened);
  await page.fill("#name-q", "bezene");
  await page.waitForSelector("#name-results a");
  const hits = await page.$$eval("#name-results a", (as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
  const hit = hits.find(([name]) => name === "Benzene");
  check(Boolean(hit), `home: the typo "bezene" finds Benzene (${JSON.stringify(hits.slice(0, 3))})`);
  await page.fill("#name-q", "71-43-2");
  await page.waitForFunction(() => document.querySelector("#name-results a") && document.querySelector("#name-results a").textContent === "Benzene");
  check(true, "home: the CAS number finds Benzene first");
  await page.fill("#name-q", "benzol");
  await page.waitForFunction(() => document.querySelector("#name-results a") && document.querySelector("#name-results a").textContent === "Benzene");
  await Promise.all([page.waitForURL(/\/compound\/hq-c-/), page.click("#name-results a")]);
  benzenePage = new URL(page.url()).pathname;
  check(benzenePage === hit[1], `home: the synonym "benzol" leads to ${benzenePage}`);
  check((await page.textContent("h1")) === "Benzene", "home: the search lands on the compound's page");
  await page.goto(base + "/");
  await page.fill("#trial-email", "browser-trial@example.org");
  await page.click("#trial button[type=submit]");
  await page.waitForFunction(() => document.getElementById("trial-status").textContent.includes("by mail"));
  check(true, "home: the trial form is accepted and says the key comes by mail");
  await page.screenshot({ path: join(artifacts, "home-desktop.png"), fullPage: true });
  check(opened.errors.length === 0, `home: no console errors ${opened.errors.join(" | ")}`);
  await page.close();
  await phone("home", "/", async (p) => {
    await p.fill("#name-q", "formaldehyd");
    await p.waitForSelector("#name-results a");
  });
}

// A compound's page: the strip of 19 tiers, the deciding evidence with its sources, the links.
{
  const opened = await open(benzenePage);
  const { page } = opened;
  await commonChecks("compound-page", opened);
  const cells = await page.$$eval(".tier-cell", (cs) => cs.map((c) => c.textContent.trim()));
  check(cells.length === 19 && cells.every((t) => /(Low|Moderate|High|Very high|Critical|No evidence)$/.test(t)), `compound page: 19 tier cells in words (${cells[0]})`);
  await page.click('.tier-cell a[href="#tier-human_adult"]');
  const adult = await page.$eval("#tier-human_adult", (s) => ({ text: s.textContent, sources: [...s.querySelectorAll("a[href^='https://']")].length }));
  check(adult.text.includes("Deciding evidence") && adult.sources > 0, `compound page: adult evidence with ${adult.sources} source links`);
  const id = benzenePage.split("/").pop();
  for (const href of [`/api/compound/${id}`, `/api/compound/${id}/raw`]) {
    const res = await page.request.get(base + href);
    check((await page.$(`a[href="${href}"]`)) !== null && res.status() === 200, `compound page: links ${href} (${res.status()})`);
  }
  const badges = await page.$$eval(".badges img", (imgs) => imgs.map((i) => i.complete && i.naturalWidth > 0));
  check(badges.length === 3 && badges.every(Boolean), "compound page: its three badges load");
  const json = await (await page.request.get(base + `/api/compound/${id}`)).json();
  check(json._links.page === benzenePage, `compound page: the JSON links it as _links.page (${json._links.page})`);
  // The timeline: the timeline endpoint's events, oldest first, each dated, in words, with its source.
  const rows = await page.$$eval('section[aria-labelledby="timeline-heading"] tbody tr', (trs) => trs.map((tr) => {
    const cell = (label) => tr.querySelector(`td[data-label="${label}"]`);
    return { date: cell("Date").textContent, change: cell("Change").textContent, value: cell("Value").textContent, source: cell("Source").textContent.trim() };
  }));
  const timeline = await (await page.request.get(base + `/api/compound/${id}/timeline`, { headers: { "X-API-Key": key } })).json();
  const dates = timeline.events.map((e) => e.date);
  check(rows.length > 0 && rows.map((r) => r.date).join() === dates.join(), `compound page: the timeline lists the endpoint's ${dates.length} dated changes in order (${rows.map((r) => r.date).join(", ")})`);
  check(rows.every((r) => /^\d{4}(-\d{2}){0,2}$/.test(r.date) && /^(came into force|scheduled|superseded|annulled)/.test(r.change) && r.value && r.source), `compound page: every timeline row has its date, change, value and source (${JSON.stringify(rows[0])})`);
  // The badge builder: another context, a style and the name change the three style previews,
  // the badge and the snippet, which is copied and links back to this page.
  await page.selectOption("#badge-context", otherContext);
  await page.check('#badge-builder input[name="style"][value="pill"]');
  await page.check('#badge-builder input[name="show_name"]');
  await page.waitForFunction(() => { const i = document.getElementById("badge-preview"); return i.complete && i.naturalWidth > 0 && i.src.includes("show_name=true"); });
  const previews = await page.$$eval("#badge-builder img", (imgs) => imgs.map((i) => i.complete && i.naturalWidth > 0 && i.src.includes("show_name=true")));
  check(previews.length === 3 && previews.every(Boolean), "compound page: the builder redraws its three style previews");
  const built = await page.inputValue("#embed");
  check(built.includes(`<a href="${base}/compound/${id}">`) && built.includes(`/api/badge/${id}?context=${otherContext}&amp;style=pill&amp;show_name=true`), `compound page: the builder's snippet ${built}`);
  await page.click("#copy-embed");
  await page.waitForFunction(() => document.getElementById("copy-status").textContent.includes("copied"));
  const copiedEmbed = await page.evaluate(() => navigator.clipboard.readText());
  check(copiedEmbed === built, "compound page: Copy snippet copies the built snippet");
  await page.screenshot({ path: join(artifacts, "compound-page-desktop.png"), fullPage: true });
  check(opened.errors.length === 0, `compound page: no console errors ${opened.errors.join(" | ")}`);
  await page.close();
  await phone("compound-page", benzenePage);
}

// Playground.
{
  const opened = await open("/api/playground");
  const { page } = opened;
  await commonChecks("playground", opened);
  await page.fill("#q", cas);
  await page.press("#q", "Enter"); // keyboard submit
  await page.waitForFunction(() => document.getElementById("response").textContent.includes('"hq_id"'));
  const first = await page.textContent("#response");
  const id = JSON.parse(first).hq_id;
  check(/^hq-c-[a-z]{3}-[0-9]{6}$/.test(id), `playground: CAS ${cas} resolved to ${id}`);
  check((await page.textContent("#http-status")) === "200", "playground: the compound answered 200");
  await page.selectOption("#context", otherContext);
  await page.waitForFunction((ctx) => document.getElementById("response").textContent.includes(`"context": "${ctx}"`), otherContext);
  const second = await page.textContent("#response");
  check(second !== first, `playground: switching to ${otherContext} changes the response`);
  check(JSON.parse(second).risk_level !== JSON.parse(first).risk_level, "playground: the tier differs in the other context");
  for (const style of ["flat", "flat-square", "pill"]) {
    const sel = `#badge-${style}`;
    await page.waitForFunction((s) => { const i = document.querySelector(s); return i && !i.hidden && i.complete && i.naturalWidth > 0; }, sel);
    const img = await page.$eval(sel, (i) => ({ w: i.naturalWidth, src: i.getAttribute("src"), alt: i.alt }));
    check(img.w > 0 && img.src.includes(`context=${otherContext}`) && img.alt.length > 0, `playground: ${style} badge loads (${img.w} px wide)`);
  }
  await page.check('input[name="format"][value="markdown"]');
  await page.check('input[name="style"][value="pill"]');
  await page.click("#copy");
  await page.waitForFunction(() => document.getElementById("status").textContent.includes("copied"));
  await page.screenshot({ path: join(artifacts, "playground-desktop.png"), fullPage: true });
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const shown = await page.inputValue("#snippet");
  check(copied === shown && copied.startsWith("[![") && copied.includes(`/api/badge/${id}?context=${otherContext}&style=pill`), `playground: copied snippet ${copied}`);
  // The badge builder: a label and the name change the live badge and the snippet, which links
  // to the compound's page.
  await page.fill("#badge-label", "My shop");
  await page.check("#show-name");
  await page.waitForFunction(() => { const i = document.getElementById("badge-live"); return i.complete && i.naturalWidth > 0 && i.src.includes("show_name=true") && i.src.includes("label=My+shop"); });
  const live = await page.$eval("#badge-live", (i) => ({ w: i.naturalWidth, src: i.src }));
  const built = await page.inputValue("#snippet");
  check(live.w > 0 && built.includes(`](${base}/compound/${id})`) && built.includes("show_name=true"), `playground: the badge builder shows ${live.src} and links to the page: ${built}`);
  await page.screenshot({ path: join(artifacts, "playground-desktop.png"), fullPage: true });
  // The HTML snippet embedded in a page: its badge loads and a click lands on the compound's page.
  await page.check('input[name="format"][value="html"]');
  const snippet = await page.inputValue("#snippet");
  await page.evaluate((html) => {
    const host = document.createElement("div");
    host.id = "embedded";
    host.innerHTML = html;
    document.body.prepend(host);
  }, snippet);
  await page.waitForFunction(() => { const i = document.querySelector("#embedded img"); return i && i.complete && i.naturalWidth > 0; });
  await Promise.all([page.waitForURL(new RegExp(`/compound/${id}$`)), page.click("#embedded a")]);
  check((await page.$$eval(".tier-cell", (c) => c.length)) === 19, `playground: the embedded badge's link lands on /compound/${id}`);
  check(opened.errors.length === 0, `playground: no console errors ${opened.errors.join(" | ")}`);
  await page.close();
  await phone("playground", "/api/playground", async (p) => {
    await p.fill("#q", cas);
    await p.press("#q", "Enter");
    await p.waitForFunction(() => document.getElementById("response").textContent.includes('"hq_id"'));
  });
}

// Dashboard with the real key, rotated on the way.
let newKey = key;
{
  const opened = await open("/api/dashboard");
  const { page } = opened;
  await commonChecks("dashboard", opened);
  await page.fill("#key", key);
  await page.press("#key", "Enter");
  await page.waitForFunction(() => document.querySelectorAll("#chart svg rect.bar").length > 0);
  const bars = await page.$$eval("#chart svg rect.bar", (r) => r.length);
  check(bars === 30, `dashboard: the chart has ${bars} bars`);
  check((await page.textContent("#tier")) === "developer", "dashboard: tier developer");
  const quota = await page.textContent("#quota");
  check(quota.includes("10,000"), `dashboard: quota ${quota}`);
  await page.waitForFunction(() => !document.getElementById("webhooks").textContent.includes("Loading"));
  const hooks = await page.textContent("#webhooks");
  check(hooks.trim().length > 0, `dashboard: webhooks section says ${hooks.slice(0, 80)}`);
  if (process.env.SAFEREF_EXPECT_WEBHOOK) {
    check(hooks.includes(process.env.SAFEREF_EXPECT_WEBHOOK), "dashboard: the registered webhook is listed");
  }
  const leaked = opened.urls.filter((u) => u.includes(key));
  check(leaked.length === 0, "dashboard: the key never appears in a URL");
  check((await page.evaluate(() => Object.keys(localStorage).length)) === 0, "dashboard: nothing in localStorage");
  await page.screenshot({ path: join(artifacts, "dashboard-desktop.png"), fullPage: true });
  // A reload in the same tab keeps the key in session storage only.
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll("#chart svg rect.bar").length === 30);
  // Rotation: the new key is shown once and kept in the tab; the old one is refused at once.
  page.once("dialog", (d) => d.accept());
  await page.click("#rotate");
  await page.waitForFunction(() => !document.getElementById("rotated").hidden);
  newKey = await page.inputValue("#new-key");
  check(/^sr_live_[A-Za-z0-9]{32}$/.test(newKey) && newKey !== key, "dashboard: Rotate key shows a new key");
  const statusOf = async (k) => (await page.request.get(base + "/api/keys/status", { headers: { "X-API-Key": k } })).status();
  const [oldStatus, newStatus] = [await statusOf(key), await statusOf(newKey)];
  check(oldStatus === 401 && newStatus === 200, `dashboard: after rotation the old key gets ${oldStatus}, the new one ${newStatus}`);
  check((await page.evaluate(() => sessionStorage.getItem("saferef.dashboard.key"))) === newKey, "dashboard: the tab keeps the new key");
  check(opened.urls.filter((u) => u.includes(newKey)).length === 0, "dashboard: the new key never appears in a URL");
  await page.screenshot({ path: join(artifacts, "dashboard-rotated.png"), fullPage: true });
  await page.click("#forget");
  check((await page.evaluate(() => sessionStorage.length)) === 0, "dashboard: Forget key clears session storage");
  check(opened.errors.length === 0, `dashboard: no console errors ${opened.errors.join(" | ")}`);
  await page.close();
  await phone("dashboard", "/api/dashboard", async (p) => {
    await p.fill("#key", newKey);
    await p.press("#key", "Enter");
    await p.waitForFunction(() => document.querySelectorAll("#chart svg rect.bar").length === 30);
    await p.waitForFunction(() => !document.getElementById("webhooks").textContent.includes("Loading"));
  });
}

// Docs and compliance.
for (const [name, path] of [["docs", "/api/docs"], ["compliance", "/api/compliance"]]) {
  const opened = await open(path);
  await commonChecks(name, opened);
  if (name === "docs") {
    const endpoints = await opened.page.$$eval("section.endpoint", (s) => s.length);
    check(endpoints >= 40, `docs: ${endpoints} endpoints`);
    const badges = await opened.page.$$eval("img", (imgs) => imgs.map((i) => i.complete && i.naturalWidth > 0));
    check(badges.length > 0 && badges.every(Boolean), "docs: example badges load");
    if (process.env.SAFEREF_SIG_HEADER) {
      const code = await opened.page.textContent("#verify-node-code");
      const dir = mkdtempSync(join(tmpdir(), "saferef-verify-"));
      const file = join(dir, "verify.mjs");
      writeFileSync(file, code);
      const { verify } = await import(pathToFileURL(file).href);
      const body = Buffer.from(process.env.SAFEREF_SIG_BODY);
      const secret = process.env.SAFEREF_SIG_SECRET;
      check(verify(secret, process.env.SAFEREF_SIG_HEADER, body) === true, "docs: the Node.js recipe accepts the service's signature");
      check(verify(secret, process.env.SAFEREF_SIG_HEADER, Buffer.concat([body, Buffer.from(" ")])) === false, "docs: the Node.js recipe rejects a changed body");
    }
  }
  await opened.page.screenshot({ path: join(artifacts, `${name}-desktop.png`), fullPage: true });
  check(opened.errors.length === 0, `${name}: no console errors ${opened.errors.join(" | ")}`);
  await opened.page.close();
  await phone(name, path);
}

await browser.close();
console.log(`screenshots: ${readdirSync(artifacts).filter((f) => f.endsWith(".png")).sort().map((f) => join(artifacts, f)).join(", ")}`);
if (failures.length) {
  console.error(`\n${failures.length} browser check(s) failed:\n- ${failures.join("\n- ")}`);
  process.exit(1);
}
console.log("\nall browser checks passed");
