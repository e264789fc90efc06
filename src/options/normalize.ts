import { dirname, join, relative, resolve } from "node:path";
import { realpathOrSelf } from "../_fs.js";
import { namedPlace } from "../_output-target.js";
import { isWithin } from "../_paths.js";
import { showsNothing } from "../_prompt-text.js";
import { parseNow } from "../_time.js";
import { DEFAULT_DEADLINE_MS, deadlineSignal } from "../gather/deadline.js";
import { projectHome } from "../gather/environment/index.js";
import { DEFAULT_TOOLS } from "../gather/guidelines/index.js";
import { realRoots, realWorkingFolder, resolveRoots } from "../gather/roots.js";
import { checkRuleSources } from "../gather/rules/index.js";
import { builtinPromptsDir, DEFAULT_PROJECT_DIR, resolveCommonPaths } from "../locate/layers.js";
import type { ResolvedFile } from "../locate/load-layer.js";
import { readTextOrPath } from "../locate/text-or-path.js";
import type { AppendPart, NormalizedOptions } from "../options.js";
import {
  DEFAULT_MAX_CONTEXT_BYTES,
  findProjectRoot,
  NO_DEADLINE,
  ownAgentDir,
  projectReach,
} from "../repo-files/index.js";
import type { ExtraSection } from "../sections/render.js";
import { CUSTOM_PROMPT_SECTION, SECTION_NAME } from "../sections/types.js";
import type { Skill } from "../skills/index.js";
import { SyspromptError } from "../types.js";
import { checkFolders } from "./folders.js";
import { checkOptionTypes } from "./given.js";
import type { PreloadedSkill, SystemPromptOptions } from "./registry.js";

/**
 * Checks the caller's options and applies the defaults. A bad explicit option
 * is the caller's mistake: it throws {@link SyspromptError} with the fix in
 * the message, before any gathering starts. Checked: every value's type, no
 * unknown keys, `cwd` an existing folder, an explicit `agentDir` an existing
 * folder (a missing default one is normal), `builtinDir` a folder with
 * `sections/`, `deadlineMs` a number ≥ 0, `now` and `treeMtime` times.
 */
export async function normalizeOptions(
  options: SystemPromptOptions = {},
): Promise<NormalizedOptions> {
  checkOptionTypes(options);
  return normalizeCheckedOptions(options);
}

/**
 * {@link normalizeOptions} for options whose types are checked already:
 * `resolveOptions` checks the caller's before any config file is read,
 * and a config file's values are checked as they are parsed.
 */
