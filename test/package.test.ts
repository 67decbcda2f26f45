// What `npm pack` would publish: the README and every document it ships link only to files that
// ship too, and the license and the interface contract are among them.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
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
});
