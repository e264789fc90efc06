import { dirname, isAbsolute, join, resolve } from "node:path";
import { pushAll } from "../_arrays.js";
import { kindOfPath, realpathOrSelf } from "../_fs.js";
import { checkpoint } from "../_pace.js";
import { childPath, expandHome, isBelowCeiling } from "../_paths.js";
import { capDiagnostics } from "../engine/index.js";
import { boundedByDefault } from "../gather/deadline.js";
import { agentDirNamed, resolveCommonPaths } from "../locate/layers.js";
import { namedProjectPath } from "../locate/text-or-path.js";
import {
  capChain,
  chainCutDiagnostic,
  holdsGitRoot,
  type OwnFiles,
  ownFilesOf,
  ownFolderInProject,
  ownFolderInProjectDiagnostic,
  placeRefusal,
  projectReach,
  REFUSAL_CODES,
  type Reach,
  type RefusedRootMarker,
  readRepoText,
  rootMarkerRefusedDiagnostics,
  sharedAgentDir,
  sharedAgentDirDiagnostic,
  stopOf,
  stopRefusal,
} from "../repo-files/index.js";
import type { Diagnostic } from "../types.js";
import { type SkillCandidate, walkSkillsRoot } from "./_walk.js";
import type { LoadSkillsOptions, LoadSkillsResult, Skill, SkillSource } from "./types.js";
import { type ParsedSkill, parseSkill } from "./validate.js";

interface SkillsRoot {
  path: string;
  source: SkillSource;
}

/**
 * Reads and validates one skill file. Never throws: an unreadable, binary or
 * non-regular file (a FIFO is never opened) gives `null` and a diagnostic.
 * With `reach` (a project's skill), the file is read through the door within it;
 * with `own` (yours), one whose real path lies in a checkout through that
 * checkout's door (review rev98a F1).
 */
export async function loadSkillFromFile(
  filePath: string,
  source: SkillSource,
  reach?: Reach,
  own?: OwnFiles,
): Promise<ParsedSkill> {
  const read = await readRepoText(filePath, { reach, own });
  if (!read.ok) return { skill: null, diagnostics: read.diagnostics };
  const parsed = parseSkill(read.text, filePath, source);
  return { skill: parsed.skill, diagnostics: [...read.diagnostics, ...parsed.diagnostics] };
}

/**
 * Loads every skill under one skills root (see {@link loadSkills} for the
 * walk's rules). The same real file loads once; the first skill of a name wins.
 */
export async function loadSkillsFromDir(
  dir: string,
  source: SkillSource,
): Promise<LoadSkillsResult> {
  const walked = await walkSkillsRoot(dir);
  const loaded = await loadCandidates(
    walked.candidates.map((candidate) => ({ candidate, source })),
  );
  return { skills: loaded.skills, diagnostics: [...walked.diagnostics, ...loaded.diagnostics] };
}

/**
 * Finds, reads and validates the skills an agent can use. Search order:
 * explicit `paths`, then the project (`<cwd>/<projectDir>/skills`, then
 * `.agents/skills` then `.claude/skills` in cwd and each ancestor up to the
 * git root), then the user
 * (`<agentDir>/skills`, `<home>/.agents/skills`). The first skill of a name
 * wins, so the project beats the user; the loser is reported as a
 * `name-collision` (your skill taken out by the project's: `user-text-left-out`). The same real file reached twice (through symlinks or
 * overlapping roots) loads once. Nothing a user file holds makes this throw.
 * `cwd`, `agentDir` and `home` default as for `renderSystemPrompt`. Without a
 * `signal`, it stops at a render's default deadline (5 s) and gives the
 * skills of the user's own folders only, with a `load-deadline` warning. The
 * user's own roots (the default ones and the `paths` out of the project) are
 * read first, and what they give alone goes to `soFar.value` (a render's skills step, `list` and `expand` keep it when the
 * repository's skills make them late).
 */
