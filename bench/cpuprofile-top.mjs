// Where a V8 CPU profile's time went: self time per function and per script, and inclusive time
// per function (a recursive function counted once per stack). Not part of `npm run bench`.
// Usage: node bench/cpuprofile-top.mjs <file.cpuprofile> [functions shown]
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const shown = Number(process.argv[3] ?? 30);
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// A sample's time is the delta to the next one (wall time: a thread preempted on a shared core
// counts its wait to the function it was in).
const selfTime = new Map();
for (let i = 0; i < profile.samples.length; i++) selfTime.set(profile.samples[i], (selfTime.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));

const where = (url) => url.replace(/^file:\/\/.*?\/(dist|src|node_modules|bench)\//, '$1/');
const nameOf = (id) => {
  const frame = nodes.get(id).callFrame;
  return `${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`;
};
const scriptOf = (id) => {
  const frame = nodes.get(id).callFrame;
  return frame.url === '' ? frame.functionName : where(frame.url).replace(/^node_modules\/((@[^/]+\/)?[^/]+)\/.*/, 'node_modules/$1');
};

const byFunction = new Map();
const byScript = new Map();
const inclusive = new Map();
let total = 0;
for (const [id, us] of selfTime) {
  total += us;
  byFunction.set(nameOf(id), (byFunction.get(nameOf(id)) ?? 0) + us);
  byScript.set(scriptOf(id), (byScript.get(scriptOf(id)) ?? 0) + us);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const name = nameOf(at);
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  }
}

const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`)
    .join('\n');
console.log(`${(total / 1e6).toFixed(2)} s sampled`);
console.log(`\n-- self time, by function --\n${top(byFunction, shown)}`);
console.log(`\n-- self time, by script --\n${top(byScript, 25)}`);
console.log(`\n-- inclusive time, by function --\n${top(inclusive, shown + 10)}`);