export async function normalizeCheckedOptions(
  options: SystemPromptOptions,
): Promise<NormalizedOptions> {
  const env = options.env ?? process.env;
  const { cwd: shownCwd, agentDir, home, agentDirNamed } = resolveCommonPaths(options);
  const now = parseNow(options.now);
  const treeMtime =
    options.treeMtime === undefined ? null : parseNow(options.treeMtime, "treeMtime");
  const extraSections = validateSections(options.sections);
  const projectDirName = options.projectDir ?? DEFAULT_PROJECT_DIR;
  const builtinDir = resolve(options.builtinDir ?? builtinPromptsDir());
  await checkFolders({
    cwd: shownCwd,
    ...(options.agentDir !== undefined ? { agentDir } : {}),
    ...(options.builtinDir !== undefined ? { builtinDir } : {}),
  });
  if (options.systemPrompt !== undefined && options.resolvedSystemPrompt !== undefined) {
    throw new SyspromptError(
      "bad-option",
      "systemPrompt and resolvedSystemPrompt: pass one of them; resolvedSystemPrompt already is the custom base prompt",
    );
  }
  // The working folder is its real path, as git takes it: its project root and every ignore rule
  // are found from there (a --cwd through a link into a repository's subfolder lost the repository:
  // rev56a F3). As given, it is shown, and a path you name is read from it as you typed it.
  const cwd = await realWorkingFolder(shownCwd, { home });
  const ceilingDir =
    options.ceilingDir === undefined
      ? null
      : await realWorkingFolder(resolve(shownCwd, options.ceilingDir), {
          home,
          what: "ceilingDir",
        });
  const trusted = options.projectTrusted !== false;
  // An untrusted project's own folder is not your user layer (HOME inside the checkout); one you
  // name yourself (`--agent-dir`) is what you chose.
  const { dir: own, refused } = await ownAgentDir(agentDir, {
    cwd,
    home,
    trusted,
    named: agentDirNamed,
  });
  const resolvedFiles: ResolvedFile[] = [];
  if (options.resolvedSystemPrompt !== undefined) resolvedFiles.push("SYSTEM.md");
  if (options.resolvedAppendPrompt !== undefined) resolvedFiles.push("APPEND_SYSTEM.md");
  // The links of a file you name are checked within the render's deadline (counted, as the
  // render's, from its start: about now); one still checked then is refused, named.
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const late = deadlineSignal(deadlineMs);
  // A host's skills are the project's by its root: searched once, within the deadline, and
  // handed on to the preset (rev60b F1).
  const ceiling = ceilingDir ?? undefined;
  const projectRoot =
    options.skills !== undefined && options.skills.length > 0
      ? await findProjectRoot(cwd, ceiling, late).catch(() => undefined)
      : undefined;
  const [systemPrompt, appendSystemPrompt, roots, allowGitDirs] = await Promise.all([
    options.systemPrompt !== undefined && !isBlankPrompt(options.systemPrompt)
      ? readTextOrPath(options.systemPrompt, shownCwd, "--system-prompt", home, trusted, late)
      : options.resolvedSystemPrompt
        ? { text: options.resolvedSystemPrompt, repository: true as const }
        : null,
    Promise.all(
      toList(options.appendSystemPrompt).map(async (v): Promise<AppendPart> => {
        const read = await readTextOrPath(
          v,
          shownCwd,
          "--append-system-prompt",
          home,
          trusted,
          late,
        );
        return {
          text: read.text,
          repository: read.repository === true,
          ...(read.path === undefined ? {} : { path: read.path }),
        };
      }),
    ),
    resolveRoots(options.roots, shownCwd, home).then((dirs) => realRoots(dirs, cwd, { home })),
    resolveRoots(options.allowGitDirs, shownCwd, home, {
      flag: "--allow-git-dir",
      option: "allowGitDirs",
    }).then((dirs) => gitDirsAsNamed(dirs, shownCwd, home)),
  ]);
  return {
    cwd,
    shownCwd,
    ...(projectRoot !== undefined ? { projectRoot } : {}),
    home,
    env,
    agentDir: own,
    agentDirGiven: options.agentDir !== undefined,
    ...(refused !== undefined ? { agentDirRefused: refused } : {}),
    projectDirName,
    projectDir: join(cwd, projectDirName),
    builtinDir,
    trusted,
    tools: [...(options.tools ?? DEFAULT_TOOLS)],
    now,
    deadlineMs,
    extraSections,
    systemPrompt,
    appendSystemPrompt:
      options.resolvedAppendPrompt === undefined
        ? appendSystemPrompt
        : // The host's resolved file may be the project's (pi does not say whose it is).
          [{ text: options.resolvedAppendPrompt, repository: true }, ...appendSystemPrompt],
    resolvedFiles,
    skills: options.skills
      ? await hostSkills(options.skills, { cwd, home, ceiling, root: projectRoot })
      : null,
    skillPaths: options.skillPaths ?? null,
    roots,
    allowGitDirs,
    ceilingDir,
    maxContextBytes: options.maxContextBytes ?? DEFAULT_MAX_CONTEXT_BYTES,
    ruleSources: checkRuleSources(options.ruleSources),
    noContextFiles: options.noContextFiles === true,
    machine: options.machine ?? null,
    environment: options.environment ?? null,
    git: options.git === true,
    workspaceTree: options.workspaceTree === true,
    treeDepth: options.treeDepth ?? null,
    treeMtime,
    maxPromptTokens: options.maxPromptTokens ?? null,
  };
}

/**
 * The skills a host loaded itself (pi hands over its resolved skills), each
 * the project's when its real file lies in the project root (outside the
 * home folder a root may hold) or in a home folder that is the repository
 * around cwd ({@link projectHome}), else the user's. All of them counted as the
 * user's, a repository's thousands of skills escaped the skills index's 1 MiB
 * total and the token budget's repository-first round (review rev35b).
 */
