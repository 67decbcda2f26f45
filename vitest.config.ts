import { defineConfig } from 'vitest/config';

// The suite runs in UTC whatever the machine's zone, so that what depends on the system's zone
// (Time() without a location) gives the same answers everywhere; the workers inherit it.
process.env.TZ = 'UTC';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
