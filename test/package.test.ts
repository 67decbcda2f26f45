// What `npm pack` would publish: the README and every document it ships link only to files that
// ship too, and the license and the interface contract are among them; and what installing it
// asks of npm: a Node 20 to install with, and no install script to review anywhere in the tree.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

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
    expect(packed.scripts['build']).toBe('tsc -p tsconfig.build.json && chmod +x dist/cli.js');
    expect(run('restore').status).toBe(0);
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
    expect(existsSync(join(dir, 'package.json.before-pack'))).toBe(false);
  });
});
