import { join } from "node:path";
import { resolveUserPath } from "../_paths.js";
import { resolveCommonPaths } from "../locate/layers.js";
import type { LoadPromptTemplatesOptions, PromptTemplateSource } from "./types.js";

export const PROMPTS_FOLDER = "prompts";
export const DEFAULT_PROJECT_DIR = ".pi";

/** A file or folder to read templates from, in load order (lowest precedence first). */
export interface TemplateRoot {
  path: string;
  source: PromptTemplateSource;
  /** Named by the caller: a missing or unusable path is then a problem worth an error. */
  explicit: boolean;
  /** An option's path as the caller wrote it (`~/p`, `../p`): whether it is the project's is decided on it. */
  named?: string;
}

export interface TemplatePlan {
  roots: TemplateRoot[];
  /** The project prompts folder left out because the project is not trusted. */
  untrustedProjectFolder?: string;
}

/** Decides which folders and files to read, from the options alone (no I/O; defaults as everywhere, see `resolveCommonPaths`). */
export function planTemplateRoots(options: LoadPromptTemplatesOptions = {}): TemplatePlan {
  const { includeDefaults = true, projectTrusted = true } = options;
  const { cwd, agentDir, home } = resolveCommonPaths(options);
  const roots: TemplateRoot[] = [];
  let untrustedProjectFolder: string | undefined;
  if (includeDefaults) {
    roots.push({
      path: join(agentDir, PROMPTS_FOLDER),
      source: "user",
      explicit: false,
    });
    const projectFolder = join(cwd, options.projectDir ?? DEFAULT_PROJECT_DIR, PROMPTS_FOLDER);
    if (projectTrusted) roots.push({ path: projectFolder, source: "project", explicit: false });
    else untrustedProjectFolder = projectFolder;
  }
  for (const path of options.paths ?? []) {
    roots.push({
      path: resolveUserPath(path, cwd, home),
      source: "option",
      explicit: true,
      named: path,
    });
  }
  return untrustedProjectFolder === undefined ? { roots } : { roots, untrustedProjectFolder };
}
