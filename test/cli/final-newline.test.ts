import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { NOW, tempDir } from "../api/_helpers.js";
import { pinMachine } from "./_run.js";

pinMachine();

// The prompt is the product: into a pipe, a file (`> prompt.md`, `-o FILE`) or
// another agent's export file it goes as `result.text`, byte for byte, which
// is what `--json`'s `text` holds and what pi receives. On a terminal it is
// shown as a report, which ends its last line.

function project(): string {
  const root = tempDir();
  mkdirSync(join(root, "project", ".pi", "prompts"), { recursive: true });
  mkdirSync(join(root, "agent"), { recursive: true });
  writeFileSync(join(root, "project", "AGENTS.md"), "Run npm test.\n");
  writeFileSync(join(root, "project", ".pi", "prompts", "review.md"), "Review $1.");
  return root;
}

async function cli(root: string, argv: string[], isTTY: boolean) {
  let stdout = "";
  const [command = "render", ...rest] = argv;
  const pinned = command === "expand" ? [] : ["--agent-dir", join(root, "agent"), "--now", NOW];
  const code = await run([command, ...pinned, ...rest], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    cwd: join(root, "project"),
    env: { NO_COLOR: "1" },
    home: join(root, "home"),
    machine: { platform: "linux", arch: "x64" },
    isTTY,
  });
  return { code, stdout };
}

describe("the prompt's last byte", () => {
  it("a pipe or a file gets the text exactly; a terminal gets it with its last line ended", async () => {
    const root = project();
    const { text, sections } = JSON.parse((await cli(root, ["render", "--json"], false)).stdout);
    expect(text.endsWith("\n")).toBe(false);
    expect(await cli(root, ["render"], false)).toEqual({ code: 0, stdout: text });
    expect(await cli(root, ["render"], true)).toEqual({ code: 0, stdout: `${text}\n` });

    const cwd = sections.find((s: { name: string }) => s.name === "cwd").text;
    expect(await cli(root, ["render", "--section", "cwd"], false)).toEqual({
      code: 0,
      stdout: cwd,
    });
    expect(await cli(root, ["render", "--section", "cwd"], true)).toEqual({
      code: 0,
      stdout: `${cwd}\n`,
    });
  });

  it("-o FILE and an export file hold the text exactly, as --json's text and pi have it", async () => {
    const root = project();
    const { text } = JSON.parse((await cli(root, ["render", "--json"], false)).stdout);
    await cli(root, ["render", "-o", "prompt.md"], true);
    expect(readFileSync(join(root, "project", "prompt.md"), "utf8")).toBe(text);
    const { text: codex } = JSON.parse(
      (await cli(root, ["render", "--json", "--agent", "codex"], false)).stdout,
    );
    await cli(root, ["export", "--agent", "codex", "--out", "codex.md"], true);
    expect(readFileSync(join(root, "project", "codex.md"), "utf8")).toBe(codex);
  });

  it("expand's text follows the same rule", async () => {
    const root = project();
    expect(await cli(root, ["expand", "/review a.ts"], false)).toEqual({
      code: 0,
      stdout: "Review a.ts.",
    });
    expect(await cli(root, ["expand", "/review a.ts"], true)).toEqual({
      code: 0,
      stdout: "Review a.ts.\n",
    });
  });
});
