/**
 * Whether a project's `.pi/` files of sysprompt may shape the prompt in pi.
 *
 * pi (1.6.0) resolves trust only when `.pi/` holds pi's own files (settings,
 * extensions, skills, prompts, themes, SYSTEM.md, APPEND_SYSTEM.md) or a
 * `.agents/skills` folder is on the way up; otherwise `ctx.isProjectTrusted()`
 * is true with or without `--approve`, and a repository holding only
 * `.pi/sections/` or `.pi/SYSTEM_TEMPLATE.md` would rewrite the prompt without
 * anybody being asked. So the extension decides from what pi decides with:
 * pi's "no" stands; `--approve` is consent; where pi had something to decide
 * its answer stands; else a decision saved in pi's `trust.json`, else
 * `defaultProjectTrust`; else the user is asked in the TUI, and in print, JSON
 * and RPC modes there is no consent.
 */

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pushAll } from "../../_arrays.js";
import { realpathOrSelf } from "../../_fs.js";
import { lstat } from "../../_io.js";
import { CONFIG_FILE_NAME } from "../../config/index.js";
import { GENERAL_RULES_FILE } from "../../locate/load-layer.js";
import type { Diagnostic } from "../../types.js";
import { defaultProjectTrust, savedTrust } from "./trust-store.js";

/** The folder of a project's files, in pi and in sysprompt. */
export const PI_PROJECT_DIR = ".pi";

/**
 * What sysprompt reads in a trusted project's `.pi/` inside pi (pi reads
 * SYSTEM.md, APPEND_SYSTEM.md, skills and prompts itself): section and partial
 * overrides, the base template, its own rules, the general rules' list, the
 * config file and pi's preset.
 */
export const SYSPROMPT_PROJECT_FILES = [
  "sections",
  "partials",
  "SYSTEM_TEMPLATE.md",
  "rules",
  GENERAL_RULES_FILE,
  CONFIG_FILE_NAME,
  "agents",
] as const;

/** pi 1.6.0's `.pi/` entries that make it resolve trust (`TRUST_REQUIRING_PROJECT_CONFIG_RESOURCES`). */
const PI_GATED_FILES = [
  "settings.json",
  "mcp.json",
  "extensions",
  "skills",
  "prompts",
  "themes",
  "SYSTEM.md",
  "APPEND_SYSTEM.md",
];

export interface ProjectTrustInput {
  cwd: string;
  /** `ctx.isProjectTrusted()`. */
  piTrusted: boolean;
  /** `--approve` (true) / `--no-approve` (false) on pi's command line. */
  trustOverride: boolean | undefined;
  /** pi's agent dir (`piAgentDir`: `PI_CODING_AGENT_DIR` when absolute or from `~`, else `~/.pi/agent`), `~` expanded. */
  agentDir: string;
  /** The user's home, whose `~/.agents/skills` pi does not count as the project's. */
  home: string;
}

/** Why the project is (not) trusted; `ask` when only the user can say. */
export type TrustReason =
  | "pi-declined"
  | "approve"
  | "pi-decided"
  | "saved"
  | "default-always"
  | "default-never"
  | "nothing-to-trust"
  | "ask";

export interface ProjectTrust {
  /** Undefined when the reason is `ask`. */
  trusted: boolean | undefined;
  reason: TrustReason;
  /** sysprompt's files present in `.pi/`, as `.pi/sections/`, `.pi/SYSTEM_TEMPLATE.md`. */
  files: string[];
  /** The folder whose saved decision applied. */
  savedFor?: string;
  /** Problems reading pi's files. */
  diagnostics: Diagnostic[];
}

