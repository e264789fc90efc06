import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../catalogue/_built.js";

// What `npm pack` puts in the tarball users install: the built library and
// command, the builtin prompts, the licence and what the README shows; no
// sources, tests, fixtures or goldens. scripts/test-package.mjs installs it.

const REPO = fileURLToPath(new URL("../../", import.meta.url));
/**
 * The packed size (gzip): 0.71 MB when first written, 1.02 MB once presets, the config file,
 * git, simulate and context on touch joined the bundle, 1.27 MB with the hook's own bundle and
 * code cache, 1.50 MB with the hook's full-path bundle (hook-full.cjs and its code cache: the
 * quick path's hook.cjs is 22 KiB because of it) and docs/*.md (the README links into them),
 * 1.69 MB after the fourth and fifth hostile-repository reviews (2026-12-04: the bundles grew by
 * their checks, docs/trust.md by their rows), 1.91 MB after the thirteenth and fourteenth
 * (2026-12-05: the nested-repository and named-path rules, Gemini CLI's hook room, section reuse
 * in fitting; bundle.cjs 971 KB and its code cache 908 KB are most of it), 2.14 MB after the
 * twenty-second review's fixes (2026-12-05: values placed in your blocks, element-name scans, the
 * held-links walk; bundle.cjs 1,075 KB, its code cache 1,005 KB, docs/trust.md 131 KB), 2.43 MB
 * after the twenty-third and twenty-fourth reviews' fixes (2026-12-06: the HTML end-tag reading,
 * chat tokens, name readings, output name lists, the hook bundle's hidden-element reader), 2.80 MB with
 * the HTML tree builder that decides what is never shown (2026-12-06: parse5 and its entities in the
 * main and hook bundles and their code caches), 3.02 MB after this session's fixes (2026-12-06: the raw
 * HTML reading of repository texts, the walk from `/` for programs and caches, Mercurial's readings;
 * bundle.cjs 1,573 KB, its code cache 1,268 KB, docs/trust.md 417 KB), 3.42 MB after the
 * twenty-sixth and twenty-seventh reviews' fixes (2026-12-07: the compile stop, the quirks-mode table
 * reading, partial blocks kept yours, hard links and the own door; bundle.cjs 1,720 KB, its code cache
 * 1,388 KB, docs/trust.md 662 KB). This catches a folder shipped by mistake (a fixture tree, a node_modules), which
 * would add megabytes, not kilobytes.
 */
const MAX_PACKED_BYTES = 3_800_000;

interface Packed {
  size: number;
  unpackedSize: number;
  files: { path: string; mode: number }[];
}

let packed: Packed;

describe("the tarball", () => {
  beforeAll(() => {
    ensureBuilt();
    // --ignore-scripts: the build above is the one to pack; prepare would rebuild it.
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: REPO,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    packed = (JSON.parse(out) as Packed[])[0] as Packed;
  }, 180_000);

  const paths = () => packed.files.map((f) => f.path);

  it("holds the licence, the README, package.json and only built code under dist/", () => {
    const top = [...new Set(paths().map((p) => p.split("/")[0]))].sort();
    expect(top).toEqual(["LICENSE", "README.md", "dist", "docs", "package.json", "prompts"]);
    const dist = paths().filter((p) => p.startsWith("dist/"));
    expect(dist.filter((p) => !/\.(js|cjs|d\.ts|d\.cts|json|cache|html|css)$/.test(p))).toEqual([]);
    expect(dist.filter((p) => /^dist\/(test|bench|scripts)\//.test(p))).toEqual([]);
    expect(paths().filter((p) => /(^|\/)(fixtures|snapshots|test)\//.test(p))).toEqual([]);
  });

  it("holds every builtin prompt file", () => {
    const prompts = readdirSync(join(REPO, "prompts"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(REPO.length))
      .sort();
    expect(
      paths()
        .filter((p) => p.startsWith("prompts/"))
        .sort(),
    ).toEqual(prompts);
    expect(prompts.length).toBeGreaterThan(10);
  });

  it("holds the command, executable, and what it loads", () => {
    const mode = (path: string) => packed.files.find((f) => f.path === path)?.mode?.toString(8);
    expect({
      loader: mode("dist/src/cli/sysprompt.cjs"),
      bundle: mode("dist/src/cli/bundle.cjs"),
      cache: mode("dist/src/cli/bundle.cjs.cache"),
      library: mode("dist/src/index.js"),
      frontmatter: mode("dist/builtin-frontmatter.json"),
      templates: mode("dist/builtin-templates.cjs"),
    }).toEqual({
      loader: "755",
      bundle: "644",
      cache: "644",
      library: "644",
      frontmatter: "644",
      templates: "644",
    });
  });

  it("holds every image the README shows", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((image) => !paths().includes(image))).toEqual([]);
  });

  it(`is under ${MAX_PACKED_BYTES / 1e6} MB packed`, () => {
    expect(packed.size).toBeLessThan(MAX_PACKED_BYTES);
  });
});
