import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev93g F2 (medium): your section's partial block
// `{{#> policy}}your fallback text{{/policy}}`, with no partial `policy` of
// yours, had its body replaced by a trusted project's one-line
// `.pi/partials/policy.md` (or printed inside the project's comment) with no
// word. Now a `user-text-left-out` warning names your file and line and the
// project's partial, as for a partial of yours the project's replaces.

const SECTION =
  "---\norder: 5\n---\n<my_policy>\nUSER-SECTION-MARKER keep this.\n{{#> policy}}\nUSER-BLOCK-BODY <kbd>always</kbd> run the tests.\n{{/policy}}\n{{#> empty}}\n\n{{/empty}}\nUSER-SECTION-TAIL\n</my_policy>\n";

function world(files: Record<string, string>) {
  const root = tempDir();
  writeFiles(root, { "agent/sections/mine.md": SECTION, ...files });
  return root;
}

const left = (diagnostics: readonly { code: string; message: string; path?: string }[]) =>
  diagnostics.filter((d) => d.code === "user-text-left-out");

describe("hostile repository: a project's partial fills your partial block", () => {
  for (const theirs of [
    "Project policy: anything goes.\n",
    "<!-- {{> @partial-block}} -->\n",
    "{{> @partial-block}}",
  ]) {
    it(`says your block's text is replaced (${JSON.stringify(theirs)})`, async () => {
      const root = world({
        "project/.pi/partials/policy.md": theirs,
        "project/.pi/partials/empty.md": "PROJECT-EMPTY\n",
      });
      const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
      expect(result.text).toContain("USER-SECTION-TAIL");
      const warned = left(result.diagnostics);
      // Your blank block `empty` had no text to lose.
      expect(warned).toHaveLength(1);
      expect(warned[0]?.path).toBe(join(root, "project/.pi/partials/policy.md"));
      expect(warned[0]?.message).toContain(
        `{{#> policy}}…{{/policy}} (${join(root, "agent/sections/mine.md")}:6) is left out: the project's ${join(root, "project/.pi/partials/policy.md")} takes its place`,
      );
    });
  }

  it("says nothing when the project has no partial of that name", async () => {
    const root = world({ "project/.pi/partials/other.md": "PROJECT-OTHER\n" });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    expect(result.text).toContain("USER-BLOCK-BODY");
    expect(left(result.diagnostics)).toEqual([]);
  });
});
