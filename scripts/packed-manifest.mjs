// npm pack and npm publish (prepack, postpack): the package.json packed is the project's without
// its prepare script. prepare builds dist/ on `npm install` in a clone (and in a git dependency);
// the package carries dist/ built, so prepare has nothing to do there, yet npm lists it among the
// install scripts to review whenever the package is installed from a tarball or a folder.
// `strip` keeps the file as it was beside it and `restore` puts it back byte for byte; a pack that
// stopped between the two is put right by the next strip.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const MANIFEST = 'package.json';
const KEPT = 'package.json.before-pack';

const restore = () => {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST);
};

const mode = process.argv[2];
if (mode === 'strip') {
  restore();
  const text = readFileSync(MANIFEST, 'utf8');
  const manifest = JSON.parse(text);
  delete manifest.scripts.prepare;
  writeFileSync(KEPT, text);
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
} else if (mode === 'restore') {
  restore();
} else {
  process.stderr.write('usage: node scripts/packed-manifest.mjs strip|restore\n');
  process.exitCode = 2;
}
