import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SkillEntry } from "../../src/data.js";
import { bytePath } from "./_fixture.js";
import { type CatalogueCase, diag, type Rendered, runCase } from "./_harness.js";

// A second project skill, `beta`, beside the baseline's `alpha`, with each
// problem a file can have. A SKILL.md that cannot be read or whose
// frontmatter is refused is left out with a diagnostic; alpha and everything
// else stays. A SKILL.md that reads (BOM, CRLF, invalid UTF-8) lists beta;
// so does one whose frontmatter is not valid YAML, read line by line.

const SKILLS = "project/app/.pi/skills";
const BETA = `${SKILLS}/beta/SKILL.md`;
const MIB = 1024 * 1024;
const DESCRIPTION = "Beta steps for the catalogue.";
const skill = (extra = "") =>
  `---\nname: beta\ndescription: ${DESCRIPTION}\n${extra}---\nDo beta.\n`;
/** Eight levels of nine aliases each: 43 million nodes if it were expanded. */
const BOMB = [
  "a: &a [x, x, x, x, x, x, x, x, x]",
  ..."bcdefgh"
    .split("")
    .map((c, i) => `${c}: &${c} [${Array(9).fill(`*${"abcdefg"[i]}`).join(", ")}]`),
  "",
].join("\n");

/** One diagnostic about beta's SKILL.md. */
const aboutBeta =
  (level: "error" | "warning", code: string, message: string, line?: number, column?: number) =>
  (root: string) => [diag(level, code, message, join(root, BETA), line, column)];

/** Beta's frontmatter is not valid YAML (`reason`) and was read line by line. */
const notYaml = (reason: string, line: number, column: number) =>
  aboutBeta(
    "warning",
    "frontmatter-not-yaml",
    `frontmatter is not valid YAML (${reason}); read line by line as "key: value", the way other agents' readers take it; quote the value to make it YAML`,
    line,
    column,
  );

/** The skills are alpha and beta (from `folder`), in that order. */
const withBeta =
  (folder = "beta", shown = folder, description = DESCRIPTION) =>
  (bad: Rendered, _clean: Rendered, root: string): void => {
    const beta: SkillEntry = {
      name: "beta",
      description,
      location: join(root, SKILLS, shown, "SKILL.md"),
      origin: "project",
    };
    expect(bad.data.skills.map((s) => s.name)).toEqual(["alpha", "beta"]);
    expect(bad.data.skills[1]).toEqual(beta);
  };