export async function loadSkills(
  options: LoadSkillsOptions & {
    soFar?: { value?: LoadSkillsResult };
    /** Awaited once the user's own folders are read, before any of the project's is looked at. */
    beforeProject?: () => Promise<void>;
  } = {},
): Promise<LoadSkillsResult> {
  if (options.signal === undefined) {
    // Past the deadline, what the user's own folders gave is kept.
    const soFar = options.soFar ?? {};
    return boundedByDefault(
      undefined,
      "skills",
      (signal) => loadSkills({ ...options, signal, soFar }),
      { soFar: () => soFar.value ?? { skills: [], diagnostics: [] } },
    );
  }
  const { signal } = options;
  const { cwd, agentDir, home } = resolveCommonPaths(options);
  const own = await ownRoots(agentDir, home, cwd, options);
  const diagnostics: Diagnostic[] = [...own.refused];
  const candidates: Candidate[] = [];
  const walkOptions = options.signal ? { signal: options.signal } : {};
  // A project's skills stay in cwd's project, whatever their links say.
  let projectReachOnce: Promise<Reach> | undefined;
  const reachOfProject = () => {
    projectReachOnce ??= projectReach({
      start: cwd,
      home,
      trusted: true,
      ceiling: ceilingOf(options),
      signal,
    });
    return projectReachOnce;
  };
  // Your skills (read with no reach): one whose real path lies in a checkout is read through that
  // checkout's door, with the render's trust, as your layer's files are (review rev98a F1).
  let ownFilesOnce: Promise<OwnFiles> | undefined;
  const yours = () => {
    ownFilesOnce ??= ownFilesOf(agentDir, {
      home,
      trusted: options.projectTrusted !== false,
      cwd,
      env: options.env,
      signal,
    });
    return ownFilesOnce;
  };

  /** One skills root's candidates and what the walk said; none when it is missing. */
  const walkRoot = async (
    root: SkillsRoot,
  ): Promise<{ candidates: Candidate[]; diagnostics: Diagnostic[] }> => {
    const none = { candidates: [], diagnostics: [] };
    const kind = await kindOfPath(root.path);
    if (kind === "missing") return none;
    if (root.source === "project" && options.projectTrusted === false) {
      return {
        candidates: [],
        diagnostics: [
          {
            level: "info",
            code: "project-untrusted",
            message: "project skills skipped because the project is not trusted",
            path: root.path,
          },
        ],
      };
    }
    if (kind !== "dir") {
      return {
        candidates: [],
        diagnostics: [
          {
            level: "warning",
            code: "skills-root-not-folder",
            message: "skills location is not a folder; skipped",
            path: root.path,
          },
        ],
      };
    }
    const reach = root.source === "project" ? await reachOfProject() : undefined;
    // A project's skills root linked out of it (to `/`, to the home folder) holds
    // nothing the door would read: it is not walked, which would cost thousands of folders.
    const out = reach && placeRefusal(root.path, await realpathOrSelf(root.path), reach, false);
    if (out) {
      return {
        candidates: [],
        diagnostics: [
          {
            level: "warning",
            code: out.code,
            message: `not read: ${out.message}`,
            path: root.path,
          },
        ],
      };
    }
    const walked = await walkSkillsRoot(root.path, { ...walkOptions, reach });
    const own = reach ? undefined : await yours();
    return {
      candidates: walked.candidates.map((candidate) => ({
        candidate,
        source: root.source,
        reach,
        own,
      })),
      diagnostics: walked.diagnostics,
    };
  };

  /** One named path: its kind, and the project's place and reach when it names the project's. */
  const namedOf = async (raw: string) => {
    const path = resolve(cwd, expandHome(raw, home));
    const kind = await kindOfPath(path);
    // A path into the project (`skills`, `../skills` from its submodule) names the project's
    // skills, read as readTextOrPath reads a named file of it: through the door, within it.
    try {
      const named =
        kind === "dir" || kind === "file"
          ? await namedProjectPath(path, {
              absolute: isAbsolute(expandHome(raw, home)),
              cwd,
              home,
              trusted: options.projectTrusted !== false,
              signal: options.signal,
            })
          : undefined;
      return { raw, path, kind, named };
    } catch (error) {
      // A path whose links could not be checked (too deep, or the deadline) is not read: its
      // warning, while your other folders and the other named paths are.
      const stop = stopOf(error);
      if (stop === undefined) throw error;
      const refusal = stopRefusal(stop);
      const stopped: Diagnostic = {
        level: "warning",
        code: refusal.code,
        message: `not read: ${refusal.message}`,
        path,
      };
      return { raw, path, kind, named: undefined, stopped };
    }
  };
  /** One named path's candidates and what its walk or check said. */
  const readNamed = async (one: Awaited<ReturnType<typeof namedOf>>) => {
    const { raw, path, kind, named } = one;
    const stopped = "stopped" in one ? one.stopped : undefined;
    if (stopped !== undefined) return { candidates: [] as Candidate[], diagnostics: [stopped] };
    const found: Candidate[] = [];
    const said: Diagnostic[] = [];
    const reach = named?.reach;
    const source: SkillSource = named ? "project" : "option";
    const at = named?.path ?? path;
    const own = reach ? undefined : await yours();
    const out = reach && placeRefusal(at, await realpathOrSelf(at), reach, false);
    if (out) {
      said.push({
        level: "warning",
        code: out.code,
        message: `not read: ${out.message}`,
        path,
      });
    } else if (kind === "dir") {
      const walked = await walkSkillsRoot(at, { ...walkOptions, reach });
      pushAll(said, walked.diagnostics);
      for (const candidate of walked.candidates) found.push({ candidate, source, reach, own });
    } else if (kind === "file" && path.endsWith(".md")) {
      // Named on purpose, so validated like a SKILL.md even without a description.
      found.push({ candidate: { filePath: at, loose: false }, source, reach, own });
    } else {
      said.push({
        level: "error",
        code: "skill-path-invalid",
        message:
          kind === "missing"
            ? `skill path not found: ${raw}`
            : kind === "file"
              ? `skill path is not a Markdown (.md) file: ${raw}`
              : `skill path is not a file or folder: ${raw}`,
        path,
      });
    }
    return { candidates: found, diagnostics: said };
  };

  // The user's own skills folders are read first, before any folder of the repository: the
  // default ones, then the paths named out of the project (`~/myskills`), and what they give
  // alone goes to `soFar`: a render that gives up on a repository's slow skills (a thousand
  // SKILL.md of dense frontmatter) still lists the user's. A path named into the project is
  // the project's: read after, with the project's roots, and cut with them.
  const userWalked = new Map<string, { candidates: Candidate[]; diagnostics: Diagnostic[] }>();
  const parsed = new Map<string, ParsedSkill>();
  const namedRead: ({ candidates: Candidate[]; diagnostics: Diagnostic[] } | undefined)[] = [];
  const keepSoFar = async () => {
    const soFar = options.soFar;
    if (!soFar) return;
    // In the order of the full load: the named paths first, then the default folders.
    const walked = [
      ...namedRead.filter((w) => w !== undefined),
      ...((options.includeDefaults ?? true) ? [...userWalked.values()] : []),
    ];
    const said = walked.flatMap((w) => w.diagnostics);
    const keep = (loaded: LoadSkillsResult) => {
      soFar.value = {
        skills: loaded.skills,
        diagnostics: capDiagnostics([...said, ...loaded.diagnostics]),
      };
    };
    // Read again from the first (parsed once), a folder's skills replace what is kept only
    // once they are more: the skills of the folders before stay kept meanwhile.
    const more = (loaded: LoadSkillsResult) => {
      if (loaded.skills.length > (soFar.value?.skills.length ?? 0)) keep(loaded);
    };
    keep(
      await loadCandidates(
        walked.flatMap((w) => w.candidates),
        options.signal,
        parsed,
        more,
      ),
    );
  };
  // Each of your default folders is kept once walked, each skill once read, before any named
  // path is walked: a named path's links may take the walk's whole work, or run to the deadline,
  // and a repository's bulk let in once the gate gives up on your disk starves the rest.
  for (const root of (options.includeDefaults ?? true) ? own.roots : []) {
    if (userWalked.has(root.path)) continue;
    userWalked.set(root.path, await walkRoot(root));
    await keepSoFar();
  }
  if (userWalked.size === 0) await keepSoFar();
  const namedPaths = [];
  for (const raw of options.paths ?? []) namedPaths.push(await namedOf(raw));
  for (const one of namedPaths) namedRead.push(one.named ? undefined : await readNamed(one));
  if (namedRead.some((w) => w !== undefined)) await keepSoFar();

  await options.beforeProject?.();
  for (const [i, one] of namedPaths.entries()) {
    const read = namedRead[i] ?? (await readNamed(one));
    pushAll(diagnostics, read.diagnostics);
    pushAll(candidates, read.candidates);
  }

  if (options.includeDefaults ?? true) {
    const { roots, cut } = await defaultRoots(
      cwd,
      own.roots,
      options.projectDir ?? ".pi",
      ceilingOf(options),
      options.projectTrusted !== false,
    );
    pushAll(diagnostics, cut);
    const seenRoots = new Set<string>();
    for (const root of roots) {
      // Two roots a folder from cwd up to the git root: a cwd a thousand folders deep is thousands of look-ups.
      await checkpoint(options.signal);
      if (seenRoots.has(root.path)) continue;
      seenRoots.add(root.path);
      const found = userWalked.get(root.path) ?? (await walkRoot(root));
      pushAll(diagnostics, found.diagnostics);
      pushAll(candidates, found.candidates);
    }
  }

  const loaded = await loadCandidates(candidates, options.signal, parsed);
  // Capped: a message may quote a skill file's text (an invalid name, a description).
  return {
    skills: loaded.skills,
    diagnostics: capDiagnostics([...diagnostics, ...loaded.diagnostics]),
  };
}

