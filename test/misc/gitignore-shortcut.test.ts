import fc from "fast-check";
import ignore from "ignore";
import { describe, expect, it } from "vitest";
import {
  addGitignore,
  type IgnoreRules as Ignore,
  isIgnored,
  isIgnoredInKeptFolder,
  rebaseGitignore,
} from "../../src/_gitignore.js";

// isIgnoredInKeptFolder answers "kept" without asking `ignore` when the path's
// name matches no pattern's last segment. For any rules and any path whose
// parent folders are not ignored (what a walk that never enters an ignored
// folder checks), it must say what `ignore` says.

const PATTERNS = [
  "node_modules/",
  "dist",
  "*.log",
  "!keep.log",
  "a/b",
  "/c",
  "**/d",
  "e/**",
  "f*",
  "[ab]x",
  "[a-c]x",
  "[!a]x",
  "[z-a]x",
  "q?[x]",
  "[]x",
  "\\#x",
  "# comment",
  "",
  "x?y",
  "A.LOG",
  "build/",
  " t ",
  "a b",
  "*",
  "!*.md",
  "sub/",
  "*x*",
];
const NAMES = ["a", "b", "c", "d", "e", "dist", "x.log", "keep.log", "node_modules", "f1", "ax"];
const MORE_NAMES = ["pkg", "sub", "A.Log", "#x", "xzy", "t", "a b", "README.md", "build", "bx"];
const CLASS_NAMES = ["[z-a]x", "[]x", "Cx", "qa]", "qax", "[x]"];

/** The ignore files of one walk, shallowest first: each file's lines and its folder. */
const filesArb = fc.array(
  fc.record({
    lines: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 6 }),
    base: fc.constantFrom("", "pkg", "pkg/sub"),
  }),
  { minLength: 1, maxLength: 3 },
);

type Files = { lines: string[]; base: string }[];

const chained = (files: Files) =>
  files.reduce<Ignore | undefined>(
    (rules, f) => addGitignore(rules, f.lines.join("\n"), f.base),
    undefined,
  );

/** Every file's patterns, rebased, in one list (later lines win): the rule list the walk used to copy per folder. */
const flatOf = (files: Files, ignorecase: boolean) =>
  ignore({ ignorecase }).add(
    files.map((f) => rebaseGitignore(f.lines.join("\n"), f.base)).join("\n"),
  );

/** What git says with either `core.ignoreCase` (the door's union, rev69c F6): ignored when either reading ignores. */
const flat = (files: Files) => {
  const sensitive = flatOf(files, false);
  const folded = flatOf(files, true);
  return { ignores: (path: string) => sensitive.ignores(path) || folded.ignores(path) };
};

const pathArb = fc
  .record({
    segments: fc.array(fc.constantFrom(...NAMES, ...MORE_NAMES, ...CLASS_NAMES), {
      minLength: 1,
      maxLength: 4,
    }),
    dir: fc.boolean(),
  })
  .map(({ segments, dir }) => segments.join("/") + (dir ? "/" : ""));

function parentsKept(reference: ReturnType<typeof flat>, path: string): boolean {
  const segments = path.replace(/\/$/, "").split("/");
  for (let i = 1; i < segments.length; i++) {
    if (reference.ignores(`${segments.slice(0, i).join("/")}/`)) return false;
  }
  return true;
}

describe("isIgnored: rules shared between folders, not copied", () => {
  it("says what one flat rule list says, for every path", () => {
    fc.assert(
      fc.property(filesArb, pathArb, (files, path) => {
        return isIgnored(chained(files), path) === flat(files).ignores(path);
      }),
      { numRuns: 2000 },
    );
  });

  it("a deeper file re-includes a folder a shallower file ignores, and the shallower file's other patterns still apply inside it", () => {
    const rules = addGitignore(addGitignore(undefined, "build/\n*.log\n", ""), "!build/\n", "pkg");
    expect(
      ["pkg/build/", "pkg/build/a.txt", "pkg/build/a.log", "build/", "pkg/x/build/"].map((p) =>
        isIgnored(rules, p),
      ),
    ).toEqual([false, false, true, true, false]);
  });
});

describe("isIgnoredInKeptFolder", () => {
  it("agrees with ignore on every path below kept folders", () => {
    fc.assert(
      fc.property(filesArb, pathArb, (files, path) => {
        const reference = flat(files);
        fc.pre(parentsKept(reference, path));
        return isIgnoredInKeptFolder(chained(files), path) === reference.ignores(path);
      }),
      { numRuns: 2000 },
    );
  });

  it("ignores a name either reading of core.ignoreCase ignores; a folded negation takes back nothing (rev51a F1, rev69c F6)", () => {
    const rules = addGitignore(undefined, "*.LOG\nBuild/\nsecrets.txt\n!SECRETS.TXT\n", "");
    expect(
      ["x.log", "x.LOG", "build/", "Build/", "BUILD/", "Build", "secrets.txt", "SECRETS.TXT"].map(
        (p) => isIgnoredInKeptFolder(rules, p),
      ),
    ).toEqual([true, true, true, true, true, false, true, false]);
  });
});
