import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { oneLine } from "../../src/_prompt-text.js";
import { terminalName } from "../../src/_text.js";
import { cliAt, cliProject } from "./_cli-at.js";

// Review rev101e F4 (low). A name's hidden characters are written `\uXXXX` (the
// right-to-left override U+202E is `\u202e`), but a literal backslash was written as it is:
// a file named `a\u202eb.md` (backslash, `u`, `2`, `0`, `2`, `e`) printed as the one whose
// name holds U+202E, in the workspace tree, the AGENTS.md list (`<dir_context>`), a rule's
// path, `explain`, `list` and the diagnostics (`rule-duplicate` named a file as a duplicate of
// itself). A literal `\` that a `u` follows is now written `\u005c`, once, on the raw name,
// by the first escaper it meets (oneLine for the prompt, terminalName for the terminal); a
// `\` before anything else (`win\dir.md`) is written as it is.

const RULE = "---\nalwaysApply: true\n---\nSame text.\n";
const LITERAL = "\\u202e";
const HIDDEN = "\u202e";

function project() {
  const at = cliProject();
  const { p } = at;
  mkdirSync(join(p, ".cursor/rules"), { recursive: true });
  writeFileSync(join(p, `.cursor/rules/lit${LITERAL}.mdc`), RULE);
  writeFileSync(join(p, `.cursor/rules/lit${HIDDEN}.mdc`), RULE);
  mkdirSync(join(p, "docs"));
  for (const name of [`a${LITERAL}b.md`, `a${HIDDEN}b.md`, "win\\dir.md"])
    writeFileSync(join(p, "docs", name), "");
  for (const folder of [`sub${LITERAL}`, `sub${HIDDEN}`]) {
    mkdirSync(join(p, folder));
    writeFileSync(join(p, folder, "AGENTS.md"), "# Sub\n");
  }
  return at;
}

/** The lines of `text` holding `part`, trimmed. */
const linesWith = (text: string, part: string) =>
  text
    .split("\n")
    .filter((l) => l.includes(part))
    .map((l) => l.trim());

describe("hostile repository: a name spelling a hidden character's escape", () => {
  it("the escapers: a literal \\u is marked once, on the raw name; other backslashes stay", () => {
    expect(oneLine(`a${LITERAL}b.md`)).toBe("a\\u005cu202eb.md");
    expect(oneLine(`a${HIDDEN}b.md`)).toBe("a\\u202eb.md");
    expect(oneLine("win\\dir.md")).toBe("win\\dir.md");
    expect(terminalName(`a${LITERAL}b.md`)).toBe("a\\u005cu202eb.md");
    expect(terminalName(`a${HIDDEN}b.md`)).toBe("a\\u202eb.md");
    expect(terminalName("a\\d+.md")).toBe("a\\d+.md");
  });

  it("render: the tree, the AGENTS.md list, the rule and its duplicate's diagnostic name two files", async () => {
    const { p, home } = project();
    const { out, err } = await cliAt(["render", "--untrusted", "--tree"], p, home);
    const tree = out.slice(out.indexOf("<workspace_tree>"));
    expect(linesWith(tree, "a\\u").map((l) => l.split(" ")[0])).toEqual(
      expect.arrayContaining(["a\\u005cu202eb.md", "a\\u202eb.md"]),
    );
    expect(linesWith(tree, "win")[0]).toMatch(/^win\\dir\.md /);
    const dirs = out.slice(out.indexOf("<dir_context>"), out.indexOf("</dir_context>"));
    expect(linesWith(dirs, "sub")).toEqual(
      expect.arrayContaining(["- sub\\u005cu202e/AGENTS.md", "- sub\\u202e/AGENTS.md"]),
    );
    const dup = linesWith(err, "[rule-duplicate]")[0] ?? "";
    const [where = "", said = ""] = dup.split(" [rule-duplicate] ");
    const [left, kept] = [where, said].map((s) => s.slice(s.lastIndexOf("/") + 1));
    expect([left, kept].sort()).toEqual(["lit\\u005cu202e.mdc", "lit\\u202e.mdc"]);
    // The rule printed is the one the diagnostic says holds the text.
    expect(linesWith(out, "<rule ")[0]).toContain(`/.cursor/rules/${kept}"`);
  });

  it("explain and list: the rule kept and the one left out read apart", async () => {
    const { p, home } = project();
    const explained = await cliAt(["explain", "--untrusted"], p, home);
    const kept = linesWith(explained.out, "inlined ").find((l) => l.includes("lit")) ?? "";
    const left = linesWith(explained.out, "deduped ").find((l) => l.includes("lit")) ?? "";
    const file = (l: string) => l.split(/\s+/)[1] ?? "";
    expect([file(kept), file(left)].sort()).toEqual([
      ".cursor/rules/lit\\u005cu202e.mdc",
      ".cursor/rules/lit\\u202e.mdc",
    ]);
    const listed = await cliAt(["list"], p, home);
    const rule = linesWith(listed.out, "always").find((l) => l.startsWith("lit")) ?? "";
    const dup = linesWith(listed.err, "[rule-duplicate]")[0] ?? "";
    const where = (dup.split(" [rule-duplicate] ")[0] ?? "").split(" ").pop() ?? "";
    expect(rule.slice(rule.lastIndexOf("/") + 1)).not.toBe(where.slice(where.lastIndexOf("/") + 1));
    expect(rule).toMatch(/lit(\\u005cu202e|\\u202e)\.mdc$/);
  });
});
