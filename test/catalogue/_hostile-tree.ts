import { utimesSync } from "node:fs";
import { join } from "node:path";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

/**
 * The workspace tree an untrusted render prints for a project holding an empty file of each
 * name in `hostile` (made newest, so listed first) and of each name in `others`.
 */
export async function treeWithNames(hostile: readonly string[], others: readonly string[]) {
  const root = tempDir();
  const files: Record<string, string> = { "project/.git/HEAD": "ref: refs/heads/main\n" };
  for (const name of [...hostile, ...others]) files[`project/${name}`] = "";
  writeFiles(root, files);
  const later = new Date(Date.now() + 3_600_000);
  for (const name of hostile) utimesSync(join(root, "project", name), later, later);
  const result = await renderSystemPrompt(
    pinned(root, { projectTrusted: false, workspaceTree: true }),
  );
  return result.sections.find((s) => s.name === "workspace_tree")?.text ?? "";
}
