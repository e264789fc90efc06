import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles } from "../../src/gather/context/index.js";
import { loadSkills } from "../../src/skills/load.js";
import { tempDir } from "../api/_helpers.js";

// Review rev60b F4: an AGENTS.md saved as UTF-16 with its byte-order mark (as
// Windows editors save "Unicode" text) was skipped as "binary file (NUL
// bytes)": not silent, but the reason was wrong and the fix unsaid. One in
// UTF-16 big-endian of text with no NUL byte (CJK) went into the prompt as
// U+FFFD garbage. Now a file that starts with a UTF-16 or UTF-32 byte-order
// mark is named as such and skipped, with the fix: save it as UTF-8.

/** `text` as UTF-16, little- or big-endian, with its byte-order mark. */
function utf16(text: string, endian: "le" | "be"): Buffer {
  const le = Buffer.from(`\ufeff${text}`, "utf16le");
  return endian === "le" ? le : le.swap16();
}

function project() {
  const base = tempDir();
  const root = join(base, "repo");
  mkdirSync(join(root, ".git"), { recursive: true });
  return { root, home: join(base, "home") };
}

const named = (path: string, encoding: string, mark: string) => ({
  level: "warning",
  code: "file-encoding",
  message: `${encoding} text (byte-order mark ${mark}), not UTF-8: skipped; save it as UTF-8`,
  path,
});

describe("hostile repository: context files in UTF-16", () => {
  it("a UTF-16 AGENTS.md is named as UTF-16 and the fix said", async () => {
    const { root, home } = project();
    writeFileSync(join(root, "AGENTS.md"), utf16("# Project rules\nUse tabs.\n", "le"));
    const { files, diagnostics } = await loadContextFiles({
      cwd: root,
      home,
      agentDir: join(home, "agent"),
    });
    expect(files).toEqual([]);
    expect(diagnostics).toContainEqual(named(join(root, "AGENTS.md"), "UTF-16", "FF FE"));
  });

  it("big-endian text with no NUL byte is not read as garbage", async () => {
    const { root, home } = project();
    writeFileSync(join(root, "AGENTS.md"), utf16("中文规则", "be"));
    const { files, diagnostics } = await loadContextFiles({
      cwd: root,
      home,
      agentDir: join(home, "agent"),
    });
    expect(files.map((f) => f.content)).toEqual([]);
    expect(diagnostics).toContainEqual(named(join(root, "AGENTS.md"), "UTF-16", "FE FF"));
  });

  it("a skill read whole says the same", async () => {
    const { root, home } = project();
    const dir = join(root, ".agents", "skills", "wide");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "SKILL.md");
    writeFileSync(file, utf16("---\nname: wide\ndescription: A wide skill.\n---\nBody.\n", "le"));
    const { skills, diagnostics } = await loadSkills({
      cwd: root,
      home,
      agentDir: join(home, "agent"),
    });
    expect(skills).toEqual([]);
    expect(diagnostics).toContainEqual(named(file, "UTF-16", "FF FE"));
  });
});
