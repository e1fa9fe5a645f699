// Opens a page of README.txt's browser example in headless Chromium (Debian's, driven by playwright-core) and
// prints what its session.run returned as JSON. onnxruntime-web's script address in the page (a CDN) is answered
// from node_modules/onnxruntime-web/dist: the page itself is not changed, and nothing leaves the machine.
// Usage: node browser.js PAGE-URL [PAGE-URL ...]   (env ONNXPACK_CHROMIUM: the browser, default /usr/bin/chromium)
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const CDN = "https://cdn.jsdelivr.net/npm/onnxruntime-web/dist/";
const DIST = path.join(__dirname, "node_modules", "onnxruntime-web", "dist");
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm" };

// Runs in the page before its scripts: wraps InferenceSession.prototype.run as soon as the page defines `ort`.
function hook() {
  const state = { done: false, error: null, results: null };
  window.__onnxpack = state;
  window.addEventListener("unhandledrejection", (e) => { state.error = String((e.reason && e.reason.stack) || e.reason); });
  window.addEventListener("error", (e) => { state.error = String(e.message); });
  let value;
  Object.defineProperty(window, "ort", {
    configurable: true,
    get() { return value; },
    set(v) {
      value = v;
      const run = v.InferenceSession.prototype.run;
      v.InferenceSession.prototype.run = async function (...args) {
        const results = await run.apply(this, args);
        const out = {};
        for (const [name, t] of Object.entries(results)) {
          out[name] = { type: t.type, dims: Array.from(t.dims), data: Array.from(t.data, (x) => (typeof x === "bigint" ? Number(x) : x)) };
        }
        state.results = out;
        state.version = v.env.versions;
        state.done = true;
        return results;
      };
    },
  });
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.ONNXPACK_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
           "--disable-component-update", "--disable-sync"],
  });
  const report = { browser: browser.version(), pages: [] };
  try {
    for (const url of process.argv.slice(2)) {
      const page = await browser.newPage();
      const log = [];
      page.on("console", (m) => log.push(`${m.type()}: ${m.text()}`));
      page.on("pageerror", (e) => log.push(`pageerror: ${e.message}`));
      await page.route("**/*", async (route) => {
        const u = route.request().url();
        if (u.startsWith(CDN)) {
          const file = path.join(DIST, path.basename(new URL(u).pathname));
          if (!fs.existsSync(file)) return route.fulfill({ status: 404, body: "not in onnxruntime-web's dist" });
          return route.fulfill({ status: 200, body: fs.readFileSync(file),
                                 headers: { "content-type": TYPES[path.extname(file)] || "application/octet-stream",
                                            "access-control-allow-origin": "*" } });
        }
        if (u.startsWith("http://127.0.0.1:")) return route.continue();
        log.push(`blocked: ${u}`);
        return route.abort();
      });
      await page.addInitScript(hook);
      await page.goto(url);
      let state;
      try {
        await page.waitForFunction(() => window.__onnxpack.done || window.__onnxpack.error, null, { timeout: 90000 });
      } finally {
        state = await page.evaluate(() => window.__onnxpack);
      }
      report.pages.push({ url, ...state, log });
      await page.close();
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(report));
})().catch((e) => { console.error(e && e.stack ? e.stack : String(e)); process.exit(1); });
