// A real Chromium for browser tests: Debian's package (.ci/run installs it), or CHROMIUM_PATH.
// Without it, the tests that need it are skipped with a warning, unless OTELGATE_REQUIRE_CHROMIUM
// is set (as .ci/run sets it): then its absence fails them. A fresh machine with only Node runs
// the rest of the suite, as the README's test command promises.
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Whether the tests that need Chromium run here; throws where they must run and can't. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env['OTELGATE_REQUIRE_CHROMIUM'] !== undefined) {
    throw new Error(`OTELGATE_REQUIRE_CHROMIUM is set but there is no Chromium at ${CHROMIUM}: apt-get install -y chromium, or CHROMIUM_PATH naming another`);
  }
  console.warn(`No Chromium at ${CHROMIUM} (apt-get install -y chromium): the browser tests are skipped`);
  return false;
}
