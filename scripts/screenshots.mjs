// Copies the viewer's screenshots that the README shows from where the end-to-end tests write them
// (test-artifacts/, after `npm test` or `npx vitest run test/ui`) into docs/images/.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const VIEWS = ['logs', 'traces', 'trace', 'metrics', 'errors'];
mkdirSync(join(ROOT, 'docs', 'images'), { recursive: true });
const missing = VIEWS.filter((view) => !existsSync(join(ROOT, 'test-artifacts', `${view}.png`)));
if (missing.length > 0) {
  console.error(`no test-artifacts/${missing.join('.png, ')}.png: run npx vitest run test/ui first (it needs Chromium)`);
  process.exit(1);
}
for (const view of VIEWS) copyFileSync(join(ROOT, 'test-artifacts', `${view}.png`), join(ROOT, 'docs', 'images', `viewer-${view}.png`));
console.log(`copied ${VIEWS.length} screenshots into docs/images/`);
