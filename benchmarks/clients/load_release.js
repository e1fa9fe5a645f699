// Load every model of an extracted release by its relative path, as an app does, and run it once on ones.
const ort = require('onnxruntime-node');
const path = require('path');
async function main() {
  const [root, ...models] = process.argv.slice(2);
  process.chdir(root);
  for (const m of models) {
    const s = await ort.InferenceSession.create(m);
    const feeds = {};
    for (const name of s.inputNames) {
      const meta = s.inputMetadata ? s.inputMetadata.find(x => x.name === name) : null;
      const dims = meta && meta.shape ? meta.shape.map(d => typeof d === 'number' ? d : 1) : [1];
      const type = meta && meta.type ? meta.type : 'float32';
      const n = dims.reduce((a, b) => a * b, 1);
      const data = type === 'int32' ? Int32Array.from({length: n}, () => 1) : type === 'int64' ? BigInt64Array.from({length: n}, () => 1n) : type === 'bool' ? Uint8Array.from({length: n}, () => 1) : Float32Array.from({length: n}, () => 0.5);
      feeds[name] = new ort.Tensor(type, data, dims);
    }
    const out = await s.run(feeds);
    console.log(`${m}: loaded by path, ran: ${Object.keys(out).length} outputs (onnxruntime-node ${require('onnxruntime-node/package.json').version})`);
  }
}
main().catch(e => { console.error(e.message); process.exit(1); });
