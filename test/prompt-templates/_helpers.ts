import { cpSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  type LoadPromptTemplatesOptions,
  type LoadPromptTemplatesResult,
  loadPromptTemplates,
  loadPromptTemplatesSync,
} from "../../src/prompt-templates/index.js";
import { tempDir } from "../api/_helpers.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures/prompt-templates/", import.meta.url));

/** The async loader and its sync twin, so every scenario runs through both. */
export const LOADERS: [
  string,
  (o: LoadPromptTemplatesOptions) => Promise<LoadPromptTemplatesResult>,
][] = [
  ["loadPromptTemplates", loadPromptTemplates],
  ["loadPromptTemplatesSync", async (options) => loadPromptTemplatesSync(options)],
];

/** Options for a fixture scenario laid out as `<scenario>/{agent,project,home}`. */
export function scenario(name: string): LoadPromptTemplatesOptions & {
  root: string;
  agentDir: string;
  cwd: string;
  home: string;
} {
  // A copy outside this repository: in place, `agent/` lies in the project root around
  // `project/` (this checkout), and a named agent dir there is not read in an untrusted project.
  const root = `${tempDir()}/${name}`;
  cpSync(`${FIXTURES}${name}`, root, { recursive: true, verbatimSymlinks: true });
  return { root, cwd: `${root}/project`, agentDir: `${root}/agent`, home: `${root}/home` };
}