const cases: CatalogueCase[] = [
  {
    name: "skill-yaml-syntax",
    layout: [[BETA, "---\nname: beta\ndescription: [Beta\n---\n"]],
    changed: ["skills"],
    expected: notYaml(
      "Flow sequence in block collection must be sufficiently indented and end with a ]",
      3,
      14,
    ),
    verify: withBeta("beta", "beta", "[Beta"),
  },
  {
    // An unquoted `: ` in a description (trigger.dev's .claude/skills/drizzle/SKILL.md).
    name: "skill-description-colon",
    layout: [[BETA, "---\nname: beta\ndescription: Drizzle queries. Use when: writing SQL\n---\n"]],
    changed: ["skills"],
    expected: notYaml("Nested mappings are not allowed in compact mappings", 3, 14),
    verify: withBeta("beta", "beta", "Drizzle queries. Use when: writing SQL"),
  },
  {
    // The aliases are never expanded: the lines are read as text.
    name: "skill-alias-bomb",
    layout: [[BETA, skill(BOMB)]],
    changed: ["skills"],
    expected: notYaml("Excessive alias count indicates a resource exhaustion attack", 2, 1),
    verify: withBeta(),
  },
  {
    name: "skill-js-engine",
    layout: [
      [BETA, "---js\n{ name: 'beta', description: (() => { throw new Error('ran') })() }\n---\n"],
    ],
    expected: aboutBeta(
      "error",
      "frontmatter-engine",
      '"---js" frontmatter is executable code and is never run; use YAML',
      1,
      1,
    ),
  },
  {
    name: "skill-tab-indent",
    layout: [[BETA, "---\nname: beta\n\tdescription: Beta.\n---\n"]],
    expected: (root) => [
      ...notYaml("Tabs are not allowed as indentation", 3, 1)(root),
      diag(
        "error",
        "skill-description-required",
        "description is required; skill not loaded",
        join(root, BETA),
      ),
    ],
  },
  {
    // Read line by line, the first one counts.
    name: "skill-duplicate-key",
    layout: [[BETA, "---\nname: beta\ndescription: One.\ndescription: Two.\n---\n"]],
    changed: ["skills"],
    expected: notYaml('key "description" appears twice', 4, 1),
    verify: withBeta("beta", "beta", "One."),
  },
  {
    name: "skill-bom-crlf",
    layout: [[BETA, `\uFEFF${skill().replaceAll("\n", "\r\n")}`]],
    changed: ["skills"],
    expected: () => [],
    verify: withBeta(),
  },
  {
    name: "skill-invalid-utf8",
    layout: [[BETA, Buffer.concat([Buffer.from(skill()), Buffer.from([0xff, 0x0a])])]],
    changed: ["skills"],
    expected: aboutBeta(
      "warning",
      "file-encoding",
      "file is not valid UTF-8; invalid bytes were replaced with U+FFFD",
    ),
    verify: withBeta(),
  },
  {
    name: "skill-nul-bytes",
    layout: [[BETA, `${skill()}\u0000`]],
    expected: aboutBeta("warning", "file-binary", "binary file skipped"),
  },
  {
    name: "skill-50mb",
    layout: [[BETA, { sparse: 50 * MIB, head: skill() }]],
    expected: aboutBeta(
      "warning",
      "file-too-large",
      "file is 52428800 bytes, over the 1048576-byte limit; skipped",
    ),
  },
  {
    name: "skill-fifo",
    layout: [[BETA, { fifo: true }]],
    expected: aboutBeta(
      "warning",
      "file-not-regular",
      "not a regular file; skipped without opening it",
    ),
  },
  {
    name: "skill-socket",
    layout: [[BETA, { socket: true }]],
    expected: aboutBeta(
      "warning",
      "file-not-regular",
      "not a regular file; skipped without opening it",
    ),
  },
  {
    name: "skill-symlink-loop",
    layout: [[BETA, { symlink: "SKILL.md" }]],
    expected: aboutBeta(
      "warning",
      "symlink-broken",
      "SKILL.md is a symbolic link to SKILL.md, which leads to no file (its target is missing, or the links loop); skipped",
    ),
  },
  {
    // The file it linked to was deleted.
    name: "skill-symlink-dangling",
    layout: [[BETA, { symlink: "gone.md" }]],
    expected: aboutBeta(
      "warning",
      "symlink-broken",
      "SKILL.md is a symbolic link to gone.md, which leads to no file (its target is missing, or the links loop); skipped",
    ),
  },
  {
    // Links to the skill's own folder and its parent: each real folder is walked once.
    name: "skill-folder-symlink-loop",
    layout: [
      [`${SKILLS}/beta/up`, { symlink: ".." }],
      [`${SKILLS}/beta/self`, { symlink: "." }],
    ],
    bad: [`${SKILLS}/beta`],
    expected: () => [],
  },
  {
    name: "skill-folder-name-with-space",
    layout: [[`${SKILLS}/my beta/SKILL.md`, skill()]],
    bad: [`${SKILLS}/my beta`],
    changed: ["skills"],
    expected: () => [],
    verify: withBeta("my beta"),
  },
  {
    // The location is the real path, newline and all: the model reads the file by it.
    name: "skill-folder-name-with-newline",
    layout: [[`${SKILLS}/be\nta/SKILL.md`, skill()]],
    bad: [`${SKILLS}/be\nta`],
    changed: ["skills"],
    expected: () => [],
    // Shown on one line, as every path in the prompt: a JSON string in a tool call reads it back.
    verify: withBeta("be\nta", "be\\u000ata"),
  },
  {
    name: "skill-folder-name-not-utf8",
    layout: [[bytePath(`${SKILLS}/b`, [0xff], "/SKILL.md"), skill()]],
    bad: [bytePath(`${SKILLS}/b`, [0xff])],
    expected: (root) => [
      diag(
        "warning",
        "name-not-utf8",
        "the name of this folder is not valid UTF-8 (shown with U+FFFD), so it cannot be opened by that name; rename it",
        join(root, SKILLS, "b\uFFFD"),
      ),
    ],
  },
];

describe("catalogue: skills", () => {
  for (const c of cases) it(c.name, () => runCase(c).then(() => undefined));
});
