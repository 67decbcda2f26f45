// Compares text with a golden file in testdata/. A golden file that is missing fails the test, as
// one that differs does: a test never writes one on its own, or a golden file lost, misnamed or
// never committed would pass unnoticed.
//
// UPDATE_GOLDEN=1 writes every golden file the tests run reach (new ones, and changed output you
// mean to keep), e.g. `UPDATE_GOLDEN=1 npx vitest run test/otlp/golden.test.ts`; review the diff
// in testdata/ and commit it with the change that caused it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './cli.js';

export const UPDATING_GOLDEN = process.env['UPDATE_GOLDEN'] === '1';

export function expectGolden(relativePath: string, actual: string): void {
  const file = `${ROOT}/testdata/${relativePath}`;
  if (UPDATING_GOLDEN) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
  }
  if (!existsSync(file)) throw new Error(`golden file testdata/${relativePath} is missing; write it with UPDATE_GOLDEN=1, review it and commit it`);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
