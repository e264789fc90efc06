import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { builtinHelpers } from "../../helpers/index.js";
import { dataMatrix } from "../../src/author/check/_matrix.js";
import { checkTemplate } from "../../src/author/check/_template-check.js";
import { checkProject } from "../../src/author/check/check.js";
import { PROMPT_DATA_SCHEMA } from "../../src/data.js";
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
import { frontmatterSource, sectionFile, templateSource } from "./_arbitraries.js";

// A bounded fuzz run: random templates and frontmatter (built from the tokens
// that matter to Handlebars and YAML) through everything that reads them, the
// way `sysprompt check` and a render do. No input may throw out of them or
// hang: each case is timed, and the bound is generous (a case is one small
// template; the engine's own limits stop any template long before it).
//
// FUZZ_RUNS=<n> runs n cases in memory (default 3,000) and n/80 batches of 25
// files on disk (default 38 batches, 950 files).

const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
/** Per case, in memory. Generous: a case takes about a millisecond; a loaded CI machine is slow. */
const CASE_MS = 2000;
/** Per batch of 25 files, on disk through checkProject and a render: about 0.2 s here. */
const BATCH_MS = 20_000;

const HANDLEBARS_HELPERS = ["if", "unless", "each", "with", "lookup"];

describe("fuzz: random templates and frontmatter", () => {
  let base: PreparedPrompt;
  beforeAll(async () => {
    base = await preparePrompt(pinned(tempDir(), { noContextFiles: true }));
  });

  it(`${RUNS} section files, in memory: parsed, checked, layered over the builtin sections and rendered with check's data cases`, () => {
    const engine = createEngine();
    const cases = dataMatrix([]);
    const context = {
      helpers: new Set([...Object.keys(builtinHelpers), ...HANDLEBARS_HELPERS]),
      partials: new Set(["p", "base"]),
      root: PROMPT_DATA_SCHEMA,
      fieldLevel: "error" as const,
      isPartial: false,
    };
    let slowest = 0;
    fc.assert(
      fc.property(
        sectionFile,
        templateSource,
        fc.constantFrom("rules", "tools", "zz"),
        fc.nat(cases.length - 1),
        (file, partial, name, which) => {
          const started = performance.now();
          const parsed = parseSectionFile(name, file, `/p/.pi/sections/${name}.md`, "project");
          if (parsed.section) {
            checkTemplate(parsed.section.body, context, engine);
            const data = cases[which]?.data ?? base.data;
            const prepared: PreparedPrompt = {
              ...base,
              data,
              templates: layerSections([...base.templates, parsed.section]),
              partials: { ...base.partials, p: partial },
            };
            const result = renderPrepared(prepared, engine);
            expect(result.sections.length).toBeGreaterThan(0);
          }
          slowest = Math.max(slowest, performance.now() - started);
        },
      ),
      { numRuns: RUNS },
    );
    expect(slowest).toBeLessThan(CASE_MS);
  }, 120_000);

  it(`${Math.ceil(RUNS / 80)} projects of 25 files on disk, through checkProject and renderSystemPrompt`, async () => {
    let slowest = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(sectionFile, { minLength: 25, maxLength: 25 }),
        fc.array(templateSource, { minLength: 2, maxLength: 2 }),
        frontmatterSource,
        async (files, [p = "", system = ""], skillFront) => {
          const root = tempDir();
          const pi = join(root, "project", ".pi");
          for (const dir of ["sections", "partials", "skills/s", "prompts"]) {
            mkdirSync(join(pi, dir), { recursive: true });
          }
          // Some override builtin sections, so their fallbacks run too.
          const names = ["rules", "tools", "cwd", "skills", "project_context"];
          files.forEach((text, i) => {
            writeFileSync(join(pi, "sections", `${names[i] ?? `s${i}`}.md`), text);
          });
          writeFileSync(join(pi, "partials", "p.md"), p);
          writeFileSync(join(pi, "SYSTEM_TEMPLATE.md"), system);
          writeFileSync(join(pi, "skills", "s", "SKILL.md"), `---\n${skillFront}\n---\nBody.\n`);
          writeFileSync(join(pi, "prompts", "t.md"), `---\n${skillFront}\n---\n${p}`);
          const options = pinned(root);
          const started = performance.now();
          const report = await checkProject({
            cwd: options.cwd,
            agentDir: options.agentDir,
            home: options.home,
            env: {},
          });
          const result = await renderSystemPrompt(options);
          slowest = Math.max(slowest, performance.now() - started);
          expect(report.templates.length).toBeGreaterThan(0);
          expect(result.sections.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: Math.ceil(RUNS / 80) },
    );
    expect(slowest).toBeLessThan(BATCH_MS);
  }, 120_000);
});
