import { join } from "node:path";
import { MAX_TEXT_FILE_BYTES } from "../../_fs.js";
import { UnsafePathError } from "../../_safe-write.js";
import { parseRuleListFile } from "../../locate/general-rules.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../../locate/layers.js";
import { GENERAL_RULES_FILE } from "../../locate/load-layer.js";
import { checkFolders } from "../../options/folders.js";
import { readFileNoFollow } from "../../repo-files/index.js";
import { builtinHash } from "../../sections/ejected-from.js";
import { parseSectionFile } from "../../sections/load.js";
import { SECTION_NAME } from "../../sections/types.js";
import { VARIANT_NAME } from "../../sections/variants.js";
import { type Diagnostic, SyspromptError } from "../../types.js";
import { keptBasePath } from "../_drift.js";
import type { EjectDiff, EjectDiffOptions, EjectDiffText } from "../types.js";
import { GENERAL_RULES } from "./eject.js";

/**
 * The three texts of an ejected section: the builtin it was copied from (kept
 * by `eject` in `<layer>/.sysprompt/base/`, trusted only when its hash is the
 * one the override records), the builtin now, and the override. The name
 * `general-rules` compares the layer's `general-rules.md` (which `eject rules`
 * copies, with its record in a comment) with the builtin `prompts/rules.md`
 * the same way. Every file is
 * read without following a link, capped, and only as a regular file; a kept
 * text that is refused or does not match is a diagnostic and `builtinThen: null`.
 *
 * @throws SyspromptError when `name` is not a section name, or the layer has
 * no override file of it (`bad-argument`), or the override cannot be read.
 */
export async function diffEjected(options: EjectDiffOptions): Promise<EjectDiff> {
  const { name } = options;
  if (!SECTION_NAME.test(name) && !VARIANT_NAME.test(name)) {
    throw new SyspromptError(
      "bad-argument",
      `"${name}" is not a section name (such as rules, or a variant such as rules@small; general-rules for the list eject rules copies)`,
    );
  }
  const { cwd, agentDir } = resolveCommonPaths(options);
  await checkFolders({
    cwd,
    ...(options.agentDir !== undefined ? { agentDir } : {}),
    ...(options.builtinDir !== undefined ? { builtinDir: options.builtinDir } : {}),
  });
  const layerDir = options.user ? agentDir : join(cwd, options.projectDir ?? DEFAULT_PROJECT_DIR);
  const builtinDir = options.builtinDir ?? builtinPromptsDir();
  const diagnostics: Diagnostic[] = [];

  const list = name === GENERAL_RULES;
  const overridePath = list
    ? join(layerDir, GENERAL_RULES_FILE)
    : join(layerDir, "sections", `${name}.md`);
  const override = await readOrThrow(overridePath, name, options.user === true);
  const recorded = list
    ? parseRuleListFile(override.text, overridePath).ejectedFrom?.hash
    : parseSectionFile(name, override.text, overridePath, options.user ? "user" : "project").section
        ?.ejectedFrom?.hash;

  const builtinPath = list
    ? join(builtinDir, "rules.md")
    : join(builtinDir, "sections", `${name}.md`);
  const now = await readQuiet(builtinPath, diagnostics);
  const current = now ? builtinHash(now.text) : undefined;

  let then: EjectDiffText | null = null;
  if (recorded !== undefined) {
    const basePath = keptBasePath(layerDir, name);
    const kept = await readQuiet(basePath, diagnostics);
    if (kept && builtinHash(kept.text) === recorded) then = kept;
    else if (now && current === recorded) then = now;
    else if (kept) {
      diagnostics.push({
        level: "warning",
        code: "eject-base-mismatch",
        message: `the kept builtin text does not match the recorded ${recorded} (edited, or from another eject); the builtin as it was is unknown`,
        path: basePath,
      });
    }
  }
  return {
    name,
    ...(recorded !== undefined ? { recorded } : {}),
    ...(current !== undefined ? { current } : {}),
    drifted: recorded !== undefined && current !== recorded,
    builtinThen: then,
    builtinNow: now,
    override,
    diagnostics,
  };
}

async function readOrThrow(path: string, name: string, user: boolean): Promise<EjectDiffText> {
  let bytes: Buffer | null;
  try {
    bytes = await readFileNoFollow(path, MAX_TEXT_FILE_BYTES);
  } catch (error) {
    if (!(error instanceof UnsafePathError)) throw error;
    throw new SyspromptError("bad-argument", error.message, { cause: error });
  }
  if (bytes === null) {
    const layer = user ? "user" : "project";
    throw new SyspromptError(
      "bad-argument",
      name === GENERAL_RULES
        ? `no general rules of its own in the ${layer} layer (${path}); eject rules copies them with the rules section: sysprompt eject rules${user ? " --user" : ""}`
        : `no override of "${name}" in the ${layer} layer (${path}); copy it first with: sysprompt eject ${name}${user ? " --user" : ""}`,
    );
  }
  return { path, text: bytes.toString("utf8") };
}

/** A file's text, or null when it is missing; a refused or unreadable file is a diagnostic too. */
async function readQuiet(path: string, diagnostics: Diagnostic[]): Promise<EjectDiffText | null> {
  try {
    const bytes = await readFileNoFollow(path, MAX_TEXT_FILE_BYTES);
    return bytes === null ? null : { path, text: bytes.toString("utf8") };
  } catch (error) {
    if (!(error instanceof UnsafePathError)) throw error;
    diagnostics.push({
      level: "warning",
      code: error.code,
      message: error.reason,
      path: error.path,
    });
    return null;
  }
}
