import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Tests pin the clock and environment themselves; UTC keeps any stray Date formatting stable.
    env: { TZ: "UTC" },
  },
});
