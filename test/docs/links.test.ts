import { existsSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { anchors, docPages, headings, links, REPO, readDoc, slug } from "./_docs.js";

// Every relative link of the README and the docs/ pages leads to a file of the
// repository, and every #anchor to a heading of the page it names: a page
// moved or a heading renamed breaks a link here, not for a reader.

/** What is wrong with `target` as a link from `page`, or null when it resolves. */
function broken(page: string, target: string): string | null {
  if (/^[a-z]+:/i.test(target)) return null; // https:, mailto:: not ours to check
  const [path = "", anchor] = target.split("#", 2);
  const file = path ? normalize(join(dirname(page), path)) : page;
  if (file.startsWith("..")) return `${target} leaves the repository`;
  if (!existsSync(join(REPO, file))) return `${target}: no file ${file}`;
  if (anchor === undefined) return null;
  if (!file.endsWith(".md")) return `${target}: an anchor into a file that is not Markdown`;
  return anchors(readDoc(file)).has(anchor) ? null : `${target}: ${file} has no heading #${anchor}`;
}

describe("the docs' links", () => {
  it("every relative link and anchor in README.md, docs/*.md and ARCHITECTURE.md resolves", () => {
    const all = [...docPages(), "ARCHITECTURE.md"].flatMap((page) =>
      links(readDoc(page)).map((target) => ({ page, target })),
    );
    expect(all.length).toBeGreaterThan(100);
    const bad = all.flatMap(({ page, target }) => {
      const why = broken(page, target);
      return why ? [`${page}: ${why}`] : [];
    });
    expect(bad).toEqual([]);
  });

  it("finds a broken anchor and a missing file (the check can fail)", () => {
    expect(broken("README.md", "docs/sections.md#sections")).toBeNull();
    expect(broken("docs/api.md", "../README.md#quickstart")).toBeNull();
    expect(broken("docs/api.md", "#no-such-heading")).toBe(
      "#no-such-heading: docs/api.md has no heading #no-such-heading",
    );
    expect(broken("docs/api.md", "nowhere.md")).toBe("nowhere.md: no file docs/nowhere.md");
    expect(broken("docs/api.md", "../../x.md")).toBe("../../x.md leaves the repository");
  });

  it("takes anchors as GitHub makes them", () => {
    expect(slug("Snapshot-testing your own project's prompt")).toBe(
      "snapshot-testing-your-own-projects-prompt",
    );
    expect(slug("`sysprompt hook` and the cache")).toBe("sysprompt-hook-and-the-cache");
    expect([...anchors("# A\n\n## A\n\n```\n# not a heading\n```\n")]).toEqual(["a", "a-1"]);
    expect(headings("```\n# no\n```\n## yes").map((h) => h.text)).toEqual(["yes"]);
  });
});