/**
 * The folders and files {@link loadSkills} searches with these options, in
 * its order, each once (explicit `paths`, then the project's roots unless it
 * is untrusted, then the user's), whether they exist or not: what
 * `sysprompt watch` watches for new and edited skills.
 */
export async function skillRoots(options: LoadSkillsOptions = {}): Promise<string[]> {
  const { cwd, agentDir, home } = resolveCommonPaths(options);
  const roots = (options.paths ?? []).map((raw) => resolve(cwd, expandHome(raw, home)));
  if (options.includeDefaults ?? true) {
    const own = await ownRoots(agentDir, home, cwd, options);
    const { roots: found } = await defaultRoots(
      cwd,
      own.roots,
      options.projectDir ?? ".pi",
      ceilingOf(options),
      options.projectTrusted !== false,
    );
    for (const root of found) {
      if (root.source !== "project" || options.projectTrusted !== false) roots.push(root.path);
    }
  }
  return [...new Set(roots)];
}

/** Reads candidates in order, loading each real file once and keeping the first skill of a name. */
/** A file to read as a skill, with the project it must stay in (none for the user's). */
interface Candidate {
  candidate: SkillCandidate;
  source: SkillSource;
  reach?: Reach | undefined;
  /** Yours: a file of yours in a checkout is read through its door (placeOwnFile). */
  own?: OwnFiles | undefined;
}

