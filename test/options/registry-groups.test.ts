import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPTIONS } from "../../src/options/registry.js";

// The registry is assembled from one module per subject (src/options/registry/);
// one object literal refused a repeated key, a spread of several does not.

const FOLDER = new URL("../../src/options/registry/", import.meta.url);

/** Every group module's exported options object, in file name order. */
async function groups(): Promise<[string, Record<string, unknown>][]> {
  const files = readdirSync(FOLDER)
    .filter((f) => f.endsWith(".ts") && !f.startsWith("_"))
    .sort();
  const found: [string, Record<string, unknown>][] = [];
  for (const file of files) {
    const module = (await import(new URL(file, FOLDER).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (name.endsWith("_OPTIONS"))
        found.push([`${file} ${name}`, value as Record<string, unknown>]);
    }
  }
  return found;
}

describe("the option registry's groups", () => {
  it("each option is declared in exactly one group, and every group is in OPTIONS", async () => {
    const declared = (await groups()).flatMap(([, group]) => Object.keys(group));
    expect(declared.length).toBeGreaterThan(0);
    expect(declared.filter((name, i) => declared.indexOf(name) !== i)).toEqual([]);
    expect([...declared].sort()).toEqual(Object.keys(OPTIONS).sort());
  });

  it("OPTIONS holds each group's own entries", async () => {
    for (const [, group] of await groups()) {
      for (const [name, spec] of Object.entries(group)) {
        expect(OPTIONS[name as keyof typeof OPTIONS]).toBe(spec);
      }
    }
  });
});
