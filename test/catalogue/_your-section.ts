import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Where a project's values are printed in your text: a section of yours that
// prints `{{vars.…}}`, set by a trusted project's `.pi/sysprompt.yaml`.

/**
 * The render of a trusted project whose `.pi/sysprompt.yaml` sets `vars`, with
 * a section of yours, `mine` (order 95), whose body is `body`; and the text of
 * that section (empty when it is not rendered).
 */
export async function renderYourSection(body: string, vars: Record<string, string>) {
  const root = tempDir();
  const set = Object.entries(vars).map(([name, value]) => `  ${name}: ${JSON.stringify(value)}\n`);
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/sections/mine.md": `---\norder: 95\n---\n${body}`,
    "project/.pi/sysprompt.yaml": `vars:\n${set.join("")}`,
  });
  const result = await renderSystemPrompt(
    pinned(root, { projectTrusted: true, configFiles: true }),
  );
  return { result, mine: result.sections.find((s) => s.name === "mine")?.text ?? "" };
}