async function hostSkills(
  skills: readonly PreloadedSkill[],
  at: { cwd: string; home: string; ceiling: string | undefined; root: string | undefined },
): Promise<Skill[]> {
  if (skills.length === 0) return [];
  const { cwd, home, ceiling, root } = at;
  // A root not found in time is searched to the end: cwd alone would count the repository's skills yours.
  const given = root !== undefined ? { root } : {};
  const reach = await projectReach({
    start: cwd,
    home,
    trusted: true,
    ceiling,
    signal: NO_DEADLINE,
    ...given,
  });
  // A home folder that is the repository around cwd (HOME=$PWD in a dev container) is the
  // project's whole, from a subfolder too: its hidden entries (.pi/skills, .agents/skills) with it.
  const [homeRepo] = await projectHome([cwd], home);
  const realHome = homeRepo === undefined ? undefined : await realpathOrSelf(homeRepo);
  return Promise.all(
    skills.map(async (skill) => {
      const real = await realpathOrSelf(skill.filePath);
      // A root that is the home folder keeps its hidden entries (~/.pi/agent) the user's.
      const hidden =
        reach.home !== undefined &&
        isWithin(real, reach.home) &&
        relative(reach.home, real).startsWith(".");
      const inProject =
        (realHome !== undefined && isWithin(real, realHome)) ||
        (isWithin(real, reach.realRoot) &&
          !hidden &&
          !reach.excluded.some((e) => isWithin(real, e)));
      return preloadedSkill(skill, inProject ? "project" : "option");
    }),
  );
}

/**
 * The allowed git folders, each refused when it is named into the project (or
 * a tree around the working folder: the rule of a named file, {@link namedPlace})
 * and a link there takes it out: `--allow-git-dir gitstore` with the
 * checkout's `gitstore` a link to `~/work/private/.git` allowed that other
 * repository of yours by its real path, and the git section showed its
 * commit subjects. The real folder named as itself is allowed.
 */
async function gitDirsAsNamed(dirs: string[], cwd: string, home: string): Promise<string[]> {
  for (const dir of dirs) {
    const { tree } = await namedPlace(dir, { cwd, home });
    if (tree === undefined) continue;
    const [real, realTree] = await Promise.all([realpathOrSelf(dir), realpathOrSelf(tree.root)]);
    if (isWithin(real, realTree)) continue;
    throw new SyspromptError(
      "bad-argument",
      `--allow-git-dir / allowGitDirs: "${dir}" is in ${tree.root}, but a link there leads out of it, to ${real}: a git folder is allowed only as named, never by a link of the project's; name the real folder (${real}) if you mean it`,
    );
  }
  return dirs;
}

/** A preloaded skill in the loader's shape: its folder is the one holding its file. */
function preloadedSkill(skill: PreloadedSkill, source: Skill["source"]): Skill {
  return {
    name: skill.name,
    description: skill.description,
    filePath: skill.filePath,
    baseDir: dirname(skill.filePath),
    disableModelInvocation: skill.disableModelInvocation === true,
    source,
  };
}

function toList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? [value] : [...value];
}

function validateSections(sections: SystemPromptOptions["sections"]): ExtraSection[] {
  const out: ExtraSection[] = [];
  for (const [name, text] of Object.entries(sections ?? {})) {
    if (!SECTION_NAME.test(name)) {
      throw new SyspromptError(
        "bad-option",
        `sections: "${name}" is not a valid section name; use ${SECTION_NAME.source}`,
      );
    }
    if (name === CUSTOM_PROMPT_SECTION) {
      throw new SyspromptError(
        "bad-option",
        `sections: "${name}" is the custom base prompt, not a section; pass it as systemPrompt`,
      );
    }
    if (typeof text !== "string") {
      throw new SyspromptError("bad-option", `sections: the value of "${name}" must be a string`);
    }
    out.push({ name, text });
  }
  return out;
}

/**
 * A blank `systemPrompt` (empty, or a text that shows nothing: {@link showsNothing}) is not a custom base prompt: pi takes an
 * empty `--system-prompt` as not given; taken as the text, a wrapper's unset variable
 * (`--system-prompt "$CUSTOM"`) replaced every base section, yours too, with nothing (rev60d F5).
 * `resolveRenderOptions` warns of a blank one.
 */
export function isBlankPrompt(value: string): boolean {
  return showsNothing(value);
}