/** Reads the candidates in order; `signal` stops it between two (thousands of SKILL.md in a root the walk allows). */
async function loadCandidates(
  candidates: Candidate[],
  signal?: AbortSignal,
  parsed?: Map<string, ParsedSkill>,
  /** Told what is loaded so far after each candidate (a copy): your skills kept one by one. */
  progress?: (soFar: LoadSkillsResult) => void,
): Promise<LoadSkillsResult> {
  const skills: Skill[] = [];
  const diagnostics: Diagnostic[] = [];
  const byName = new Map<string, Skill>();
  const seenFiles = new Set<string>();
  let told = 0;
  for (const { candidate, source, reach, own } of candidates) {
    // Before the turn the deadline may fire in: nothing changes between here and the next skill.
    if (progress && skills.length > told) {
      told = skills.length;
      progress({ skills: [...skills], diagnostics: [...diagnostics] });
    }
    await checkpoint(signal);
    const real = await realpathOrSelf(candidate.filePath);
    if (seenFiles.has(real)) continue;
    // A file read already (the user's skills, read first for the partial) is not read again.
    const key = `${source}\0${candidate.filePath}`;
    const loaded = parsed?.get(key) ?? (await loadCandidate(candidate, source, reach, own));
    parsed?.set(key, loaded);
    // Refused for the project, the same file may still be the user's through a root of theirs.
    if (!loaded.diagnostics.some((d) => REFUSAL_CODES.has(d.code))) seenFiles.add(real);
    pushAll(diagnostics, loaded.diagnostics);
    const skill = loaded.skill;
    if (!skill) continue;
    const winner = byName.get(skill.name);
    if (winner) {
      // The project's skill of your skill's name takes its place (pi's order), never silently:
      // your text is then nowhere in the prompt, as when a project's section drops it.
      diagnostics.push(
        winner.source === "project" && skill.source === "user"
          ? {
              level: "warning",
              code: "user-text-left-out",
              message: `your skill "${skill.name}" (${skill.filePath}) is left out: the project's ${winner.filePath} of the same name takes its place (a trusted project's skill of a name wins, as in pi); run with --untrusted, or rename one of them, to have yours back`,
              path: winner.filePath,
            }
          : {
              // Two of one name in one layer is more likely a mistake.
              level: winner.source === skill.source ? "warning" : "info",
              code: "name-collision",
              message: `skill "${skill.name}": ${winner.filePath} (${winner.source}) wins over ${skill.filePath} (${skill.source})`,
              path: skill.filePath,
            },
      );
      continue;
    }
    byName.set(skill.name, skill);
    skills.push(skill);
  }
  return { skills, diagnostics };
}

