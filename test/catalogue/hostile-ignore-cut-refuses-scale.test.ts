import { Buffer } from "node:buffer";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { createPromptSession } from "../../src/session/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";

// The door's ignore rules had the tree's caps: 2,000 patterns a file, 10,000
// a checker, 256 KiB a file, no pattern over 4,096 characters or with three
// `**`, and a NUL byte dropped the whole file. For the tree a cut shows a
// few extra names; for the door it let a file git ignores into an untrusted
// prompt, and a file named by `.gemini/settings.json` into a trusted one
// (review rev50a F1). A cut is now a refusal: below an ignore file not read
// whole, no path passes; and the long and NUL shapes are read as git reads them.

const junk = (n: number, width = 0) =>
  Array.from({ length: n }, (_, i) => `junk${i}.tmp`.padEnd(width, "x")).join("\n");

/** A repository `p` with `files`, and a home: the cwd and render options. */
function repo(files: Record<string, string>) {
  const base = tempDir();
  writeFiles(base, { "home/.pi/agent/.keep": "", ...files });
  execFileSync("git", ["init", "-q", join(base, "p")]);
  const home = join(base, "home");
  return { cwd: join(base, "p"), home, agentDir: join(home, ".pi", "agent"), env: {} };
}

/** The paths of `cwd` git ignores, of `paths`. */
function gitIgnores(cwd: string, paths: readonly string[]): string[] {
  try {
    return execFileSync("git", ["check-ignore", "--no-index", ...paths], { cwd, encoding: "utf8" })
      .split("\n")
      .filter((l) => l !== "");
  } catch {
    return []; // exit 1: none ignored
  }
}

const SECRET = "token: SECRET-LOCAL-MARKER\n";

const SHAPES: Record<string, Record<string, string>> = {
  "the 2,001st pattern": { "p/.gitignore": `${junk(2000)}\nconfig/local.yml\n` },
  "a pattern past the 256 KiB read": { "p/.gitignore": `${junk(1900, 145)}\nconfig/local.yml\n` },
  "one 270,000-byte line first": { "p/.gitignore": `${"j".repeat(270_000)}\nconfig/local.yml\n` },
  "three **": { "p/.gitignore": "**/config/**/prod/**/local.yml\n" },
  "the checker's 10,000 patterns spent by earlier folders": {
    ...Object.fromEntries(
      ["a", "b", "c", "d", "e", "f"].flatMap((d) => [
        [`p/${d}/.gitignore`, `${junk(2000)}\n`],
        [`p/${d}/x.md`, `${d} notes\n`],
      ]),
    ),
    "p/config/.gitignore": "local.yml\n",
  },
};

/** The imported path of each shape: where its `local.yml` lies. */
const target = (shape: string) =>
  shape === "three **" ? "config/prod/local.yml" : "config/local.yml";

