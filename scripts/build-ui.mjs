// npm run build, after tsc: bundles the viewer (ui/) into dist/ui/, which the ingest receiver
// serves under /ui/. One script and one stylesheet (every CSS file the code imports, uPlot's too),
// minified for ES2022, each named by its content's hash so that the receiver can let browsers keep
// them for good; index.html, which names them, is the one file asked for again every time.
// esbuild-wasm rather than esbuild: the native package has an install script.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild-wasm';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/ui`;
const started = performance.now();

// Last build's files would otherwise stay, each under its old hash, and be shipped.
rmSync(out, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: `${root}ui/src/main.tsx` },
  tsconfig: `${root}ui/tsconfig.json`,
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  outdir: `${out}/assets`,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  // The metafile's paths are relative to it.
  absWorkingDir: root,
  logLevel: 'warning',
});

// index.html names /ui/assets/main.js and main.css; the built page names the hashed files.
const outputs = Object.entries(result.metafile.outputs);
const [script, entry] = outputs.find(([, output]) => output.entryPoint !== undefined) ?? [];
if (script === undefined || entry?.cssBundle === undefined) throw new Error('esbuild made no script with a stylesheet for ui/src/main.tsx');
const served = (file) => `/ui/assets/${file.split('/').at(-1)}`;
const page = readFileSync(`${root}ui/index.html`, 'utf8');
const built = page.replace('/ui/assets/main.js', served(script)).replace('/ui/assets/main.css', served(entry.cssBundle));
if (built.includes('/ui/assets/main.')) throw new Error('ui/index.html names /ui/assets/main.js and /ui/assets/main.css once each; the built page still names one of them');
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/index.html`, built);

const sizes = [['index.html', Buffer.from(built)], ...outputs.map(([file]) => [file.split('/').slice(-2).join('/'), readFileSync(`${root}${file}`)])];
for (const [name, bytes] of sizes) console.log(`  dist/ui/${name}  ${(bytes.length / 1024).toFixed(1)} KiB (gzip ${(gzipSync(bytes).length / 1024).toFixed(1)} KiB)`);
console.log(`Built the viewer into dist/ui in ${Math.round(performance.now() - started)} ms`);
