import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HtmlRenderer, Parser } from "commonmark";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TouchedFile } from "../../src/gather/context/index.js";
import { replyStart } from "../../src/hook/reply.js";
import { runHook } from "../../src/hook/run.js";
import { SyspromptPlugin } from "../../src/integrations/opencode/plugin.js";
import { appendTouched } from "../../src/integrations/pi/on-touch.js";
import { tempDir } from "../api/_helpers.js";
import { geminiCall, geminiProject, geminiSends } from "./_gemini.js";

// Review rev58b F1 (medium): the files given on touch (your glob rules first,
// then a folder's AGENTS.md) are appended after the tool's result, which is
// the repository's text. One ending inside an element no reader shows
// (`<div hidden>`, `<template>`, `<details>`, a hiding style) took them into
// it: only fences, HTML blocks and comments were closed there. pi and
// opencode, which write `<` as it is, now close such an element first; the
// Gemini CLI hook, whose `<` arrive as `&lt;` (an end tag there closes
// nothing), adds nothing to such a result, and the files come with a later call.

const OPENERS: [string, string][] = [
  ["<div hidden>", "div"],
  ["<template>", "template"],
  ["<details>", "details"],
  ['<span style="display:none">', "span"],
];

/** A read's text that leaves `opener` open. */
const leftOpen = (opener: string) => `notes\n\n${opener}\nmore words`;

/** As an HTML reader renders `text`: is the end tag of `name` between `opener` and `needle`? */
function closedBefore(text: string, opener: string, name: string, needle: string): boolean {
  const html = new HtmlRenderer().render(new Parser().parse(text));
  const open = html.indexOf(opener);
  const at = html.indexOf(needle);
  expect(open).toBeGreaterThanOrEqual(0);
  expect(at).toBeGreaterThan(open);
  return html.slice(open, at).includes(`</${name}>`);
}

const FILES: TouchedFile[] = [
  {
    path: "/home/u/.pi/agent/rules/ts.md",
    content: "USER-GLOB-RULE: never push to main.",
    kind: "rule",
    name: "ts",
  },
  { path: "/p/sub/AGENTS.md", content: "SUB-MARKER: use tabs.", kind: "context" },
];

/** pi's tool result with our part appended, its text parts joined as pi joins them. */
function piJoined(output: string): string {
  const patch = appendTouched({ content: [{ type: "text", text: output }] }, FILES, "/p");
  return (patch?.content ?? []).flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n");
}

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.XDG_CACHE_HOME;
});
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
});

/** opencode's tool output after the plugin appended what a read of pkg/x.ts brings. */
async function opencodeOutput(printed: string): Promise<string> {
  const root = tempDir();
  const cwd = join(root, "p");
  const files: Record<string, string> = {
    ".git/HEAD": "ref: refs/heads/main\n",
    "pkg/x.ts": "",
    ".cursor/rules/ts.mdc": '---\nglobs: ["**/*.ts"]\n---\nUSER-GLOB-RULE: strict TS.\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(cwd, path, ".."), { recursive: true });
    writeFileSync(join(cwd, path), text);
  }
  process.env.XDG_CACHE_HOME = join(root, "cache");
  const hooks = await SyspromptPlugin({ directory: cwd });
  const read = async (sessionID: string) => {
    const output = { title: "", output: printed, metadata: {} };
    const args = { filePath: join(cwd, "pkg/x.ts") };
    await hooks["tool.execute.after"]({ tool: "read", sessionID, callID: "c", args }, output);
    return output.output;
  };
  // A first call loads the plugin's full path, which past its deadline on a loaded machine
  // gives nothing; the session read is another one.
  await read("warm-up");
  return read("s");
}

describe("hostile repository: a tool result leaving a never-shown element open does not take the files given on touch", () => {
  for (const [opener, name] of OPENERS) {
    it(`pi: a read ending inside ${opener} gets its end tag before your glob rule`, () => {
      const text = piJoined(leftOpen(opener));
      expect(text.startsWith(leftOpen(opener))).toBe(true);
      expect(closedBefore(text, opener, name, "USER-GLOB-RULE")).toBe(true);
    });

    it(`Gemini CLI: a read ending inside ${opener} gets nothing (its end tag would arrive as &lt;/${name}&gt;)`, () => {
      expect(replyStart("gemini-cli", leftOpen(opener), "read_file")).toEqual({
        nothing: `ends inside an element no reader shows (closed by "</${name}>"), whose end tag Gemini CLI writes with &lt; and &gt;, which close nothing`,
      });
    });
  }

  it("opencode: an output ending inside <div hidden> gets its end tag before your glob rule", async () => {
    const text = await opencodeOutput(leftOpen("<div hidden>"));
    expect(text.startsWith(leftOpen("<div hidden>"))).toBe(true);
    expect(closedBefore(text, "<div hidden>", "div", "USER-GLOB-RULE")).toBe(true);
  });

  it("Gemini CLI's hook: nothing after <div hidden> left open, the files with the next call", async () => {
    const { cwd, where } = geminiProject({
      "p/pkg/sub/AGENTS.md": "SUB-MARKER: use tabs.\n",
      "p/pkg/sub/x.ts": "export const x = 1;\n",
    });
    const open = leftOpen("<div hidden>");
    const first = await runHook("gemini-cli", geminiCall("s", cwd, "read_file", open), where);
    expect(first.reply).toBe("{}\n");
    expect(first.note).toMatch(/no reader shows .*; the files come with a later call$/);
    const clean = "export const x = 1;\n";
    const next = await runHook("gemini-cli", geminiCall("s", cwd, "read_file", clean), where);
    const sent = geminiSends(clean, next.reply, false);
    expect(sent).toContain("USER-GLOB-RULE");
    expect(sent).toContain("SUB-MARKER");
  });

  it("Gemini CLI: a read whose hidden element is closed gets the files, with no closer", () => {
    const closed = "notes\n\n<div hidden>\nmore words\n</div>\n";
    expect(replyStart("gemini-cli", closed, "read_file")).toEqual({ closer: "" });
  });

  it("Claude Code and Codex add the files as a message of their own: nothing of the result before them", () => {
    for (const agent of ["claude-code", "codex"] as const)
      expect(replyStart(agent, leftOpen("<div hidden>"), "Read")).toEqual({ closer: "" });
  });
});
