import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkOptionTypes } from "../../src/options/given.js";
import { normalizeOptions } from "../../src/options/normalize.js";
import { resolveOptions } from "../../src/resolve-options.js";
import { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Counts the checks, calling the real one.
vi.mock("../../src/options/given.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/options/given.js")>();
  return { ...real, checkOptionTypes: vi.fn(real.checkOptionTypes) };
});

afterEach(() => vi.mocked(checkOptionTypes).mockClear());

/** A user's sysprompt.yaml setting every key a file may set. */
const EVERY_KEY = [
  "agent: codex",
  "agent-mode: yolo",
  "tools: [read, bash]",
  "model: gpt-5",
  "tree: true",
  "tree-depth: 4",
  "git: true",
  "deadline: 3000",
  "max-tokens: 12000",
  "rule-sources: [cursor, sysprompt]",
  "vars:",
  "  team: core",
  "",
].join("\n");

describe("the options' types are checked once a render", () => {
  it("resolveOptions checks what was given, once; the config files' values were checked as they were parsed", async () => {
    const root = tempDir();
    mkdirSync(join(root, "agent"), { recursive: true });
    writeFileSync(join(root, "agent", "sysprompt.yaml"), EVERY_KEY);
    const given = pinned(root, { configFiles: true, model: "given" });
    const resolved = await resolveOptions(given);
    expect(vi.mocked(checkOptionTypes).mock.calls).toEqual([[given]]);
    expect(resolved.config.diagnostics).toEqual([]);
    // What the files gave passes the same check the caller's options do.
    expect(() => checkOptionTypes(resolved.options)).not.toThrow();
    expect(resolved.normalized.treeDepth).toBe(4);
  });

  it("normalizeOptions reached another way (touch, simulate, the hook) still checks", async () => {
    const root = tempDir();
    await expect(normalizeOptions(pinned(root, { treeDepth: "4" as never }))).rejects.toThrow(
      new SyspromptError(
        "bad-option",
        'treeDepth: must be a whole number of levels from 1 to 8, such as 4, got "4"',
      ),
    );
    expect(vi.mocked(checkOptionTypes)).toHaveBeenCalledTimes(1);
  });
});