/** Finds what decides the trust of the project at `input.cwd` (see the module comment). */
export async function findProjectTrust(input: ProjectTrustInput): Promise<ProjectTrust> {
  const files = await syspromptFiles(input.cwd);
  const decided = (trusted: boolean, reason: TrustReason, diagnostics: Diagnostic[] = []) => ({
    trusted,
    reason,
    files,
    diagnostics,
  });
  if (!input.piTrusted) return decided(false, "pi-declined");
  if (input.trustOverride === true) return decided(true, "approve");
  if (await piResolvesTrust(input.cwd, input.home)) return decided(true, "pi-decided");
  const { saved, diagnostics } = await savedTrust(input.agentDir, input.cwd);
  if (saved) return { ...decided(saved.trusted, "saved", diagnostics), savedFor: saved.folder };
  const fallback = await defaultProjectTrust(input.agentDir);
  pushAll(diagnostics, fallback.diagnostics);
  if (fallback.value === "always") return decided(true, "default-always", diagnostics);
  if (fallback.value === "never") return decided(false, "default-never", diagnostics);
  // Nothing of sysprompt's to let in: untrusted (context files stay confined), and nobody is asked.
  if (files.length === 0) return decided(false, "nothing-to-trust", diagnostics);
  return { trusted: undefined, reason: "ask", files, diagnostics };
}

/**
 * The one message for a project whose files are left out: what, why, and how
 * to trust the folder. None when there was nothing to leave out.
 */
export function untrustedMessage(
  trust: Pick<ProjectTrust, "reason" | "files">,
  cwd: string,
  agentDir: string,
  declined = false,
): Diagnostic | undefined {
  if (trust.files.length === 0) return undefined;
  const why = declined
    ? "you did not trust this folder when asked"
    : trust.reason === "pi-declined"
      ? "pi does not trust this folder (--no-approve, a saved decision, or its trust prompt)"
      : trust.reason === "saved"
        ? `a decision saved in ${join(agentDir, "trust.json")} says not to trust it`
        : trust.reason === "default-never"
          ? `defaultProjectTrust is "never" in ${join(agentDir, "settings.json")}`
          : "pi has no trust decision for this folder and none can be asked here";
  const how = declined
    ? "to use them, run /trust (then restart pi) or start pi with --approve"
    : `to use them, run pi with --approve (-a), or save a decision for the folder with /trust in pi's interactive mode (it is kept in ${join(agentDir, "trust.json")})`;
  return {
    level: "warning",
    code: "pi-project-untrusted",
    message: `this project's sysprompt files (${trust.files.join(", ")}) are left out of the prompt: ${why}; ${how}`,
    path: join(resolve(cwd), PI_PROJECT_DIR),
  };
}

/** sysprompt's entries in `<cwd>/.pi/`: anything at those names counts, a link or a dangling one too. */
async function syspromptFiles(cwd: string): Promise<string[]> {
  const found = await Promise.all(
    SYSPROMPT_PROJECT_FILES.map(async (name) => {
      try {
        const s = await lstat(join(cwd, PI_PROJECT_DIR, name));
        return `${PI_PROJECT_DIR}/${name}${s.isDirectory() ? "/" : ""}`;
      } catch {
        // Absent (or an unreadable .pi): nothing there to leave out.
        return undefined;
      }
    }),
  );
  return found.filter((f) => f !== undefined);
}

/**
 * pi's own test of whether a folder needs a trust decision
 * (`hasTrustRequiringProjectResources`), with pi's semantics: existence,
 * following links, on the canonical cwd.
 */
async function piResolvesTrust(cwd: string, home: string): Promise<boolean> {
  let dir = await realpathOrSelf(resolve(cwd));
  if (PI_GATED_FILES.some((name) => existsSync(join(dir, PI_PROJECT_DIR, name)))) return true;
  const userSkills = join(await realpathOrSelf(resolve(home)), ".agents", "skills");
  while (true) {
    const skills = join(dir, ".agents", "skills");
    if (skills !== userSkills && existsSync(skills)) return true;
    const parent = dirname(dir);
    if (parent === dir) return false;
    dir = parent;
  }
}
