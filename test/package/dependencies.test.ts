import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Every runtime dependency is one some code in src/ imports: an unused one
// (picocolors, after colours moved into src/cli/colors.ts) is installed for
// every user and drifts unseen.

const ROOT = join(import.meta.dirname, "..", "..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) =>
      e.isDirectory()
        ? sources(join(dir, e.name))
        : e.name.endsWith(".ts")
          ? [join(dir, e.name)]
          : [],
    );
}

describe("package dependencies", () => {
  it("every runtime dependency in package.json is imported by src/", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const text = sources(join(ROOT, "src"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const unused = Object.keys(pkg.dependencies).filter(
      // `from "name"`, `from "name/x"`, or a dynamic `import(…)` / `require(…)(…)` of `name/x`.
      (name) => !new RegExp(`(from\\s+|\\(\\s*)["'\`]${name}[/"'\`]`).test(text),
    );
    expect(unused).toEqual([]);
  });
});
