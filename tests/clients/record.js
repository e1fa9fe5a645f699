// Preloaded (node -r) before a README.txt JavaScript example: records what the example's session.run returned, so
// the test can compare it with Python's, and writes it to $ONNXPACK_RESULTS when the process ends normally.
"use strict";
const fs = require("fs");
const ort = require("onnxruntime-node");

const seen = [];
const run = ort.InferenceSession.prototype.run;
ort.InferenceSession.prototype.run = async function (...args) {
  const results = await run.apply(this, args);
  seen.push(results);
  return results;
};

function plain(results) {
  const out = {};
  for (const [name, t] of Object.entries(results)) {
    out[name] = { type: t.type, dims: Array.from(t.dims), data: Array.from(t.data, (x) => (typeof x === "bigint" ? Number(x) : x)) };
  }
  return out;
}

process.on("exit", (code) => {
  if (code === 0 && process.env.ONNXPACK_RESULTS) {
    fs.writeFileSync(process.env.ONNXPACK_RESULTS, JSON.stringify({ version: ort.env.versions, runs: seen.map(plain) }));
  }
});
