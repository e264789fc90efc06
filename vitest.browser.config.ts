import { defineConfig } from "vitest/config";

// `npm run test:browser`: the inspector in Debian's chromium (see test/browser/).
// Kept out of `npm test`, which must not need a browser.
export default defineConfig({
  test: {
    include: ["test/browser/**/*.browser.ts"],
    env: { TZ: "UTC" },
    // A cold chromium start takes a few seconds on a loaded 2-core machine.
    hookTimeout: 60_000,
    testTimeout: 30_000,
  },
});
