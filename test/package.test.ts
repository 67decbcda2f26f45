// What `npm pack` would publish: the README and every document it ships link only to files that
// ship too, and the license and the interface contract are among them; the built viewer ships and
// is served from where the package is installed; and what installing it asks of npm: a Node 20 to
// install with, and no install script to review anywhere in the tree.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';
import { startGateway, STORE_CONFIG, type Gateway } from './helpers/gateway.js';

let packed: Set<string>;

beforeAll(() => {
  // --ignore-scripts: only the list of files is wanted, not the build that prepack runs.
  const result = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(result.status, result.stderr).toBe(0);
  const [tarball] = JSON.parse(result.stdout) as { files: { path: string }[] }[];
  packed = new Set(tarball?.files.map((file) => file.path));
});

/** The relative link targets of a Markdown file, as paths from the package root, anchors dropped. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(`${ROOT}/${file}`, 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  const targets = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] as string);
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => posix.normalize(posix.join(posix.dirname(file), target.split('#')[0] as string)));
}

describe('the packed package', () => {
  it('ships the license, the README, the docs and the ingest interface contract', () => {
    for (const file of ['LICENSE', 'README.md', 'docs/ingest-interface.md', 'docs/configuration.md', 'src/receivers/ingest/README.md']) {
      expect(packed.has(file), file).toBe(true);
    }
    expect(readFileSync(`${ROOT}/LICENSE`, 'utf8')).toContain('Apache License\n                           Version 2.0, January 2004');
  });

  it('ships the built viewer: its page and its hashed assets', () => {
    expect(packed.has('dist/ui/index.html')).toBe(true);
    expect([...packed].filter((file) => file.startsWith('dist/ui/assets/')).map((file) => file.replace(/-[A-Z0-9]{8}\./, '-<hash>.')).sort()).toEqual([
      'dist/ui/assets/main-<hash>.css',
      'dist/ui/assets/main-<hash>.js',
    ]);
  });

  it('has a README whose links, and the links of every document it ships, lead to files it ships', () => {
    const documents = [...packed].filter((file) => file.endsWith('.md'));
    expect(documents.length).toBeGreaterThan(5);
    const broken = documents.flatMap((file) => relativeLinks(file).filter((target) => !packed.has(target)).map((target) => `${file} -> ${target}`));
    expect(broken).toEqual([]);
    // The README links into docs/ and src/: had they not shipped, the check above would have had links to fail on.
    expect(relativeLinks('README.md')).toEqual(expect.arrayContaining(['docs/configuration.md', 'src/receivers/ingest/README.md']));
  });

  it('cites no document from outside the repository', () => {
    const documents = [...packed].filter((file) => file.endsWith('.md'));
    expect(documents.filter((file) => readFileSync(`${ROOT}/${file}`, 'utf8').includes('shared/spec'))).toEqual([]);
  });

  it('installs with the Node 20 the README names, and nothing in its tree has an install script', () => {
    const manifest = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { engines: { node: string } };
    expect(manifest.engines.node).toMatch(/^>=\s*\d+/);
    expect(Number(/\d+/.exec(manifest.engines.node)?.[0])).toBeLessThanOrEqual(20);
    const lock = JSON.parse(readFileSync(`${ROOT}/package-lock.json`, 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    expect(Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript === true).map(([path]) => path)).toEqual([]);
  });

  it('packs package.json without prepare, and puts the file back byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-pack-'));
    copyFileSync(`${ROOT}/package.json`, join(dir, 'package.json'));
    const original = readFileSync(join(dir, 'package.json'), 'utf8');
    expect((JSON.parse(original) as { scripts: Record<string, string> }).scripts['prepare']).toBe('npm run build');
    const run = (mode: string) => spawnSync(process.execPath, [`${ROOT}/scripts/packed-manifest.mjs`, mode], { cwd: dir, encoding: 'utf8' });
    expect(run('strip').status).toBe(0);
    // A pack that stopped before postpack: the next strip starts from the file as it was.
    expect(run('strip').status).toBe(0);
    const packed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(packed.scripts['prepare']).toBeUndefined();
    expect(packed.scripts['build']).toBe('tsc -p tsconfig.build.json && chmod +x dist/cli.js && node scripts/build-ui.mjs');
    expect(run('restore').status).toBe(0);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
    expect(existsSync(join(dir, 'package.json.before-pack'))).toBe(false);
  });
});

describe('the package installed from its tarball', () => {
  let gw: Gateway;
  let installed: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'otelgate-installed-'));
    // --ignore-scripts: the tarball of the dist/ this run built; prepack would build it again, under the other tests running from it.
    const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(pack.status, pack.stderr).toBe(0);
    const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
    // Where and how npm installs it: the tarball's files in node_modules/otelgate. Its dependencies
    // are the clone's, linked in beside it rather than fetched from the registry.
    installed = join(dir, 'node_modules', 'otelgate');
    mkdirSync(installed, { recursive: true });
    const untar = spawnSync('tar', ['-xzf', join(dir, filename), '-C', installed, '--strip-components=1'], { encoding: 'utf8' });
    expect(untar.status, untar.stderr).toBe(0);
    symlinkSync(join(ROOT, 'node_modules'), join(installed, 'node_modules'));
    // Run from elsewhere than the clone, whose own dist/ui must not be what is found.
    gw = await startGateway({ config: STORE_CONFIG(join(dir, 'store.db')), command: [process.execPath, join(installed, 'dist/cli.js'), 'run'], cwd: dir });
  }, 60_000);

  afterAll(async () => {
    await gw?.stop();
  });

  it('serves the viewer at /ui/: the page and its assets, from the installed files, under the Content-Security-Policy', async () => {
    expect(gw.run.lines.filter((line) => line.msg.startsWith('The viewer is not built'))).toEqual([]);
    const page = await fetch(`${gw.url}/ui/`);
    const index = await page.text();
    expect([page.status, index]).toEqual([200, readFileSync(join(installed, 'dist/ui/index.html'), 'utf8')]);
    const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    expect(page.headers.get('content-security-policy')).toBe(csp);
    const assets = [...index.matchAll(/(?:src|href)="(\/ui\/assets\/[^"]+)"/g)].map((match) => match[1] as string);
    expect(assets).toHaveLength(2);
    for (const asset of assets) {
      const response = await fetch(`${gw.url}${asset}`);
      const body = Buffer.from(await response.arrayBuffer());
      expect([response.status, response.headers.get('content-security-policy'), body.equals(readFileSync(join(installed, 'dist', asset)))], asset).toEqual([200, csp, true]);
    }
  });
});
