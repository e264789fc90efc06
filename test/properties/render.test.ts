import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../src/engine/index.js";
import {
  type PreparedPrompt,
  preparePrompt,
  renderPrepared,
  renderSystemPrompt,
} from "../../src/render-system-prompt.js";
import { layerSections } from "../../src/sections/layer.js";
import { parseSectionFile } from "../../src/sections/load.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { promptData, sectionFile, valueText } from "./_arbitraries.js";

// Rendering is deterministic: the same prepared input gives the same bytes,
// the same sections and the same diagnostics, whether the engine has the
// templates compiled and cached or compiles them afresh. And the same files
// give the same result twice.

/** What a render returns, without the gathering timings (measured, so never the same). */
const stable = (r: ReturnType<typeof renderPrepared>) => ({
  text: r.text,
  sections: r.sections,
  diagnostics: r.diagnostics,
});

describe("rendering is deterministic", () => {
  let base: PreparedPrompt;
  beforeAll(async () => {
    const root = tempDir();
    base = await preparePrompt(pinned(root, { noContextFiles: true }));
  });

  it("from prepared data: any data, any extra section; twice, and with a fresh engine", () => {
    fc.assert(
      fc.property(promptData, fc.option(sectionFile, { nil: undefined }), (data, file) => {
        const extra =
          file === undefined ? undefined : parseSectionFile("zz", file, "/p/zz.md", "project");
        const prepared: PreparedPrompt = {
          ...base,
          data,
          templates: extra?.section
            ? layerSections([...base.templates, extra.section])
            : base.templates,
        };
        const first = stable(renderPrepared(prepared));
        expect(stable(renderPrepared(prepared))).toEqual(first);
        expect(stable(renderPrepared(prepared, createEngine()))).toEqual(first);
      }),
      { numRuns: 300 },
    );
    // 300 runs of three renders, one with a fresh engine that compiles every
    // builtin section again (project_rules made them 16, git 17): seconds on a shared machine.
  }, 45_000);

  it("from files: the same project renders the same twice", async () => {
    await fc.assert(
      fc.asyncProperty(valueText, sectionFile, async (agents, section) => {
        const root = tempDir();
        const sections = join(root, "project", ".pi", "sections");
        mkdirSync(sections, { recursive: true });
        writeFileSync(join(root, "project", "AGENTS.md"), agents);
        writeFileSync(join(sections, "zz.md"), section);
        const options = pinned(root, { workspaceTree: true, treeMtime: "2026-01-10T09:00:00Z" });
        const first = stable(await renderSystemPrompt(options));
        expect(stable(await renderSystemPrompt(options))).toEqual(first);
      }),
      { numRuns: 20 },
    );
  });
});
