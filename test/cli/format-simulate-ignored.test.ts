import { describe, expect, it } from "vitest";
import type { SimulationReport } from "../../src/author/simulate/simulate.js";
import { paletteFor } from "../../src/cli/colors.js";
import { formatSimulation } from "../../src/cli/commands/_format-simulate.js";

const plain = paletteFor({ isTTY: false, env: {} });
const show = (path: string) => path.replace("/p/", "");

/** A report of a project that could not be copied, with `ignored` folders and `ignoredFiles` left out. */
const report = (ignored: string[], ignoredFiles: string[] = []): SimulationReport => ({
  tokenizer: { encoding: "o200k_base", estimate: true },
  project: { root: "/p", cwd: "/p" },
  baseline: {
    bytes: 0,
    tokens: 0,
    sections: [],
    byClass: {
      stable: { bytes: 0, tokens: 0 },
      session: { bytes: 0, tokens: 0 },
      volatile: { bytes: 0, tokens: 0 },
    },
  },
  actions: [],
  skipped: [],
  ignored,
  ignoredFiles,
  diagnostics: [
    {
      level: "error",
      code: "simulate-copy",
      message: "not simulated: … more than 10000 entries besides what git ignores …",
      path: "/p/many/f1",
    },
  ],
});

describe("explain --simulate's text on folders and files git ignores", () => {
  it("names the first five left out and counts the rest; says nothing was simulated and that the error follows", () => {
    const folders = ["dist", ".bench", "coverage", "out", "tmp", "a/build", "b/build"];
    expect(formatSimulation(report(folders.map((f) => `/p/${f}`)), show, plain)).toBe(
      [
        "simulated in a temporary copy of /p (the project is not written); tokens are an o200k_base estimate",
        "  not copied: 7 folders git ignores (dist/, .bench/, coverage/, out/, tmp/ and 2 more)",
        "nothing simulated (1 error below)",
        "",
      ].join("\n"),
    );
  });

  it("names ignored files after the folders, without a slash, and counts each kind", () => {
    expect(formatSimulation(report(["/p/dist"], ["/p/dev.db"]), show, plain)).toContain(
      "  not copied: 1 folder and 1 file git ignores (dist/, dev.db)\n",
    );
    expect(formatSimulation(report([], ["/p/a.db", "/p/b.db"]), show, plain)).toContain(
      "  not copied: 2 files git ignores (a.db, b.db)\n",
    );
  });

  it("no line for none", () => {
    expect(formatSimulation(report([]), show, plain)).toBe(
      [
        "simulated in a temporary copy of /p (the project is not written); tokens are an o200k_base estimate",
        "nothing simulated (1 error below)",
        "",
      ].join("\n"),
    );
  });
});
