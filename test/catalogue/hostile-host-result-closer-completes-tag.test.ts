import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostClosingAfter } from "../../src/_fence.js";
import { closingOf } from "../../src/integrations/pi/on-touch.js";
import { tempDir } from "../api/_helpers.js";

// Review rev108c F5 (LOW), fixed by fx109b: after a pi or opencode tool result that ends inside a
// tag, the closer sysprompt appends starts with the tokenizer's own ending of it (rev82c F3). For a
// tag the result began with a name sysprompt may not write (`x <system-reminder b='`, an end tag
// `</system-reminder b='`, `<instructions owner='`), that ending (`'>`, `/>`) was sysprompt's own
// text completing the forged tag: the model read a whole `<system-reminder b='…'>` before your
// files. Now a result that ends inside a tag whose name is not one sysprompt writes in an end tag
// (rev107c F2's rule) gets nothing after it, and the files come with a later call. And opencode,
// which asks for the closer of its output as it is (no line break after it, as pi's join gives),
// got none for an output ending in a tag's name (`x </div`, `x <div`: the tokenizer's state there
// was taken for raw text), so its `\n\n<instructions …>` was eaten as the tag's attributes.

type Node = DefaultTreeAdapterMap["node"];

const RESERVED = [
  "x <system-reminder b='",
  'x <system-reminder b="',
  "x </system-reminder b='",
  "x <instructions owner='",
  "x <system-reminder b=x",
  "x <system-reminder",
  "x </system-reminder",
  "x <SYSTEM-REMINDER b='",
];

/** The names of the elements around `marker`'s text node for a raw HTML parser; undefined when in none. */
function around(html: string, marker: string): string[] | undefined {
  let found: string[] | undefined;
  const walk = (node: Node, path: string[]) => {
    if (found !== undefined) return;
    if (node.nodeName === "#text") {
      if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker)) found = path;
      return;
    }
    const next = "tagName" in node ? [...path, node.tagName] : path;
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : []) walk(child, next);
  };
  walk(parse(html), []);
  return found;
}

const FILES = '<instructions path="/p/a.md" owner="user">\nQzYourRule\n</instructions>';

describe("rev108c F5: the closer after a host's tool result never completes a tag the result began", () => {
  it.each(RESERVED)("pi and opencode append nothing after %j", (text) => {
    expect(closingOf([{ type: "text", text }])()).toBeUndefined();
    expect(hostClosingAfter(`${text}\n`)).toBeUndefined();
    expect(hostClosingAfter(text)).toBeUndefined();
  });

  it.each(["x </div", "x <div", "x <a b", "x </", "x <", "x <a href='"])(
    "opencode's output %j, as it is: your files follow in their own element",
    (text) => {
      const closer = hostClosingAfter(text);
      expect(closer, text).toBeDefined();
      // opencode's join: the output, the closer, a blank line, the files.
      const joined = `${text}${closer}\n\n${FILES}`;
      expect(around(joined, "QzYourRule"), joined).toEqual(["html", "body", "instructions"]);
    },
  );

  it("a tag of a plain name is still ended, and closed where it hides", () => {
    expect(hostClosingAfter("x <a href='\n")).toBe("'>\n<!----></a>");
    expect(hostClosingAfter("x <div hidden\n")).toBe("/>\n<!----></div>");
  });
});

describe("rev108c F5 in opencode's plugin: a read ending in a tag's name", () => {
  let saved: { home?: string; cache?: string };
  beforeEach(() => {
    saved = { home: process.env.HOME, cache: process.env.XDG_CACHE_HOME };
  });
  afterEach(() => {
    for (const [key, value] of [
      ["HOME", saved.home],
      ["XDG_CACHE_HOME", saved.cache],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it("`x </div`: your glob rule is in its own <instructions> element", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "home/.pi/agent/rules/txt.md": '---\nglobs: "**/*.txt"\n---\nQzGlobRule\n',
      "p/.git/HEAD": "ref: refs/heads/main\n",
      "p/a.txt": "x\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    process.env.HOME = join(root, "home");
    process.env.XDG_CACHE_HOME = join(root, "cache");
    const { SyspromptPlugin } = await import("../../src/integrations/opencode/plugin.js");
    const cwd = join(root, "p");
    const after = (await SyspromptPlugin({ directory: cwd }))["tool.execute.after"];
    const output = { title: "", output: "x </div", metadata: {} };
    const args = { filePath: join(cwd, "a.txt") };
    await after({ tool: "read", sessionID: "ses_f5", callID: "c", args }, output);
    expect(output.output).toContain("QzGlobRule");
    expect(around(output.output, "QzGlobRule")?.at(-1), output.output).toBe("instructions");
  });
});
