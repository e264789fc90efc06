import { linkSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The look at your private places (src/repo-files/own-private.ts) is made once per render, not
// once per render step: keyed by each step's signal, and a read with none (the builtin layer,
// your config) by a window of a second, a render looked two times here, and under valgrind
// (30 times slower) once per builtin section: cli-instr went from 717 M to 807 M instructions
// (review fx104b). A look realpaths each private place once: the realpaths of `~/.gnupg` count
// the looks.
const realpaths: string[] = [];
vi.mock("../../src/_realpath.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/_realpath.js")>();
  return {
    ...real,
    realpathSyncLinear: (path: string, ...rest: unknown[]) => {
      realpaths.push(path);
      return (real.realpathSyncLinear as (p: string, ...r: unknown[]) => string)(path, ...rest);
    },
  };
});

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A home with a key, and your agent folder full of files of yours: each step reads some. */
function yourSetup(): { root: string; home: string; agentDir: string } {
  const root = tempDir();
  const home = join(root, "home");
  put(join(home, ".ssh/id_rsa"), "KEY\n");
  const agentDir = join(home, ".pi/agent");
  put(join(agentDir, "AGENTS.md"), "YOUR-AGENTS-MARKER\n");
  put(join(agentDir, "sections/mine.md"), "---\norder: 5\n---\nYOUR-SECTION-MARKER\n");
  put(join(agentDir, "skills/demo/SKILL.md"), "---\nname: demo\ndescription: a demo\n---\nbody\n");
  put(join(agentDir, "sysprompt.yaml"), "tools: [read, bash]\n");
  put(join(home, "notes/rule.md"), "YOUR-HARD-LINKED-MARKER\n");
  linkSync(join(home, "notes/rule.md"), join(agentDir, "APPEND_SYSTEM.md"));
  put(join(root, "project/.git/HEAD"), "ref: refs/heads/main\n");
  put(join(root, "project/AGENTS.md"), "PROJECT-MARKER\n");
  return { root, home, agentDir };
}

const looksAt = (home: string) => realpaths.filter((p) => p === join(home, ".gnupg")).length;

describe("one look at your private places per render", () => {
  beforeEach(() => {
    realpaths.length = 0;
  });

  it("a render reading your config, layer, AGENTS.md and skills looks once", async () => {
    const { root, home, agentDir } = yourSetup();
    const result = await renderSystemPrompt(
      pinned(root, { agentDir, configFiles: true, deadlineMs: 60_000 }),
    );
    expect(result.diagnostics.filter((d) => d.code === "config-refused")).toEqual([]);
    expect(result.text).toContain("YOUR-AGENTS-MARKER");
    expect(result.text).toContain("YOUR-SECTION-MARKER");
    // A file of the agent dir with more than one name is refused (review rev108b F4).
    expect(result.text).not.toContain("YOUR-HARD-LINKED-MARKER");
    expect(looksAt(home)).toBe(1);
  });

  it("the next render (a watch rebuild, a serve request) looks again, once", async () => {
    const { root, home, agentDir } = yourSetup();
    const options = pinned(root, { agentDir, configFiles: true, deadlineMs: 60_000 });
    await renderSystemPrompt(options);
    await renderSystemPrompt(options);
    expect(looksAt(home)).toBe(2);
  });

  it("a key hard-linked in after a render is refused by the next", async () => {
    const { root, home, agentDir } = yourSetup();
    const options = pinned(root, { agentDir, deadlineMs: 60_000 });
    expect((await renderSystemPrompt(options)).text).toContain("YOUR-AGENTS-MARKER");
    linkSync(join(home, ".ssh/id_rsa"), join(agentDir, "sections/key.md"));
    const next = await renderSystemPrompt(options);
    expect(next.text).not.toContain("KEY\n");
    expect(next.diagnostics.map((d) => d.message).join("\n")).toMatch(
      /another name \(a hard link\) of ~\/\.ssh\/id_rsa/,
    );
  });
});