async function loadCandidate(
  candidate: SkillCandidate,
  source: SkillSource,
  reach: Reach | undefined,
  own: OwnFiles | undefined,
): Promise<ParsedSkill> {
  const loaded = await loadSkillFromFile(candidate.filePath, source, reach, own);
  // A loose .md file in a skills root may be a README or notes; only one that
  // declares a description is a skill, and the rest are not worth a warning.
  if (candidate.loose && !loaded.skill) return { skill: null, diagnostics: [] };
  return loaded;
}

function ceilingOf(options: LoadSkillsOptions): string | undefined {
  return options.ceilingDir === undefined ? undefined : resolve(options.ceilingDir);
}

/**
 * The project roots (nearest first), then the user roots. Of the folders from
 * cwd up to the git root, the {@link MAX_CHAIN_FOLDERS} nearest cwd and the
 * git root are searched; `cut` warns of the rest.
 */
async function defaultRoots(
  cwd: string,
  userRoots: readonly SkillsRoot[],
  projectDir: string,
  ceilingDir: string | undefined,
  trusted: boolean,
): Promise<{ roots: SkillsRoot[]; cut: Diagnostic[] }> {
  const roots: SkillsRoot[] = [{ path: join(cwd, projectDir, "skills"), source: "project" }];
  const refused: RefusedRootMarker[] = [];
  const ancestors = await projectAncestors(cwd, ceilingDir, refused);
  const top = ancestors[ancestors.length - 1] ?? cwd;
  const chain = capChain(ancestors.reverse(), top);
  const cut = chain.skipped > 0 ? [chainCutDiagnostic(cwd, top, chain.skipped, "skills")] : [];
  // An untrusted project's skills are not read anyway: nothing lost to say.
  const lost = trusted ? rootMarkerRefusedDiagnostics(refused, "skills") : [];
  for (const dir of chain.folders.reverse()) {
    roots.push({ path: childPath(dir, ".agents/skills"), source: "project" });
    // Claude Code's folder: a repository set up for it keeps its skills there.
    roots.push({ path: childPath(dir, ".claude/skills"), source: "project" });
  }
  pushAll(roots, userRoots);
  return { roots, cut: [...cut, ...lost] };
}

/**
 * The user's own skills roots, in their search order, less those an
 * untrusted project holds (`HOME` at or inside the checkout: its
 * `.agents/skills`, the agent dir you did not name), each then named in a
 * `user-folder-in-project` warning when it is there.
 */
async function ownRoots(
  agentDir: string,
  home: string,
  cwd: string,
  options: LoadSkillsOptions,
): Promise<{ roots: SkillsRoot[]; refused: Diagnostic[] }> {
  const where = { cwd, home, trusted: options.projectTrusted !== false, signal: options.signal };
  const roots: SkillsRoot[] = [];
  const refused: Diagnostic[] = [];
  // An agent dir another user could fill is not yours (review rev77d F2), as `ownAgentDir` has it.
  const shared = await sharedAgentDir(agentDir);
  if (shared !== undefined) refused.push(sharedAgentDirDiagnostic(agentDir, shared));
  const candidates = [
    ...(shared === undefined
      ? [{ path: join(agentDir, "skills"), named: agentDirNamed(options) }]
      : []),
    { path: join(home, ".agents", "skills"), named: false },
  ];
  for (const { path, named } of candidates) {
    if (named || !(await ownFolderInProject(path, where))) roots.push({ path, source: "user" });
    else if ((await kindOfPath(path)) !== "missing")
      refused.push(ownFolderInProjectDiagnostic(path));
  }
  return { roots, refused };
}

/**
 * `cwd` and its ancestors up to the nearest one holding a `.git` of yours (a folder, or a
 * file in a worktree or submodule). Without a git root, `cwd` alone: walking
 * to `/` would pick up skills from unrelated folders.
 */
async function projectAncestors(
  cwd: string,
  ceilingDir: string | undefined,
  refused?: RefusedRootMarker[],
): Promise<string[]> {
  const chain: string[] = [];
  const passed: RefusedRootMarker[] = [];
  let dir = cwd;
  for (;;) {
    chain.push(dir);
    // Another user's `/tmp/.git` is no root (holdsGitRoot): its skills are not the project's.
    if (await holdsGitRoot(dir, passed)) return chain;
    const parent = dirname(dir);
    if (parent === dir || !isBelowCeiling(parent, ceilingDir)) {
      // No root of yours: the skills of a marker's folder passed over, and below it, are lost
      // (cwd's own are read); below a root found above it, they are read.
      if (refused !== undefined)
        pushAll(
          refused,
          passed.filter((r) => r.dir !== cwd),
        );
      return [cwd];
    }
    dir = parent;
  }
}