describe("hostile repository: an ignore file the door cannot read whole", () => {
  for (const [shape, files] of Object.entries(SHAPES)) {
    it(`${shape}: git ignores the file, and an untrusted import is refused`, async () => {
      const file = target(shape);
      const imports = shape.startsWith("the checker")
        ? "@a/x.md\n@b/x.md\n@c/x.md\n@d/x.md\n@e/x.md\n@f/x.md\n"
        : "";
      const r = repo({
        ...files,
        [`p/${file}`]: SECRET,
        "p/AGENTS.md": `# P\n${imports}@${file}\n`,
      });
      expect(gitIgnores(r.cwd, [file])).toEqual([file]);
      const out = await renderSystemPrompt({ ...r, projectTrusted: false });
      expect(out.text).not.toContain("SECRET-LOCAL-MARKER");
      // Past the spent budget, f/x.md is refused too: not proven kept, so not read.
      const refused = out.diagnostics.filter((d) => d.code === "import-private");
      expect(refused.filter((d) => d.message.includes(`resolves to ${file},`)).length).toBe(1);
    });
  }

  it("the refusal names the ignore file and the line where it was cut", async () => {
    const r = repo({
      "p/.gitignore": `${junk(2000)}\nconfig/local.yml\n`,
      "p/config/local.yml": SECRET,
      "p/AGENTS.md": "# P\n@config/local.yml\n",
    });
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.diagnostics.find((d) => d.code === "import-private")?.message).toContain(
      "config/local.yml, which is under ignore rules not read whole (.gitignore line 2001: patterns past the limits are cut)",
    );
  });

  for (const [shape, gitignore] of [
    ["a run of 5,000 stars", `config/${"*".repeat(5000)}local.yml\n`],
    ["1,400 **/ first", `${"**/".repeat(1400)}config/local.yml\n`],
    ["a NUL byte in a comment", "# a\0b\nconfig/local.yml\n"],
    ["a UTF-16 BOM line", "\xff\xfec\0\nconfig/local.yml\n"],
  ] as const) {
    it(`${shape}: read as git reads it, the file is ignored by git, and the rest of the project is not refused`, async () => {
      const r = repo({
        "p/config/local.yml": SECRET,
        "p/config/kept.md": "Kept notes.\n",
        "p/AGENTS.md": "# P\n@config/local.yml\n@config/kept.md\n",
      });
      // Byte for byte: `\xff\xfe` is a UTF-16 BOM, not the UTF-8 of ÿþ.
      writeFileSync(join(r.cwd, ".gitignore"), Buffer.from(gitignore, "latin1"));
      expect(gitIgnores(r.cwd, ["config/local.yml"])).toEqual(["config/local.yml"]);
      const out = await renderSystemPrompt({ ...r, projectTrusted: false });
      expect(out.text).not.toContain("SECRET-LOCAL-MARKER");
      expect(out.text).toContain("Kept notes.");
      expect(
        out.diagnostics.filter((d) => d.code === "import-private").map((d) => d.message),
      ).toEqual([
        "@config/local.yml: not imported: the project is not trusted and it resolves to config/local.yml, which is ignored by git; trust the project to read it",
      ]);
    });
  }

  it("a cut root .gitignore, trusted: a name .gemini/settings.json sets is refused, render and touch", async () => {
    const r = repo({
      "p/.gitignore": `${junk(2000)}\ncredentials.json\n`,
      "p/.gemini/settings.json": '{"context":{"fileName":["GEMINI.md","credentials.json"]}}\n',
      "p/credentials.json": '{"key":"SECRET-CRED-MARKER"}\n',
      "p/sub/credentials.json": '{"key":"SECRET-TOUCH-MARKER"}\n',
      "p/sub/x.ts": "",
      "p/GEMINI.md": "Gemini notes.\n",
      "p/lib/AGENTS.md": "Lib notes.\n",
      "p/lib/y.ts": "",
    });
    const out = await renderSystemPrompt({ ...r, projectTrusted: true });
    expect(out.text).not.toContain("SECRET-CRED-MARKER");
    expect(out.diagnostics.filter((d) => d.code === "rule-refused").length).toBe(1);
    // The names git would not ignore are not lost to the cut, trusted: GEMINI.md, lib/AGENTS.md.
    expect(out.text).toContain("Gemini notes.");
    const session = createPromptSession({ ...r, projectTrusted: true });
    try {
      const touched = await session.contextFor([
        join(r.cwd, "sub", "x.ts"),
        join(r.cwd, "lib", "y.ts"),
      ]);
      const text = touched.files.map((f) => f.content).join("\n");
      expect(text).not.toContain("SECRET-TOUCH-MARKER");
      expect(text).toContain("Lib notes.");
    } finally {
      session.close();
    }
  });

  it("a whole .gitignore, the same files: an import git does not ignore is read", async () => {
    const r = repo({
      "p/.gitignore": `${junk(10)}\nconfig/local.yml\n`,
      "p/config/local.yml": SECRET,
      "p/config/kept.md": "Kept notes.\n",
      "p/AGENTS.md": "# P\n@config/local.yml\n@config/kept.md\n",
    });
    const out = await renderSystemPrompt({ ...r, projectTrusted: false });
    expect(out.text).not.toContain("SECRET-LOCAL-MARKER");
    expect(out.text).toContain("Kept notes.");
  });
});
