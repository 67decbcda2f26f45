// The package's own name and version, read from package.json beside dist/.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The package's root folder: the parent of dist/ (or of src/ when run from source). */
export const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));

export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
