// Compares text with a golden file in testdata/; UPDATE_GOLDEN=1 rewrites the file instead (review the diff).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import { ROOT } from './cli.js';

export function expectGolden(relativePath: string, actual: string): void {
  const file = `${ROOT}/testdata/${relativePath}`;
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(file)) {
    if (process.env['CI'] === 'true') throw new Error(`golden file ${relativePath} is missing`);
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
