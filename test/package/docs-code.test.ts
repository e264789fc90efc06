import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { ensureBuilt } from "../catalogue/_built.js";
import { docPages, fenced, REPO, readDoc } from "../docs/_docs.js";

// Every `ts` block of the README and docs/ type-checks against the built
// package's declarations, imported as a user imports them (`from "sysprompt"`),
// under this repository's strict settings: a renamed function, option or field
// in the library fails here instead of in a reader's editor. A block that uses
// a name it does not define (the previous result, a host's own `send`) gets
// that name declared, as the page implies it, and nothing else. Every `js`
// block (the provider hosts, which call a provider's API that no test reaches)
// at least parses as an ES module.

/** What a block uses without defining it, by the text that marks the block. */
const GIVEN: { marks: string; prelude: string }[] = [
  {
    marks: "diffSections(previous.sections",
    prelude:
      'import type { RenderResult } from "sysprompt";\ndeclare const previous: RenderResult;',
  },
  {
    marks: "if (changes) send(changes)",
    prelude: "declare function send(changes: Record<string, string | null>): void;",
  },
  {
    marks: 'session.contextFor(["pkg/sub/x.ts"])',
    prelude: 'import { createPromptSession } from "sysprompt";',
  },
];

function blocks(): { name: string; text: string }[] {
  return docPages().flatMap((page) =>
    fenced(readDoc(page), "ts").map((text, i) => {
      const given = GIVEN.filter((g) => text.includes(g.marks)).map((g) => g.prelude);
      return { name: `${page}#${i + 1}`, text: [...given, "", text].join("\n") };
    }),
  );
}

/** A folder where `sysprompt` is this checkout, as a project that installed it sees it. */
function consumer(files: { name: string; text: string }[]): string {
  const dir = tempDir();
  mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
  symlinkSync(REPO, join(dir, "node_modules", "sysprompt"));
  symlinkSync(join(REPO, "node_modules", "vitest"), join(dir, "node_modules", "vitest"));
  symlinkSync(
    join(REPO, "node_modules", "@types", "node"),
    join(dir, "node_modules", "@types", "node"),
  );
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        lib: ["ES2023"],
        types: ["node"],
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        noEmit: true,
        // A page's snippet may name a value only to show it (`result.text;`).
        noUnusedLocals: false,
      },
      include: ["*.ts"],
    }),
  );
  for (const f of files) {
    writeFileSync(join(dir, `${f.name.replace(/[^a-z0-9]+/gi, "-")}.ts`), f.text);
  }
  return dir;
}

function tsc(dir: string) {
  const bin = join(REPO, "node_modules", "typescript", "bin", "tsc");
  return spawnSync(process.execPath, [bin, "-p", dir], { encoding: "utf8" });
}

describe("the docs' ts and js blocks", () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 300_000);

  it("type-check against the package, as a user imports it", { timeout: 120_000 }, () => {
    const all = blocks();
    expect(all.length).toBeGreaterThanOrEqual(7);
    const out = tsc(consumer(all));
    expect([out.status, out.stdout]).toEqual([0, ""]);
  });

  it("and every js block parses as an ES module", () => {
    const js = docPages().flatMap((page) => fenced(readDoc(page), "js"));
    expect(js.length).toBeGreaterThanOrEqual(2);
    const dir = tempDir();
    const failed = js.flatMap((text, i) => {
      const file = join(dir, `block-${i}.mjs`);
      writeFileSync(file, text);
      const out = spawnSync(process.execPath, ["--check", file], { encoding: "utf8" });
      return out.status === 0 ? [] : [`${text.split("\n")[0]}: ${out.stderr}`];
    });
    expect(failed).toEqual([]);
  });

  it("fail on a name the library does not have", { timeout: 120_000 }, () => {
    const out = tsc(
      consumer([
        {
          name: "wrong",
          text: 'import { renderSystemPrompt } from "sysprompt";\n(await renderSystemPrompt({ cwd: "." })).txt;\n',
        },
      ]),
    );
    expect(out.status).toBe(2);
    expect(out.stdout).toContain("Property 'txt' does not exist");
  });
});
