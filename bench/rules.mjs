// Rule files of other agents: a repository with 60 rule files in 8 formats
// (Cursor, Windsurf, Cline, Copilot, Claude Code, Kiro, Roo, Continue), with
// frontmatter of every kind, in the project root and in the cwd two levels
// below it.
//
//   rules-step  traceRules (the rule-files step: every known location of every
//               folder from the project root down to cwd, lstat, confinement by
//               real path, capped reads, frontmatter) vs the floor of listing
//               the folders that hold the files and reading each file, all at
//               once with fs/promises, in process, alternating (goal <= 4x:
//               every file costs an lstat, a realpath, a stat, an open, a
//               frontmatter parse more, and ~50 locations are looked up that
//               hold nothing)
//
// `node bench/rules.mjs` runs this part alone (after `npm run build`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { median, ROOT } from "./_lib.mjs";

/** Relative folder (or file) and how to write the i-th rule there, for each of the 8 formats. */
const FORMATS = [
  [
    "cursor",
    (i) => [
      `.cursor/rules/r${i}.mdc`,
      `---\ndescription: Cursor rule ${i}\nglobs: src/**/*.ts, test/*.ts\nalwaysApply: false\n---\n`,
    ],
  ],
  [
    "windsurf",
    (i) => [
      `.windsurf/rules/r${i}.md`,
      `---\ntrigger: ${i % 2 ? "always_on" : "model_decision"}\ndescription: Windsurf ${i}\n---\n`,
    ],
  ],
  ["cline", (i) => [`.clinerules/r${i}.md`, i % 2 ? "" : `---\npaths:\n  - "docs/**"\n---\n`]],
  [
    "copilot",
    (i) => [
      `.github/instructions/r${i}.instructions.md`,
      `---\napplyTo: "${i % 2 ? "**" : "src/**"}"\n---\n`,
    ],
  ],
  ["claude", (i) => [`.claude/rules/r${i}.md`, i % 2 ? "" : `---\npaths: src/api/**\n---\n`]],
  [
    "kiro",
    (i) => [`.kiro/steering/r${i}.md`, `---\ninclusion: ${i % 2 ? "always" : "manual"}\n---\n`],
  ],
  ["roo", (i) => [`.roo/rules/r${i}.md`, ""]],
  ["continue", (i) => [`.continue/rules/r${i}.md`, `---\nalwaysApply: true\n---\n`]],
];

/** 60 rule files: 4 per format in the project root, the rest in cwd (`packages/app`). */
export function rulesRepo() {
  const root = mkdtempSync(join(tmpdir(), "sysprompt-bench-rules-"));
  const project = join(root, "project");
  const cwd = join(project, "packages", "app");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const folders = new Set();
  for (let n = 0; n < 60; n++) {
    const [name, write] = FORMATS[n % FORMATS.length];
    const [rel, head] = write(n);
    const base = n < 4 * FORMATS.length && n % 2 === 0 ? project : cwd;
    const path = join(base, rel);
    mkdirSync(dirname(path), { recursive: true });
    folders.add(dirname(path));
    const body = Array.from(
      { length: 12 },
      (_, k) => `- ${name} rule ${n}, point ${k}: keep changes small and tested.`,
    ).join("\n");
    writeFileSync(path, `${head}# Rule ${n}\n\n${body}\n`);
  }
  return { root, project, cwd, folders: [...folders].sort() };
}

/** Median ms per call of each async case, alternating the order every round after a warm-up. */
async function alternateAsync(cases, { batches = 11, perBatch = 20 } = {}) {
  const names = Object.keys(cases);
  for (const name of names) for (let i = 0; i < perBatch; i++) await cases[name]();
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let b = 0; b < batches; b++) {
    for (const name of b % 2 ? [...names].reverse() : names) {
      const start = performance.now();
      for (let i = 0; i < perBatch; i++) await cases[name]();
      times[name].push((performance.now() - start) / perBatch);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n])]));
}

/** The floor: list the known folders and read every file in them, all at once, nothing else. */
async function floorRead(folders) {
  const lists = await Promise.all(
    folders.map(async (dir) => (await readdir(dir)).map((n) => join(dir, n))),
  );
  const texts = await Promise.all(lists.flat().map((path) => readFile(path)));
  return texts.reduce((n, t) => n + t.length, 0);
}

export async function rulesSuite() {
  const repo = rulesRepo();
  try {
    const { traceRules } = await import(pathToFileURL(join(ROOT, "dist/src/index.js")).href);
    const options = {
      cwd: repo.cwd,
      home: join(repo.root, "home"),
      agentDir: join(repo.root, "agent"),
    };
    const found = await traceRules(options);
    const kept = found.accounts.length;
    const times = await alternateAsync({
      ours: () => traceRules(options),
      floor: () => floorRead(repo.folders),
    });
    return [
      {
        id: "rules-step",
        what: "rule-files step on 60 rule files in 8 formats (in process)",
        ours: { value: times.ours, unit: "ms" },
        floor: { value: times.floor, unit: "ms", name: "readdir + readFile" },
        goal: 4,
        note: `${kept} files accounted for`,
      },
    ];
  } finally {
    rmSync(repo.root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const row of await rulesSuite()) console.log(JSON.stringify(row));
}
