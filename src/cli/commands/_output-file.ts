import type { Dir } from "node:fs";
import {
  basename,
  dirname,
  isAbsolute,
  join,
  parse,
  posix,
  relative,
  resolve,
  sep,
} from "node:path";
import { cacheRoot } from "../../_cache-location.js";
import { normalizeText, opensFrontmatter } from "../../_frontmatter.js";
import { lstatKindOrMissing, opendirSync, readlink, realpath, stat } from "../../_io.js";
import { type OutputTarget, outputTarget } from "../../_output-target.js";
import {
  homeFolder,
  isWithin,
  nameKey,
  pathKey,
  resolveUserPath,
  tooLongToName,
  xdgFolder,
} from "../../_paths.js";
import { NO_SUCH_FOLDER, UnsafePathError, writeProblem } from "../../_safe-write.js";
import { escapeInline, hasVisible } from "../../_text.js";
import type { WatchTarget } from "../../author/watch/watch.js";
import { claudeCodeImportPaths, findImportTokens } from "../../gather/context/import-tokens.js";
import {
  MAX_IMPORT_DEPTH,
  MAX_IMPORTS_PER_FILE,
  resolveImport,
} from "../../gather/context/imports.js";
import { NESTED_CONTEXT_NAMES } from "../../gather/context-names.js";
import {
  AGENT_FOLDERS,
  agentFileOf,
  CONFIG_FOLDERS,
  CONFIG_PROMPT_FOLDERS,
  type GlobalInstructionPlace,
  globalInstructionFileOf,
  globalInstructionPlaces,
  IMPORTING_INSTRUCTION_FOLDERS,
  INSTRUCTION_FILES,
  type OwnedHome,
  PROMPT_FOLDERS,
  type PromptFolder,
  placeHolds,
  promptFolderOf,
  promptFoldersOfYours,
  rulePlacesIn,
  SETTINGS_FILES,
  samePathKey,
  topOnlyHolders,
} from "../../hook/snippet.js";
import { layerFileOf } from "../../locate/layer-files.js";
import { DEFAULT_PROJECT_DIR, resolveCommonPaths, yourAgentDirs } from "../../locate/layers.js";
import type { SystemPromptOptions } from "../../options.js";
import type { PreparedPrompt } from "../../render-system-prompt.js";
import {
  DEFAULT_MAX_CONTEXT_BYTES,
  findProjectRoot,
  holdsProjectRoot,
  NO_DEADLINE,
  ownFilesOf,
  projectReach,
  type Reach,
  readRepoCapped,
  stopOf,
} from "../../repo-files/index.js";
import type { SectionTemplate } from "../../sections/types.js";
import type { SectionSource } from "../../types.js";
import { type CliIo, FailedError, RefusedError, UsageError } from "../io.js";
import { otherHomes, PASSWD } from "./_user-homes.js";

/**
 * Files another program runs, or trusts line by line, by their name wherever
 * they are: shell start-up files (`.bashrc`, `.profile`, zsh's, ksh's, csh's),
 * direnv's `.envrc`, vi's `.vimrc` and `.exrc`, git's `.gitconfig` and a
 * worktree's `.git` file, Mercurial's `.hgrc`, `.netrc`, `.npmrc`, sshd's
 * `authorized_keys`. A prompt is never their contents, and
 * a repository's line in it (`BASH_ENV=…`, `ssh-ed25519 AAAA… attacker`)
 * would be run or trusted. Compared by {@link nameKey}: without case, and
 * without a name's trailing dots and spaces (Windows drops them).
 */
export const RUN_BY_NAME_FILES: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".bash_aliases",
  ".kshrc",
  ".cshrc",
  ".tcshrc",
  ".login",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".envrc",
  ".vimrc",
  ".exrc",
  ".gitconfig",
  ".git",
  ".hgrc",
  ".netrc",
  ".npmrc",
  "authorized_keys",
  // Debuggers' start-up files, tmux's, X sessions', R's, Emacs's, pam's environment (review rev51a F2).
  ".gdbinit",
  ".lldbinit",
  ".tmux.conf",
  ".xprofile",
  ".xsessionrc",
  ".xinitrc",
  ".pam_environment",
  ".emacs",
  ".renviron",
  ".rprofile",
  // Package managers' rc files a project keeps (`yarnPath:` runs a script; a pnpmfile is code).
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  "bunfig.toml",
  // pdb runs each line of `./.pdbrc` (an unknown command is Python); Vim's and Neovim's exrc
  // files and the local-vimrc plugin's; dotenv files loaders trust line by line; a `.pth` file's
  // `import` lines run at Python's start (review rev53d F2). `*` stands for any further letters
  // (a final `.md`, `.markdown` or `.txt` aside: see namedLike).
  ".pdbrc",
  ".nvimrc",
  ".nvim.lua",
  ".gvimrc",
  "_vimrc",
  "_gvimrc",
  "_exrc",
  ".lvimrc",
  ".env.*",
  ".flaskenv",
  "*.pth",
  // foreman and honcho run each `name: command` line of a Procfile and skip the rest; GitHub and
  // GitLab take each `pattern @owner` line of a CODEOWNERS (top, docs/, .github/) as a code owner;
  // git-hook runners' files (lefthook's, pre-commit's), as `.husky/` below (review rev58d F3).
  "Procfile",
  "Procfile.*",
  "CODEOWNERS",
  "lefthook.*",
  ".lefthook.*",
  "lefthook-local.*",
  ".lefthook-local.*",
  ".pre-commit-config.yaml",
  // GHCi runs each line of `./.ghci` as a command (`:!` runs a shell), as pdb runs `.pdbrc` (rev60d F1).
  ".ghci",
  // Bazel applies each `build --run_under=…` line of `.bazelrc` (and of the `user.bazelrc` or
  // `.bazelrc.user` it commonly try-imports) and skips one whose first word is no command;
  // Gradle takes each line of `gradle.properties` as a property (`org.gradle.jvmargs` starts its
  // JVM); asdf's `.tool-versions` line `nodejs path:DIR` runs DIR's `bin/node` (rev66d F6).
  ".bazelrc",
  "user.bazelrc",
  ".bazelrc.user",
  "gradle.properties",
  ".tool-versions",
  // Java-properties files a build wrapper or plugin takes line by line and whose values it
  // downloads and runs (`distributionUrl=`, `wrapperUrl=`, `sdk.dir=`), as `gradle.properties`
  // (rev68d F1); `.mvn/` and `gradle/wrapper/` are folders below.
  "gradle-wrapper.properties",
  "maven-wrapper.properties",
  "local.properties",
  "gradle-daemon-jvm.properties",
  // Files Ruby tools render with ERB before reading them (a `<%= … %>` line is Ruby that runs):
  // RSpec's option files, RuboCop's configuration (and `.rubocop_todo.yml`), Test Kitchen's;
  // Rails' `config/*.yml` is in RUN_BY_NAME_PATHS. Vim's session file, which `vim -S` sources
  // line by line as an exrc (rev68d F3, F4).
  ".rspec",
  ".rspec-local",
  ".rubocop*",
  ".kitchen.yml",
  "kitchen.yml",
  ".kitchen.local.yml",
  "kitchen.local.yml",
  "Session.vim",
  // The LOTP catalogue ("Living Off The Pipeline", boostsecurityio/lotp, commit 8157a0b, the
  // `files:` of each tool whose configuration runs code): the names and patterns a tool reads
  // from a project folder (rev68d F3; its home-only `~/.earthly/config.yml` and `~/.wgetrc` fall
  // under the dot-name rule of a home folder, its archives, `*.tar`, `*.zip`, run nothing); beside
  // it, the same tools' other spellings: `Containerfile`, `GNUmakefile`, `.justfile`,
  // `cloudbuild.yml`, `.goreleaser.yml`, `prettier.config.*`, pytest's `conftest.py`.
  "build.xml",
  "ant.properties",
  "*.awk",
  "*.gawk",
  ".initrc",
  "Gemfile",
  "*.gemspec",
  "Cargo.toml",
  "build.rs",
  ".checkov.yml",
  ".checkov.yaml",
  "Dangerfile",
  "dangerfile.*",
  "deno.json",
  "deno.jsonc",
  "package.json",
  "Dockerfile",
  "Containerfile",
  "Earthfile",
  "eslint.config.*",
  ".eslintrc.js",
  ".eslintrc.cjs",
  ".flake8",
  "tox.ini",
  "setup.cfg",
  "manifest.json",
  "cloudbuild.yaml",
  "cloudbuild.yml",
  "action.yml",
  "action.yaml",
  ".mega-linter.yml",
  ".golangci.*",
  "golangci.*",
  ".gomplate.yaml",
  ".goreleaser.yaml",
  ".goreleaser.yml",
  "*.gradle",
  "*.gradle.kts",
  "justfile",
  ".justfile",
  "magefile.go",
  "Makefile",
  "GNUmakefile",
  "pom.xml",
  "mkdocs.yml",
  "mkdocs.yaml",
  "Directory.Build.props",
  "Directory.Build.targets",
  "mypy.ini",
  ".mypy.ini",
  "phpstan.neon",
  "phpstan.neon.dist",
  "phpstan.dist.neon",
  "requirements.txt",
  "constraints.txt",
  "setup.py",
  "pyproject.toml",
  ".prettierrc.js",
  ".prettierrc.config.js",
  "prettier.config.*",
  "pylintrc",
  ".pylintrc",
  ".pylintrc.toml",
  "test_*.py",
  "*_test.py",
  "conftest.py",
  "Rakefile",
  "*.rake",
  "*.sed",
  "*.filter",
  "sonar-project.properties",
  "stylelint.config.*",
  ".stylelintrc",
  ".stylelintrc*",
  "trivy.yaml",
  ".vale.ini",
  "webpack.config.*",
  ".wgetrc",
  ".tflint.hcl",
  "*.tf",
  "*.go",
  // The names ending as a prompt may ({@link PROMPT_ENDINGS}) that a tool still runs or fetches
  // from (rev69b F1): CMake runs `CMakeLists.txt` (`execute_process`), pip reads a requirements or
  // constraints file's `--index-url`, `-e git+…` and `-r` lines (pip-tools' `requirements/`
  // folder is in RUN_BY_NAME_PATHS), mask runs the code blocks of `maskfile.md`.
  "CMakeLists.txt",
  "requirements*.txt",
  "*-requirements.txt",
  "*_requirements.txt",
  "constraints*.txt",
  "*-constraints.txt",
  "maskfile.md",
  // A prompt written as JSON (`--json`) is no configuration: the dev container an editor starts
  // by `.devcontainer.json` (`postCreateCommand` runs, as `.devcontainer/` below), Crush's
  // `crush.json` and `.crush.json` (MCP servers and LSP commands it runs; rev101d F4).
  ".devcontainer.json",
  "crush.json",
  ".crush.json",
];

/**
 * Files another program runs by their path's last names, `*` any letters of one name: Rails
 * renders each `config/*.yml` (`database.yml`, `config_for`'s) with ERB (rev68d F3); Gauge
 * reads each `env/NAME/*.properties` (LOTP); pip-tools' layout keeps `requirements/*.txt` (rev69b
 * F1). Not the folder whole: `config/prompt.md` is yours.
 */
export const RUN_BY_NAME_PATHS: readonly string[] = [
  "config/*.yml",
  "env/*/*.properties",
  "requirements/*.txt",
];

/**
 * Folders whose every file is another program's configuration, found
 * anywhere on the path: git's folder (`.git/config`, `.git/hooks/`), ssh's,
 * gpg's, the AWS CLI's (`credential_process` runs), kubectl's, docker's; and
 * under `.config`: git's, fish's, systemd's user units and autostart entries;
 * husky's hook folder. Under your home folder every dot-name is refused
 * besides ({@link homeDotNameOf}): no list of them is whole.
 */
export const RUN_BY_NAME_FOLDERS: readonly string[] = [
  ".git",
  ".ssh",
  ".gnupg",
  ".aws",
  ".kube",
  ".docker",
  ".config/git",
  ".config/fish",
  ".config/systemd",
  ".config/autostart",
  // A project's git hooks husky runs (`.husky/pre-commit`, no exec bit needed).
  ".husky",
  // A dev container's `postCreateCommand` runs when an editor opens the project (rev58d F3);
  // systemd's user units in ~/.local/share and the environment of user services (`LD_PRELOAD=`)
  // in another home folder, where the dot-name rule does not reach (rev58e F2).
  ".devcontainer",
  ".local/share/systemd",
  ".config/environment.d",
  // Maven's folder (`wrapper/maven-wrapper.properties`, `jvm.config` its JVM's flags,
  // `maven.config` its arguments, `extensions.xml` code it loads) and Gradle's wrapper folder
  // (rev68d F1); Cargo's (`config.toml`: `[target.…] runner`), Bundler's (`config`), mage's
  // magefiles, the project's own command links npx runs (LOTP).
  ".mvn",
  "gradle/wrapper",
  ".cargo",
  ".bundle",
  "magefiles",
  "node_modules/.bin",
];

/**
 * The system's folders whose files programs run or trust at start, for every
 * user: `/etc` (`profile.d/`, `bash.bashrc`, `environment`, `sudoers.d/`,
 * `cron.d/`, systemd's units, `xdg/autostart/`), `/usr` and the `/lib`
 * folders (units, udev rules that run programs, `modprobe.d/`), `/bin`,
 * `/sbin`, `/boot`, cron's spool, systemd's runtime units, and macOS's
 * `/private/etc`, `/System` and `/Library`'s launchd, `Application Support` and preferences
 * folders. Run as root (a
 * container, CI), `-o` would replace them as it would `~/.profile` (review
 * rev56d F6). Of `/usr`, only the folders of the system's hierarchy and the
 * ports' and vendors' trees, and all of `/usr/local` but `/usr/local/src`: any
 * other folder of `/usr` is a place a container keeps its project
 * (`WORKDIR /usr/src/app`, `/usr/app`; rev57a F2).
 */
export const SYSTEM_FOLDERS: readonly string[] = [
  "/etc",
  ...[
    "bin",
    "sbin",
    "lib",
    "lib32",
    "lib64",
    "libx32",
    "libexec",
    "libdata",
    "include",
    "share",
    "etc",
    "games",
    "local",
    "X11",
    "X11R6",
    "X11R7",
    "pkg",
    "ports",
    "java",
    "openwin",
    "sfw",
    "gnu",
    "standalone",
    "man",
  ].map((f) => `/usr/${f}`),
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/bin",
  "/sbin",
  "/boot",
  "/var/spool/cron",
  "/run/systemd",
  "/private/etc",
  "/System",
  "/Library/LaunchAgents",
  "/Library/LaunchDaemons",
  // Every user's programs' configuration: Claude Code's managed memory
  // `/Library/Application Support/ClaudeCode/CLAUDE.md` (review rev103b F4).
  "/Library/Application Support",
  "/Library/Preferences",
  "/Library/Managed Preferences",
];

/**
 * systemd's runtime folder of each user's manager, `/run/user/<uid>/systemd` (units, generators),
 * read whether or not `$XDG_RUNTIME_DIR` names it: it is unset under `sudo -i`, `su`, cron and CI
 * (review rev58e F2).
 */
const RUNTIME_UNITS = /^\/run\/user\/[0-9]+\/systemd\//;

/** The folders in {@link SYSTEM_FOLDERS} that are projects' places, not the system's. */
const PROJECT_FOLDERS_IN_SYSTEM: readonly string[] = ["/usr/local/src"];

/**
 * The XDG variables that name folders programs read as they read
 * `$XDG_CONFIG_HOME` and `$XDG_DATA_HOME`, with the part of each entry they
 * read: the lists of system folders whole (autostart entries, systemd's
 * units, `applications/`, `environment.d/`), and of the user's runtime
 * folder, a scratch folder of sockets, only `systemd/` (the units and
 * generators systemd runs from there; rev57a F2: `XDG_RUNTIME_DIR=/tmp`
 * refused every `-o` under /tmp).
 */
const XDG_SYSTEM_VARIABLES = [
  ["XDG_CONFIG_DIRS", ""],
  ["XDG_DATA_DIRS", ""],
  ["XDG_RUNTIME_DIR", "systemd"],
] as const;

/** A world-writable folder with the sticky bit (`/tmp`): anyone may put a file there. */
const STICKY_SHARED = 0o1002;

/** A folder where no prompt is written, and what names it (`/etc`, `$XDG_CONFIG_DIRS`). */
export interface SystemFolder {
  at: string;
  by: string;
}

/**
 * {@link SYSTEM_FOLDERS}, and each absolute entry of {@link
 * XDG_SYSTEM_VARIABLES} (as given and by its real path; of the runtime folder
 * its `systemd/`) but one that is `/`, your home folder or holds it (it stands
 * for nothing, as an XDG home folder there does in {@link homeSpellings}), or
 * a folder the system shares with every user (world-writable, sticky and
 * root's: `/tmp`, `/var/tmp`, `/dev/shm`), whose files no program trusts.
 */
export async function systemFolders(
  env: Readonly<Record<string, string | undefined>>,
  home: string,
): Promise<SystemFolder[]> {
  const realHome = await realpath(home).catch(() => home);
  const holdsHome = (f: string) => dirname(f) === f || isWithin(home, f) || isWithin(realHome, f);
  const shared = async (f: string) => {
    const s = await stat(f).catch(() => undefined);
    return s !== undefined && s.uid === 0 && (s.mode & STICKY_SHARED) === STICKY_SHARED;
  };
  const folders: SystemFolder[] = SYSTEM_FOLDERS.map((at) => ({ at, by: at }));
  for (const [name, part] of XDG_SYSTEM_VARIABLES) {
    for (const entry of (env[name] ?? "").split(":").filter((e) => isAbsolute(e))) {
      const at = resolve(entry);
      for (const real of new Set([at, await realpath(at).catch(() => at)])) {
        const folder = join(real, part);
        if (holdsHome(folder) || (part === "" && (await shared(folder)))) continue;
        folders.push({ at: folder, by: `$${name}'s ${join(entry, part)}` });
      }
    }
  }
  return folders;
}

/**
 * What makes `path` a file in one of `folders` ({@link systemFolders}), or
 * undefined: an absolute path within one (as written, and with `.`/`..`
 * taken away), or in a user's {@link RUNTIME_UNITS}, and not in {@link
 * PROJECT_FOLDERS_IN_SYSTEM}.
 */
export function systemFileOf(path: string, folders: readonly SystemFolder[]): string | undefined {
  if (!isAbsolute(path)) return undefined;
  const at = resolve(path);
  if (PROJECT_FOLDERS_IN_SYSTEM.some((f) => isWithin(at, f))) return undefined;
  const found = folders.find((f) => at !== f.at && isWithin(at, f.at));
  if (found !== undefined) return `a file in ${found.by}`;
  if (RUNTIME_UNITS.test(at))
    return `a file in systemd's runtime folder ${at.split("/", 5).join("/")}`;
  return undefined;
}

/**
 * The file the user named to receive the prompt (`render -o`, `export --out`,
 * `watch --export --out`): {@link outputTarget}'s place for it, once
 * {@link refuseNamedOutput} has found it is none of the files a prompt must
 * never replace. `flag` names it in a refusal. `linksFirst` (render, which
 * writes at once): a link or a non-folder on the way is said before what the
 * file is; export says what the file is first, before it renders, and the
 * link when it writes. Last, a name that is no Markdown or text file's ({@link
 * proseNameProblem}; `json`: a `.json` one too) is refused: the lists above say
 * first what a name they hold is.
 */
export async function namedOutput(
  path: string,
  flags: {
    cwd?: string | undefined;
    agentDir?: string | undefined;
    force?: unknown;
    untrusted?: unknown;
  },
  io: CliIo,
  home: string,
  flag: string,
  linksFirst = false,
  json = false,
): Promise<NamedOutput> {
  let out: OutputTarget;
  try {
    out = await outputTarget(path, {
      cwd: io.cwd,
      home,
      renderCwd: flags.cwd === undefined ? undefined : resolveUserPath(flags.cwd, io.cwd, home),
    });
  } catch (error) {
    throw writeError(flag, error);
  }
  if (linksFirst) {
    const problem = await writeProblem(
      out.path,
      out.within === undefined ? {} : { within: out.within },
    );
    if (problem !== undefined) throw writeError(flag, problem);
  }
  const agentDirs = yourAgentDirs({
    agentDir:
      flags.agentDir === undefined ? undefined : resolveUserPath(flags.agentDir, io.cwd, home),
    env: io.env,
    home,
    cwd: io.cwd,
  });
  // The agent dir the render resolves (yourAgentDirs' first) holds the configuration judged here.
  const agentDir = agentDirs[0] ?? join(home, ".pi", "agent");
  const promptFolder = await refuseNamedOutput(path, out.path === path ? undefined : out.path, {
    home,
    cwd: io.cwd,
    env: io.env,
    flag,
    warn: io.stderr,
    cacheRoot: cacheRoot(io.env, home),
    passwd: io.passwd ?? PASSWD,
    agentDir,
    platform: io.machine?.platform ?? process.platform,
  });
  // A target the write refuses anyway (a link on its way where none may be) is said by the write,
  // as before: where its links lead is not judged (render has said it already).
  const problem = linksFirst
    ? undefined
    : await writeProblem(out.path, out.within === undefined ? {} : { within: out.within });
  const writable = problem === undefined;
  const global = await refuseGlobalInstructions(
    path,
    out,
    writable,
    home,
    agentDirs,
    flags,
    flag,
    io,
  );
  const above =
    global === undefined && writable
      ? await refuseLoadedAbove(path, out.path, flags, io, home, flag)
      : undefined;
  const loadedItself = global ?? above;
  const writes = proseNameProblem(path, json);
  if (writes !== undefined) {
    const who = flag === "export" ? "export" : "render";
    const instead =
      flag === "export"
        ? "leave out --out for the default export file"
        : "write to standard output";
    throw new RefusedError(
      `${flag}: ${path}: ${who} ${writes}, or ${instead}; not written: a file of another name may be one a program loads as code (a shell's activate, a Makefile.PL, a *.mk), and the prompt holds a repository's text`,
    );
  }
  const site = await mdxSiteOf(out.path, home);
  if (site !== undefined) {
    throw new RefusedError(
      `${flag}: ${escapeInline(path)}: a Markdown file below a site that compiles Markdown as code (${escapeInline(site.config)}): ${site.site} ${site.runs} when the site builds, and the prompt holds a repository's text; not written: write the prompt out of the site's folders, or to a .txt file`,
    );
  }
  return {
    ...out,
    ...(promptFolder === undefined ? {} : { promptFolder }),
    ...(loadedItself === undefined ? {} : { loadedItself }),
  };
}

/**
 * Refuses a target that is an agent's global instructions file in your home
 * folder ({@link globalInstructionFileOf}: `~/.gemini/GEMINI.md`,
 * `~/.codex/AGENTS.md`, `~/.claude/CLAUDE.md`, …), by its path as written and
 * as resolved, in your home folder by either name: the agent loads it by itself in every project as
 * yours, so the project's prompt, a repository's text in it, would be your
 * words everywhere, whatever line starts the agent. `--force` writes it for a
 * trusted project's prompt, with a warning; never an untrusted one's
 * (`--untrusted`) (decided, review rev92d F5). When it is one (written as `--force` asks): that
 * the agent loads it by itself, for export's hint.
 *
 * @throws RefusedError naming `flag` and the path as the user wrote it.
 */
async function refuseGlobalInstructions(
  path: string,
  out: OutputTarget,
  writable: boolean,
  home: string,
  yourDirs: readonly string[],
  flags: { force?: unknown; untrusted?: unknown },
  flag: string,
  io: CliIo,
): Promise<string | undefined> {
  // As written and as resolved, in your home folder by its path and its real path; and by the
  // real path each default place leads to, through each link on its way and its last (your
  // `~/.claude -> dotfiles/claude`, `~/.gemini/GEMINI.md -> ../dotfiles/gemini/GEMINI.md`: review
  // rev96d F1), compared with the target's, unless the write refuses the target anyway (a link
  // on its way where none may be: said by the write, as before). pi's files at the top of each
  // agent dir pi or the render resolves ({@link yourAgentDirs}), wherever it is, by its path and
  // its real path (rev101d F2, rev107e F3).
  // Run as root, each other user's home folder too, by the same rule (review rev103b F1).
  const others = await otherHomes(io.passwd ?? PASSWD, home, io.env);
  const homes: (string | OwnedHome)[] = [
    home,
    await realpath(home).catch(() => home),
    ...others.flatMap((o) => [o.home, o.real].map((path) => ({ path, user: o.user }))),
  ];
  const agentDirs = [
    ...new Set(
      (await Promise.all(yourDirs.map(async (d) => [d, await realpath(d).catch(() => d)]))).flat(),
    ),
  ];
  const found =
    globalInstructionFileOf([path, out.path], homes, agentDirs, io.env) ??
    (writable ? await globalInstructionLedTo(out.path, homes, agentDirs, io.env) : undefined);
  if (found === undefined) return undefined;
  const what = found.folder
    ? `a file of ${found.agent}'s own instructions folder in ${escapeInline(found.where)} (${escapeInline(found.file)}), whose every file it loads by itself`
    : `${found.agent}'s own instructions file in ${escapeInline(found.where)} (${escapeInline(found.file)}), which it loads by itself`;
  const [words, as] =
    found.owner === undefined
      ? ["your words", "yours"]
      : [`${escapeInline(found.owner)}'s words`, `${escapeInline(found.owner)}'s`];
  const why = `${escapeInline(path)} is ${what} in every project as ${words}: this project's prompt, the repository's text in it, would be read as ${as} everywhere`;
  if (flags.untrusted === true) {
    throw new RefusedError(
      `${flag}: ${why}; not written, and --force does not write an untrusted project's prompt there: write it elsewhere and point the agent at it`,
    );
  }
  if (flags.force !== true) {
    throw new RefusedError(
      `${flag}: ${why}; not written: write it elsewhere and point the agent at it, or pass --force to replace your file with it`,
    );
  }
  io.stderr(`sysprompt: WARNING: ${why}; written there as --force asks\n`);
  return `${found.agent} loads ${found.file} by itself in every project`;
}

/**
 * Refuses a target out of the project being rendered whose name is one an agent or sysprompt
 * loads from a project's folders and the folders above it ({@link NESTED_CONTEXT_NAMES}:
 * `AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, compared by {@link nameKey}), or whose path, read from
 * any of its folders, is a place a rule format loads (`ruleLocationOf` over `RULE_FORMATS`:
 * `CLAUDE.local.md`, `.cursorrules`, `.github/copilot-instructions.md`, `.cursor/rules/x.mdc`,
 * `.windsurf/rules/x.md`, …; review rev98a F3): `~/AGENTS.md`, `~/work/CLAUDE.md` is
 * read by every project below its folder (sysprompt's context files, Claude Code's, opencode's
 * and pi's walk up), so this project's prompt, a repository's text in it, would be their
 * instructions. In the project (by its root as found and its real path, the target as written
 * and as its links lead) it is the project's own file and written. `--force` writes it, with a
 * warning (decided, review rev96d F2: from a clone in /tmp/evil, `render --untrusted -o
 * ~/work/AGENTS.md` was written and every project in `~/work` printed the repository's line).
 * What the agents then do with it, for export's hint; undefined for another file.
 *
 * @throws RefusedError naming `flag` and the path as the user wrote it.
 */
async function refuseLoadedAbove(
  path: string,
  write: string,
  flags: { cwd?: string | undefined; force?: unknown },
  io: CliIo,
  home: string,
  flag: string,
): Promise<string | undefined> {
  const { ruleLocationOf } = await import("../../gather/rules/index.js");
  const contextNames = new Set(NESTED_CONTEXT_NAMES.map(nameKey));
  const name = [basename(path), basename(write)].find((n) => contextNames.has(nameKey(n)));
  const real = (await linkLeads().path(resolve(write))).at;
  const targets = real === undefined ? [write] : [write, real];
  // A rule format's place, read from any folder of the target's (as resolved and as its links
  // lead): `.github/copilot-instructions.md`, `.cursor/rules/x.mdc` (review rev98a F3).
  const rule = targets
    .map((t) => {
      const names = resolve(t)
        .split(sep)
        .filter((n) => n !== "");
      // A project layer's file (`.pi/SYSTEM.md`, `.pi/prompts/x.md`): that project's own render
      // takes it as its prompt's text, whole (SYSTEM.md) or appended (fixer fx99e's finding).
      const place =
        ruleLocationOf(names, nameKey, DEFAULT_PROJECT_DIR) ??
        layerPlace(layerFileOf(names, nameKey, DEFAULT_PROJECT_DIR));
      if (place === undefined) return undefined;
      let folder = resolve(t);
      for (let up = place.folderNames; up < names.length; up++) folder = dirname(folder);
      return { ...place, folder };
    })
    .find((p) => p !== undefined);
  if (name === undefined && rule === undefined) return undefined;
  const cwd = flags.cwd === undefined ? io.cwd : resolveUserPath(flags.cwd, io.cwd, home);
  const other = await otherProjectOf(cwd, home, targets, real);
  if (other === undefined) return undefined;
  const { root, nested } = other;
  const [loads, below] =
    name !== undefined ? [name, dirname(path)] : [rule?.rel ?? "", rule?.folder ?? ""];
  const layer = name === undefined && rule?.source === LAYER_SOURCE;
  const loaded = layer
    ? `sysprompt and pi read ${escapeInline(loads)} as the project layer's own file in ${escapeInline(below)}`
    : `agents load ${escapeInline(loads)} by themselves in every project below ${escapeInline(below)}`;
  const also =
    name !== undefined
      ? "sysprompt's context files, Claude Code, opencode and pi read the folders above a project too"
      : layer
        ? "projects are trusted by default: its SYSTEM.md is the whole prompt, its APPEND_SYSTEM.md added to it"
        : `a place of ${rule?.source}'s rules`;
  const as = layer ? "its own prompt's text" : "that folder's instructions";
  const out =
    nested === undefined
      ? `out of this project (${escapeInline(root)})`
      : `in another repository (${escapeInline(nested)}), not this project (${escapeInline(root)})`;
  const why = `${escapeInline(path)} is ${out}, and ${loaded} (${also}): ${layer ? "its render" : "each"} would read this project's prompt, the repository's text in it, as ${as}`;
  if (flags.force !== true) {
    throw new RefusedError(
      `${flag}: ${why}; not written: write the prompt in this project or to a file of another name, or pass --force to write it there knowingly`,
    );
  }
  io.stderr(`sysprompt: WARNING: ${why}; written there as --force asks\n`);
  return loaded;
}

/**
 * Whether `targets` (a file as written and the real path it leads to, `real`) lie out of the
 * project of the working folder `cwd`, found as a read's ({@link projectReach}: the nearest
 * repository's top, narrowed by the home-folder rule to `cwd` itself when it is the home folder or
 * holds it, a dotfiles `~/.git`), or in a repository of its own below that project's root (a
 * clone with its own `.git`, not a submodule or worktree of it: {@link Reach.nested}), another
 * project (review rev99a F6). Undefined: the project's own file. Else the project's root, and the
 * other repository's folder when it is one.
 */
async function otherProjectOf(
  cwd: string,
  home: string,
  targets: readonly string[],
  real: string | undefined,
): Promise<{ root: string; nested?: string } | undefined> {
  const reach = await projectReach({ start: cwd, home, trusted: true, signal: NO_DEADLINE });
  const roots = [reach.root, reach.realRoot];
  if (!targets.some((t) => roots.some((r) => isWithin(t, r)))) return { root: reach.root };
  const leads = real ?? resolve(targets[0] ?? cwd);
  if (reach.excluded.some((h) => isWithin(leads, h))) return { root: reach.root };
  const nested = isWithin(leads, reach.realRoot) ? await reach.nested(leads) : undefined;
  return nested === undefined ? undefined : { root: reach.root, nested };
}

/** The source {@link refuseLoadedAbove} names a project layer's file by (`layerFileOf`). */
const LAYER_SOURCE = "project layer";

/** A project layer's file as a rule place is said: its names from the layer folder, the folder. */
function layerPlace(
  place: { rel: string; folderNames: number } | undefined,
): { source: string; rel: string; folderNames: number } | undefined {
  return place === undefined ? undefined : { source: LAYER_SOURCE, ...place };
}

/**
 * The global instructions file ({@link globalInstructionPlaces}) whose default place in one of
 * `homes` leads, through its links, to the real path `write` leads to (both followed by {@link
 * linkLeads}, a link not there yet taken as the file it would make), or undefined.
 */
async function globalInstructionLedTo(
  write: string,
  homes: readonly (string | OwnedHome)[],
  agentDirs: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<GlobalInstructionPlace | undefined> {
  const leads = linkLeads();
  const target = (await leads.path(resolve(write))).at;
  if (target === undefined) return undefined;
  const key = samePathKey(target);
  for (const place of globalInstructionPlaces(homes, agentDirs, env)) {
    const at = (await leads.path(place.path)).at;
    if (at !== undefined && placeHolds({ ...place, path: at }, key)) return place;
  }
  return undefined;
}

/**
 * Refuses a target that the render `prepared` reads for the prompt's text
 * (`renderReadTargets` and `reads` in src/author/watch/watch.ts, watch's own
 * test; and where those files' links lead, {@link readThroughLinks}): your
 * `~/.pi/agent/AGENTS.md`, `APPEND_SYSTEM.md`, `SYSTEM.md`, a context file
 * above the project, a file your options name; the next render would read
 * the repository's text there as that file's, yours. With `force` it is
 * written, with a warning (decided, review rev92d F2, rev96d F1). A target in
 * the project is the repository's own file and written, but not one that is
 * yours ({@link yourInputOf}: in the agent dir the render resolves, or named
 * by `--system-prompt`/`--append-system-prompt`), wherever the project's root
 * is found: an untrusted render never writes one of those, `--force` or not
 * (decided, review rev101d F1: from a folder with no `.git` under a home kept
 * in git, the home repository was the project and `-o ~/pi-agent/SYSTEM.md`
 * was written as its own file).
 *
 * @throws RefusedError naming `flag` and the path as the user wrote it.
 */
export async function refuseRenderInput(
  options: SystemPromptOptions,
  prepared: PreparedPrompt,
  target: OutputTarget,
  shown: string,
  flag: string,
  force: unknown,
  warn: (text: string) => void,
  passwd: string = PASSWD,
): Promise<void> {
  // A target the write refuses anyway (a link, a folder) is said by the write, as before; one in
  // the project is the repository's own file (`.cursorrules`, its AGENTS.md), no text of yours,
  // unless it is yours by where the render reads it from. Asked with the write's own `within`, and
  // a missing folder is no reason to stop: the write makes it, so the path is judged as it will be
  // then (review rev107d F1: `-o ~/.pi/agent/prompts/x.md` with no `prompts/` yet, or `-o
  // ~/notes/policy.md` your AGENTS.md imports, was written, every check here skipped).
  const write = target.path;
  const problem = await writeProblem(
    write,
    target.within === undefined ? {} : { within: target.within },
  );
  if (problem !== undefined && problem.reason !== NO_SUCH_FOLDER) return;
  const project = options.cwd === undefined ? undefined : await findProjectRoot(options.cwd);
  const untrusted = prepared.opts?.trusted === false || options.projectTrusted === false;
  const inProject = project !== undefined && isWithin(write, project);
  const named = await importsNamedByYours(options, prepared);
  // Said by its cause: a step late is helped by a longer deadline, a limit of the check is not
  // (review rev108a F5).
  const late = untrusted && !inProject ? unfinishedStep(prepared) : undefined;
  const over = untrusted && !inProject ? named.unknown : undefined;
  const unknown = late ?? over;
  if (unknown !== undefined) {
    const remedy =
      late === undefined
        ? "a limit of this check, not of time: write it in the project"
        : "raise --deadline, or write it in the project";
    throw new RefusedError(
      `${flag}: ${escapeInline(shown)}: ${unknown}, so what is yours is not known: an untrusted project's prompt is not written out of the project then; ${remedy}`,
    );
  }
  const yours = await yourInputOf(options, prepared, write, named.files, passwd);

  if (yours === undefined && project !== undefined && isWithin(write, project)) return;
  // Loaded only for a named output: a render to standard output never asks. A file of yours is
  // read wherever it is (a project may hold your agent dir or the file you name; the render's
  // targets in it are the project's folders as its door lists them).
  if (yours === undefined) {
    const { reads, renderReadTargets } = await import("../../author/watch/watch.js");
    const targets = await renderReadTargets(options, prepared);
    if (!reads(targets, write) && !(await readThroughLinks(targets, write, project))) return;
  }
  const why =
    yours?.agent === undefined
      ? `${escapeInline(shown)}: this render reads that file (${yours?.what ?? "a file of your agent dir, a context file, an import, a file a layer loads"}): the prompt written there, the repository's text in it, would be read as that file's by every later render`
      : yours.owner === undefined
        ? `${escapeInline(shown)}: ${yours.agent} reads that file as yours (${yours.what}): the prompt written there, the repository's text in it, would be read as your words in every project`
        : `${escapeInline(shown)}: ${yours.agent} reads that file as ${escapeInline(yours.owner)}'s (${yours.what}, in the home folder of ${escapeInline(yours.owner)}): the prompt written there, the repository's text in it, would be read as ${escapeInline(yours.owner)}'s words in every project`;
  if (yours !== undefined && untrusted) {
    throw new RefusedError(
      `${flag}: ${why}; not written, and --force does not write an untrusted project's prompt over a file of yours: write it elsewhere`,
    );
  }
  if (force !== true) {
    throw new RefusedError(`${flag}: ${why}; not written: pass --force to write it anyway`);
  }
  warn(`sysprompt: WARNING: ${flag}: ${why}; written there as --force asks\n`);
}

/**
 * The folders of the agent dir whose files the render reads for the prompt's text, beside the
 * files at its top: its layer's sections, partials, agent presets, rules and skills, and
 * `prompts/`, your slash-command templates: not the prompt's text, but expanded as your own typed
 * words, so a repository's text written there speaks as you (review rev105e F2).
 */
const AGENT_DIR_READ_FOLDERS: readonly string[] = [
  "sections",
  "partials",
  "agents",
  "rules",
  "skills",
  "prompts",
];

/**
 * What makes `write` a file the render reads as yours, whatever project holds it, or undefined:
 * a file at the top of an agent dir pi or the render resolves ({@link yourDirsOf}: pi's
 * `$PI_CODING_AGENT_DIR` too, review rev107e F3) or in one of its {@link
 * AGENT_DIR_READ_FOLDERS}, a file below one of the agents' prompt folders in your home folder
 * ({@link PROMPT_FOLDERS} there, as the agent dir's `prompts/`: Codex sends `~/.codex/prompts/x.md`
 * as your message on `/prompts:x`, a Claude Code output style in `~/.claude/output-styles/` is
 * part of its system prompt, in every project; `agent` names who reads it, review rev107d F2;
 * in another user's home folder (`owner` names whose) or where `$CLAUDE_CONFIG_DIR`, `$CODEX_HOME`,
 * `$XDG_CONFIG_HOME` move them too: {@link promptFoldersOfYours} with `passwd`, rev108c F1),
 * a file `--system-prompt` or `--append-system-prompt` names, or any
 * file the render printed as yours ({@link yourFilesRead}: your context file and everything it
 * imports, your layer's sections and base prompt, your skills and rules); each by its path and
 * by the real path it leads to (review rev101d F1, rev103b F3).
 */
async function yourInputOf(
  options: SystemPromptOptions,
  prepared: PreparedPrompt,
  write: string,
  importsNamed: readonly NamedImport[],
  passwd: string,
): Promise<{ what: string; agent?: string; owner?: string } | undefined> {
  const dirs = yourDirsOf(options, prepared);
  const named = [
    prepared.opts?.systemPrompt?.path,
    ...(prepared.opts?.appendSystemPrompt ?? []).map((p) => p.path),
  ].filter((p): p is string => p !== undefined);
  const leads = linkLeads();
  const ledTo = async (p: string) => {
    const at = (await leads.path(resolve(p))).at;
    return at === undefined ? [resolve(p)] : [resolve(p), at];
  };
  const targets = (await ledTo(write)).map(samePathKey);
  const read = new Set(AGENT_DIR_READ_FOLDERS.map(samePathKey));
  for (const agentDir of dirs) {
    for (const dir of (await ledTo(agentDir)).map(samePathKey)) {
      const top = `${dir.replace(/\/$/, "")}/`;
      const names = targets
        .filter((t) => t.startsWith(top))
        .map((t) => t.slice(top.length).split("/"));
      if (names.some((n) => n.length === 1 || read.has(n[0] ?? ""))) {
        return { what: `a file of your agent dir ${escapeInline(agentDir)}` };
      }
    }
  }
  // In your home folder, where $CLAUDE_CONFIG_DIR, $CODEX_HOME, $XDG_CONFIG_HOME move them, and
  // in each other user's home folder as refuseGlobalInstructions judges them (rev108c F1).
  const { home } = resolveCommonPaths(options);
  const env = options.env ?? process.env;
  const homes: (string | OwnedHome)[] = [
    home,
    ...(await otherHomes(passwd, home, env)).flatMap((o) =>
      [o.home, o.real].map((path) => ({ path, user: o.user })),
    ),
  ];
  for (const { agent, path: folder, owner } of promptFoldersOfYours(homes, env)) {
    const tops = (await ledTo(folder)).map((k) => `${samePathKey(k).replace(/\/$/, "")}/`);
    if (targets.some((t) => tops.some((top) => t.startsWith(top)))) {
      const whose = owner === undefined ? {} : { owner };
      return {
        what: `a file of ${agent}'s prompt folder ${escapeInline(folder)}`,
        agent,
        ...whose,
      };
    }
  }
  for (const p of named) {
    const keys = (await ledTo(p)).map(samePathKey);
    if (targets.some((t) => keys.includes(t))) {
      return { what: `a file --system-prompt or --append-system-prompt names, ${escapeInline(p)}` };
    }
  }
  const printed: readonly NamedImport[] = yourFilesRead(prepared);
  for (const { path, what, real } of [...printed, ...importsNamed]) {
    const at = resolve(path);
    const keys = [at, real ?? (await realPathAsItWillBe(at))].map(samePathKey);
    if (targets.some((t) => keys.includes(t))) return { what: `${what}, ${escapeInline(path)}` };
  }
  return undefined;
}

/**
 * The real path `path` will have once it is made, as the kernel will follow it then ({@link
 * linkLeads}, `leads` shared to share its look-ups): each existing name's link followed, a
 * dangling link's target (from the link's folder) and the names after it being the names to be
 * made there; the path as given when it leads nowhere (a loop: no file is made there) or past
 * the look's budget. A file of yours not made yet, named through a linked folder, is keyed as
 * the target it will be, which is judged by where its links lead (review rev108c F2:
 * `@~/lnk2/new.md` with `~/lnk2 -> real` was keyed as written, and `-o ~/real/new.md` was
 * written; rev109f F5: through a dangling `~/dn -> /elsewhere/notes`, `@~/dn/x.md` was keyed as
 * `~/dn/x.md`, and `-o /elsewhere/notes/x.md` was written).
 */
async function realPathAsItWillBe(path: string, leads = linkLeads()): Promise<string> {
  return (await leads.path(resolve(path))).at ?? path;
}

/**
 * The agent dirs whose files are yours for the render `prepared` of `options` ({@link
 * yourAgentDirs}): the one it resolved first, then pi's (`$PI_CODING_AGENT_DIR`) and the default.
 */
function yourDirsOf(options: SystemPromptOptions, prepared: PreparedPrompt): string[] {
  const { cwd, home } = resolveCommonPaths(options);
  const agentDir = prepared.opts?.agentDir ?? options.agentDir;
  return yourAgentDirs({ agentDir, env: options.env ?? process.env, home, cwd });
}

/** The steps that read what is yours: one of them late or failed, what is yours is not known. */
const YOUR_STEPS: readonly string[] = ["user", "context"];

/** The first of {@link YOUR_STEPS} that did not finish in the render `prepared`, said; or undefined. */
function unfinishedStep(prepared: PreparedPrompt): string | undefined {
  const step = prepared.steps.find(
    (s) => YOUR_STEPS.includes(s.name) && (s.status === "timeout" || s.status === "failed"),
  );
  if (step === undefined) return undefined;
  const how = step.status === "timeout" ? "missed the deadline" : "failed";
  return `this render's step "${step.name}", which reads your files, ${how}`;
}

/**
 * At most this many files holding an `@` are read for {@link importsNamedByYours} from your
 * global instructions files and context files and what they import, each up to its cap.
 */
const NAMED_IMPORT_FILES = 32;

/**
 * At most this many files holding an `@` are read for {@link importsNamedByYours} from the
 * global rules folders ({@link rulesFilesIn}) and what their files import: their own budget,
 * not the {@link NAMED_IMPORT_FILES} of the global instructions files (review rev108a F5).
 */
const RULES_IMPORT_FILES = 1000;

/** At most this many bytes are read in all for {@link importsNamedByYours}. */
const NAMED_IMPORT_BYTES = 4 * 1024 * 1024;

/**
 * At most this many imports are named in all by the files {@link importsNamedByYours} reads, each
 * file naming at most the render's own {@link MAX_IMPORTS_PER_FILE} (review rev109f F3).
 */
const NAMED_IMPORTS = 4096;

/**
 * The look at where the paths {@link importsNamedByYours} names lead ({@link linkLeads}) may take
 * this much work: {@link NAMED_IMPORTS} paths, each read from both folders of its file, a few
 * dozen names deep.
 */
const NAMED_IMPORT_LINKS_BUDGET = NAMED_IMPORTS * 2 * 64;

/** A file your instructions import ({@link importsNamedByYours}), and the real path it leads to. */
interface NamedImport {
  path: string;
  what: string;
  /** Where it leads ({@link realPathAsItWillBe}); undefined: not looked at yet. */
  real?: string;
}

/**
 * Every path named by an import line of your instructions files, by either reading of it: the
 * import reader's own ({@link findImportTokens}) and Claude Code's ({@link claudeCodeImportPaths}:
 * `@a.md#usage` names `a.md`, `@my\ notes/b.md` names `my notes/b.md`; review rev107e F1), a
 * path either names counted. Your instructions files: your context files as the render traced
 * them and what they import, each agent's global instructions file that it expands by itself
 * ({@link globalInstructionPlaces}: `~/.claude/CLAUDE.md`, `~/.gemini/GEMINI.md`, each agent
 * dir's `AGENTS.md`...), and the `.md` files of each global instructions folder whose files'
 * imports its agent expands ({@link IMPORTING_INSTRUCTION_FOLDERS}: Claude Code's
 * `~/.claude/rules`, walked down as it walks it, {@link RULES_FOLDER_ENTRIES} entries at most;
 * rev107e F1); followed {@link MAX_IMPORT_DEPTH} levels; each resolved as the agents
 * resolve it ({@link resolveImport}: from the file's folder, `~/` from home), by the file's path
 * and its real path, a missing file included: written, the next render (or Claude Code, Gemini
 * CLI) reads it as yours. Read through the door (`readRepoCapped` with `own`, placed as the
 * render places your files) at {@link DEFAULT_MAX_CONTEXT_BYTES} each, {@link
 * NAMED_IMPORT_BYTES} in all. A file with no `@` names no import: it costs its read only; one
 * with an `@` counts against its walk's budget, {@link NAMED_IMPORT_FILES} for the global
 * instructions and context files and their imports, {@link RULES_IMPORT_FILES} for the rules
 * folders' files and theirs. A file cut, or a budget passed, and `unknown` names that limit
 * (decided, review rev105e F1, rev108a F5).
 */
async function importsNamedByYours(
  options: SystemPromptOptions,
  prepared: PreparedPrompt,
): Promise<{ files: NamedImport[]; unknown?: string }> {
  const { home, cwd } = resolveCommonPaths(options);
  const dirs = yourDirsOf(options, prepared);
  const dir = dirs[0] ?? join(home, ".pi", "agent");
  const places = globalInstructionPlaces([home], dirs, options.env ?? process.env);
  const rules = await rulesFilesIn(
    places.filter((p) => p.folder === true && IMPORTING_INSTRUCTION_FOLDERS.has(p.agent)),
  );
  const starts = [
    ...prepared.context.files
      .filter((f) => f.origin === "user")
      .flatMap((f) => [f.path, ...f.imports]),
    ...places.filter((p) => p.folder !== true).map((p) => p.path),
  ];
  // Your files as the render reads them: one in a checkout through that checkout's door.
  const trusted = prepared.opts?.trusted !== false && options.projectTrusted !== false;
  const own = await ownFilesOf(dir, { home, trusted, cwd });
  const files: NamedImport[] = [];
  const seen = new Set<string>();
  // One look at where the named paths lead, shared: a folder's links and names looked up once.
  const leads = linkLeads(NAMED_IMPORT_LINKS_BUDGET, true);
  let named = 0;
  let queue = [
    ...starts.map((path) => ({ path: resolve(path), depth: 0, rule: false })),
    ...rules.files.map((path) => ({ path: resolve(path), depth: 0, rule: true })),
  ];
  const importing = { own: 0, rules: 0 };
  let bytes = 0;
  while (queue.length > 0) {
    const next: typeof queue = [];
    for (const { path, depth, rule } of queue) {
      const key = samePathKey(path);
      if (seen.has(key)) continue;
      seen.add(key);
      const text = await readRepoCapped(path, { own, maxBytes: DEFAULT_MAX_CONTEXT_BYTES });
      // Missing, or no file (a folder `@docs/` names): nothing imported. Any other refusal (a file
      // of yours linked out of home, unreadable, binary): what it imports is not known (review
      // rev108a F1: a refused `~/.claude/CLAUDE.md -> /dotfiles/CLAUDE.md` was taken as importing
      // nothing, and `-o ~/notes/team.md`, which Claude Code reads through it, was written).
      if (!text.ok && (text.reason === "missing" || text.reason === "not-file")) continue;
      if (!text.ok) {
        return {
          files,
          unknown: `${escapeInline(path)}, a file of yours, could not be read (${text.reason})`,
        };
      }
      if (text.omitted > 0) {
        return {
          files,
          unknown: `${escapeInline(path)}, a file of yours, is over ${DEFAULT_MAX_CONTEXT_BYTES} bytes`,
        };
      }
      bytes += Buffer.byteLength(text.text);
      if (bytes > NAMED_IMPORT_BYTES) {
        return {
          files,
          unknown: `your instructions files hold more than ${NAMED_IMPORT_BYTES} bytes in all`,
        };
      }
      if (!text.text.includes("@")) continue;
      if (rule ? ++importing.rules > RULES_IMPORT_FILES : ++importing.own > NAMED_IMPORT_FILES) {
        return {
          files,
          unknown: rule
            ? `more than ${RULES_IMPORT_FILES} files of your rules folders, or files they import, name an import`
            : `more than ${NAMED_IMPORT_FILES} of your instructions files, or files they import, name an import`,
        };
      }
      const ours = findImportTokens(text.text).map((t) => t.path);
      const claude = claudeCodeImportPaths(text.text);
      const tokens = new Set([...ours, ...claude]);
      if (tokens.size === 0) continue;
      // Each file at most the render's own limit of imports, all at most NAMED_IMPORTS: every
      // import costs a read and a look at where it leads (review rev109f F3: 15 files of 250 KB
      // of `@x` tokens, 40 s of CPU for one -o).
      if (Math.max(new Set(ours).size, new Set(claude).size) > MAX_IMPORTS_PER_FILE) {
        return {
          files,
          unknown: `${escapeInline(path)}, a file of yours, names more than ${MAX_IMPORTS_PER_FILE} imports`,
        };
      }
      named += tokens.size;
      if (named > NAMED_IMPORTS) {
        return {
          files,
          unknown: `your instructions files name more than ${NAMED_IMPORTS} imports in all`,
        };
      }
      const real = await realpath(path).catch(() => path);
      for (const token of tokens) {
        for (const from of new Set([dirname(path), dirname(real)])) {
          const at = resolveImport(token, from, home);
          const led = await leads.path(resolve(at));
          if (led.at === undefined || led.over) {
            return {
              files,
              unknown: `${escapeInline(at)}, a file an instructions file of yours imports, ${led.over ? `is one of more paths than this check follows the links of (${NAMED_IMPORT_LINKS_BUDGET} names looked up)` : "leads through a loop of links"}`,
            };
          }
          files.push({
            path: at,
            what: `a file an instructions file of yours imports (${escapeInline(path)})`,
            real: led.at,
          });
          if (depth + 1 < MAX_IMPORT_DEPTH) next.push({ path: at, depth: depth + 1, rule });
        }
      }
    }
    queue = next;
  }
  return rules.over === undefined ? { files } : { files, unknown: rules.over };
}

/**
 * At most this many entries of the global rules folders are listed for {@link rulesFilesIn}
 * (`.git` not walked): the rules walk's own budget, as big as a team's rules checkout.
 */
const RULES_FOLDER_ENTRIES = 4096;

/** Folders below a global rules folder listed for {@link rulesFilesIn}, at most. */
const RULES_FOLDER_DEPTH = 8;

/**
 * The `.md` files (any case) in each of the global instructions folders `places` and the
 * folders below them, as Claude Code walks `~/.claude/rules` (a link to a folder followed, as it
 * follows one), {@link RULES_FOLDER_DEPTH} levels down; more than {@link RULES_FOLDER_ENTRIES}
 * entries listed in all, and `over` says so. A folder that is not there, or cannot be read,
 * holds none. A folder named `.git` is not walked: Claude Code walks every folder, dot folders
 * too, but git keeps no `.md` file there, and a linked team checkout's objects are thousands of
 * entries (review rev108a F5); other dot folders (`.github`) are walked as it walks them.
 */
async function rulesFilesIn(
  places: readonly GlobalInstructionPlace[],
): Promise<{ files: string[]; over?: string }> {
  const files: string[] = [];
  let entries = 0;
  for (const place of places) {
    let level = [place.path];
    for (let depth = 0; depth < RULES_FOLDER_DEPTH && level.length > 0; depth++) {
      const next: string[] = [];
      for (const folder of level) {
        let dir: Dir;
        try {
          dir = opendirSync(folder, { bufferSize: 64 });
        } catch {
          continue;
        }
        try {
          for (let entry = await dir.read(); entry !== null; entry = await dir.read()) {
            if (entry.name === ".git") continue;
            if (++entries > RULES_FOLDER_ENTRIES) {
              return {
                files,
                over: `${escapeInline(place.file)}, a folder of your instructions files, holds more than ${RULES_FOLDER_ENTRIES} entries`,
              };
            }
            const path = join(folder, entry.name);
            const kind = entry.isSymbolicLink()
              ? await stat(path).then(
                  (s) => (s.isDirectory() ? "dir" : "file"),
                  () => undefined,
                )
              : entry.isDirectory()
                ? "dir"
                : "file";
            if (kind === "dir") next.push(path);
            else if (kind === "file" && entry.name.toLowerCase().endsWith(".md")) files.push(path);
          }
        } catch {
          // A folder that fails half way gives what was read of it.
        } finally {
          await dir.close().catch(() => undefined);
        }
      }
      level = next;
    }
  }
  return { files };
}

/**
 * The files the render `prepared` read and printed as yours, from its own account of them (not a
 * second walk): your context files (`origin: user`, the agent dir's) and every file they import,
 * your layer's sections (and the versions below them) and base prompt, the appended parts that
 * are no repository's, your skills and your rules. A repository's file, the builtins' and the
 * text given in code are not among them (review rev103b F3: `-o ~/notes/policy.md`, a file your
 * `~/.pi/agent/AGENTS.md` imports, was written by an untrusted render with `--force`).
 */
function yourFilesRead(prepared: PreparedPrompt): { path: string; what: string }[] {
  const files: { path: string; what: string }[] = [];
  for (const traced of prepared.context.files) {
    if (traced.origin !== "user") continue;
    files.push({ path: traced.path, what: "your own context file" });
    for (const path of traced.imports)
      files.push({ path, what: "a file your context file imports" });
  }
  const yourLayer = (source: SectionSource) => source.layer === "user" || source.layer === "option";
  for (const template of prepared.templates) {
    for (let t: SectionTemplate | undefined = template; t !== undefined; t = t.lower) {
      if (yourLayer(t.source) && t.source.path !== undefined) {
        files.push({ path: t.source.path, what: "a section of your layer" });
      }
    }
  }
  for (let c = prepared.customPrompt ?? undefined; c !== undefined; c = c.lower) {
    if (c.repository !== true && yourLayer(c.source) && c.source.path !== undefined) {
      files.push({ path: c.source.path, what: "your base prompt" });
    }
  }
  for (const part of prepared.appendParts ?? []) {
    if (!part.repository && part.path !== undefined) {
      files.push({ path: part.path, what: "a file appended to the prompt as yours" });
    }
  }
  for (const skill of prepared.data.skills) {
    if (skill.origin === "user") files.push({ path: skill.location, what: "a skill of yours" });
  }
  for (const rule of prepared.rules) {
    if (rule.layer === "user") files.push({ path: rule.path, what: "a rule file of yours" });
  }
  return files;
}

/**
 * Whether one of the files the render reads (`targets`, {@link WatchTarget}: a folder's named
 * entries, or every entry of a folder read whole) leads through its links (each link on its way
 * and its last, followed by {@link linkLeads}) to the real path `write` leads to: your
 * `--append-system-prompt ~/notes/base.md` with `base.md -> ../dotfiles/base.md`, then `-o
 * ~/dotfiles/base.md` (review rev96d F1). A folder read whole has its links read ({@link
 * linksBelow}, its own entries). The project's own folders are not followed: the render never
 * reads through a link of the repository's out of it.
 */
async function readThroughLinks(
  targets: readonly WatchTarget[],
  write: string,
  project: string | undefined,
): Promise<boolean> {
  const leads = linkLeads();
  const target = (await leads.path(resolve(write))).at;
  if (target === undefined) return false;
  const key = samePathKey(target);
  const same = (at: string | undefined) => at !== undefined && samePathKey(at) === key;
  for (const t of targets) {
    if (project !== undefined && (t.dir === project || isWithin(t.dir, project))) continue;
    if (t.names !== undefined) {
      for (const name of t.names) if (same((await leads.path(join(t.dir, name))).at)) return true;
      continue;
    }
    const folder = (await leads.path(t.dir)).at;
    if (folder === undefined) continue;
    if (samePathKey(dirname(target)) === samePathKey(folder)) return true;
    for (const link of await linksBelow(t.dir, 1)) {
      if (same((await leads.link(folder, link)).at)) return true;
    }
  }
  return false;
}

/**
 * {@link namedOutput}'s target, the prompt folder it is a file of ({@link promptFolderOf}), and,
 * for a file written as `--force` asks though an agent loads it by itself (an agent's global
 * instructions file, an `AGENTS.md` out of the project), what loads it: export's hint says so.
 */
export interface NamedOutput extends OutputTarget {
  promptFolder?: PromptFolder;
  loadedItself?: string;
}

/**
 * Refuses `text` for a file of a prompt folder ({@link promptFolderOf}) when it opens with a
 * `---` line, with or without a language name (`---yaml`, `--- json`: {@link opensFrontmatter},
 * sysprompt's own reader's test, after a byte-order mark and blank lines): the agent reads that block as the file's
 * settings (Copilot's custom agents, prompt files and chat modes: the tools, terminal included,
 * the model and the mode), and a prompt opens with a repository's text when the base is replaced
 * (a trusted project's `.pi/SYSTEM.md`, a project file named by `--system-prompt`). Whose block
 * it is, nothing in the text tells, so none is written there (decided, review rev88d F1). Every
 * writer of a named output asks this before it writes (`render -o`, `export --out`, `watch`).
 *
 * @throws RefusedError naming `flag` and the path as the user wrote it.
 */
export function refuseSettingsBlock(
  text: string,
  folder: PromptFolder | undefined,
  flag: string,
  path: string,
): void {
  if (folder === undefined) return;
  // Blank lines before it are skipped as an agent's reader may; the opening line is judged
  // by sysprompt's own frontmatter reader's test, the one place (review rev89h F2).
  if (!opensFrontmatter(normalizeText(text).replace(/^(?:[ \t]*\n)*/, ""))) return;
  throw new RefusedError(
    `${flag}: ${escapeInline(path)}: the prompt opens with a --- block, which ${folder.agent} reads in its folder ${folder.folder}/ as the file's settings (tools, model, mode), not as text: not written (that block is the first text of the prompt's base, a .pi/SYSTEM.md or a file --system-prompt names, which may be a repository's); write the prompt to a file of its own, out of ${folder.folder}/`,
  );
}

/**
 * Refuses to write an empty prompt (no character that shows: {@link hasVisible}) to a file: an
 * agent reads the file at each start, and an empty one gave it no system
 * prompt at all, with exit 0 and the line to use it printed (review rev89g
 * F1: a repository's spending emptied the prompt, and `export` wrote it).
 * The file is left as it was; exit 1, the `prompt-empty` error said before
 * it. `render` to stdout writes no file: it prints the empty prompt with the
 * same error, exit 1 only under --strict. Every writer of a prompt file asks
 * this before it writes (`render -o`, `export`, `watch --export`).
 *
 * @throws FailedError naming `flag` and the path as the user wrote it.
 */
export function refuseEmptyPrompt(text: string, flag: string, path: string): void {
  if (hasVisible(text)) return;
  throw new FailedError(
    `${flag}: ${escapeInline(path)}: the prompt is empty (see prompt-empty and the errors before it): not written, the file is left as it was`,
  );
}

/**
 * The endings of the names a prompt is written to (compared by {@link nameKey}: without case,
 * and without the trailing dots and spaces Windows drops): Markdown and plain text, which is
 * what the prompt is. A JSON render (`--json`, `--format`) may go to a `.json` file too: its
 * keys are sysprompt's, the repository's text only in its strings.
 */
/**
 * Agents' plain rule files, Markdown with no ending, which sysprompt reads too: a prompt may be
 * written to them by name (review rev70b F9: `-o .cursorrules` was refused).
 */
const RULE_FILE_NAMES: readonly string[] = [
  ".cursorrules",
  ".windsurfrules",
  ".clinerules",
  ".goosehints",
  ".rules",
];

/**
 * Not `.mdx`: an MDX site (Docusaurus, Next.js, Astro, Storybook) runs a `.mdx` file's
 * `import`/`export` lines when it builds, a repository's lines among them (review rev70b F4:
 * `-o docs/agent.mdx` with an AGENTS.md's `export const x = execSync(…)` ran it under @mdx-js/mdx 3).
 */
export const PROMPT_ENDINGS: readonly string[] = [
  ".md",
  ".markdown",
  ".txt",
  ".prompt",
  // Cursor's rule files: Markdown under a front matter, read as rules (sysprompt reads them too).
  ".mdc",
];

/** The endings of a config file a site may be marked by: JavaScript's and TypeScript's modules. */
const MODULE_ENDINGS = ["ts", "mts", "cts", "js", "mjs", "cjs"];

/**
 * The sites that compile a Markdown file as code by default, by the config files at a site's
 * root (a path below that folder) and the folders below it the site compiles: Docusaurus 3 ("uses
 * the MDX format for all files (including .md files)" unless `markdown.format` says otherwise, as
 * a `.mdx` file, which {@link PROMPT_ENDINGS} refuses; its findConfig tries `.ts`, `.mts`, `.cts`,
 * `.js`, `.mjs`, `.cjs`), of its content plugins' default `path`s: the docs' `docs/` (and
 * `versioned_docs/`), the blog's `blog/`, the pages' `src/pages/`, and the translations' `i18n/`.
 * Not the rest of the site's folder: a root `AGENTS.md` or `.github/…` is no page (review rev108a
 * F4). Others (Next.js's `@next/mdx`, Gatsby's plugin) compile `.md` only when configured to
 * (review rev107d F3). VitePress and VuePress compile every `.md` page below the folder holding
 * `.vitepress/` or `.vuepress/` as a Vue component, `{{ … }}` and `<script setup>` run at build,
 * all but `node_modules/` and dot folders (their globs' defaults; review rev109d F1). Sphinx reads
 * every file below its `conf.py`'s folder, dot folders too, and with a Markdown parser
 * (`myst_parser`, `myst_nb`, `recommonmark`, `m2r`) a Markdown one's `{include}` fence copies any
 * file the build can read into the page: a `conf.py` counts when its text names one (`marks`:
 * Sphinx reads no `.md` without one, and `conf.py` is other programs' name too; review rev109d F2).
 */
const MDX_SITES: readonly {
  site: string;
  configs: readonly string[];
  /** The folders below the site's own it compiles; undefined: all but {@link skipped}'s. */
  content?: readonly string[];
  /** A folder below the site's own it does not compile, by its {@link nameKey}. */
  skipped?: (name: string) => boolean;
  /** A config's text that marks the site; undefined: any entry by the config's name does. */
  marks?: RegExp;
  /** What runs of a page the site compiles. */
  runs: string;
}[] = [
  {
    site: "Docusaurus",
    configs: MODULE_ENDINGS.map((e) => `docusaurus.config.${e}`),
    content: ["docs", "blog", "src/pages", "versioned_docs", "i18n"],
    runs: "compiles it as MDX, as a .mdx file: its import/export lines and {…} expressions run",
  },
  ...["VitePress", "VuePress"].map((site) => ({
    site,
    configs: [...MODULE_ENDINGS, ...(site === "VuePress" ? ["yml", "yaml", "toml"] : [])].map(
      (e) => `.${site.toLowerCase()}/config.${e}`,
    ),
    skipped: (name: string) => name.startsWith(".") || name === "node_modules",
    runs: "compiles it as a Vue component: its {{ … }} expressions and <script> blocks run",
  })),
  {
    site: "Sphinx",
    configs: ["conf.py"],
    marks: /myst|recommonmark|m2r|mdinclude|markdown/i,
    runs: "reads it with a Markdown parser: its {include} fences copy any file the build can read (a key, /proc/self/environ) into the pages",
  },
];

/** Where {@link MDX_SITES} marks a config by its text: at most this much of it is read. */
const SITE_CONFIG_BYTES = 256 * 1024;

/**
 * Whether `below`, the names from a site's folder down to a target's folder, lie in one of the
 * folders `site` compiles ({@link MDX_SITES}).
 */
function compiledBelow(site: (typeof MDX_SITES)[number], below: readonly string[]): boolean {
  const names = below.filter((n) => n !== "");
  if (site.content === undefined) return !names.some((n) => site.skipped?.(n) === true);
  return site.content.some((c) => c.split("/").every((n, i) => names[i] === n));
}

/**
 * Whether the entry at `path` marks `site` ({@link MDX_SITES}): any entry by that name (a link
 * counts, the site follows it), or, for a site marked by its config's text, a file whose text
 * names it, or one the door ({@link readRepoCapped}, as its project's file) does not read whole
 * (a link, unreadable, binary, longer than {@link SITE_CONFIG_BYTES}): not known not to be one.
 */
async function marksSite(site: (typeof MDX_SITES)[number], path: string): Promise<boolean> {
  const kind = await lstatKindOrMissing(path).catch(() => undefined);
  if (kind === undefined || site.marks === undefined) return kind !== undefined;
  const start = dirname(path);
  const reach = await projectReach({
    start,
    home: homeFolder(),
    trusted: true,
    signal: NO_DEADLINE,
  });
  const read = await readRepoCapped(path, { reach, maxBytes: SITE_CONFIG_BYTES });
  if (!read.ok) return read.reason !== "missing" && read.reason !== "not-file";
  return read.omitted > 0 || site.marks.test(read.text);
}

/** The names {@link mdxSiteOf} looks at: Markdown a site may compile as MDX. */
const MDX_COMPILED_ENDINGS: readonly string[] = [".md", ".markdown"];

/** The most folders {@link mdxSiteOf} looks in, up from a target's own. */
const MDX_SITE_LEVELS = 32;

/**
 * The outermost project root ({@link findProjectRoot}) of `start`: past a repository's top, the
 * root of the one holding it (a submodule's, a nested clone's), at most {@link MDX_SITE_LEVELS}
 * repositories up; undefined: none.
 */
async function outermostProjectRoot(start: string): Promise<string | undefined> {
  let root: string | undefined;
  let from = start;
  for (let level = 0; level < MDX_SITE_LEVELS; level++) {
    // No root found: findProjectRoot gives the folder itself.
    const found = await findProjectRoot(from).catch(() => from);
    if (found === from && !(await holdsProjectRoot(from).catch(() => false))) break;
    root = found;
    const up = dirname(found);
    if (up === found) break;
    from = up;
  }
  return root;
}

/**
 * The MDX site ({@link MDX_SITES}) that compiles `write`, a Markdown file ({@link
 * MDX_COMPILED_ENDINGS}), or undefined: a site's config file (any entry by that name: a link
 * counts, the site follows it) in a folder above the target's, the target below one of that
 * site's content folders (compared by {@link nameKey}), looked for {@link MDX_SITE_LEVELS}
 * folders up, past any repository's top (a site that is no repository holds a nested clone in its
 * `docs/` and compiles its Markdown: review rev109f F8), not above `home` (as given and by its real
 * path) unless still inside the folder's outermost project root ({@link outermostProjectRoot}: a
 * home kept in git), nor above the file system's root, along the path as written
 * and along the real path of its nearest existing folder (a link of yours into a site's `docs/`).
 * One `lstat` a config name a folder, a file read only where its text marks the site ({@link
 * marksSite}: a `conf.py`) (review rev107d F3: an untrusted repository's
 * `{…}` text written to `site/docs/x.md` ran when the Docusaurus site built; rev108a F3, F4).
 */
export async function mdxSiteOf(
  write: string,
  home?: string,
): Promise<{ site: string; config: string; runs: string } | undefined> {
  const name = nameKey(basename(write));
  if (!MDX_COMPILED_ENDINGS.some((e) => name.length > e.length && name.endsWith(e))) {
    return undefined;
  }
  const folder = dirname(resolve(write));
  // The nearest existing folder's real path, with the names still to be made after it.
  let existing = folder;
  const rest: string[] = [];
  while ((await lstatKindOrMissing(existing).catch(() => undefined)) === undefined) {
    const up = dirname(existing);
    if (up === existing || rest.length >= MDX_SITE_LEVELS) break;
    rest.unshift(basename(existing));
    existing = up;
  }
  const real = await realpath(existing).catch(() => undefined);
  const starts = [folder, ...(real === undefined ? [] : [join(real, ...rest)])];
  const homes =
    home === undefined ? [] : [resolve(home), await realpath(home).catch(() => resolve(home))];
  for (const start of new Set(starts)) {
    const root = await outermostProjectRoot(start);
    let at = start;
    for (let level = 0; level < MDX_SITE_LEVELS; level++) {
      const below = relative(at, start).split(sep).map(nameKey);
      for (const kind of MDX_SITES) {
        for (const config of compiledBelow(kind, below) ? kind.configs : []) {
          const path = join(at, config);
          if (await marksSite(kind, path))
            return { site: kind.site, config: path, runs: kind.runs };
        }
      }
      const up = dirname(at);
      const inRoot = root !== undefined && at !== root && isWithin(at, root);
      if (up === at || (homes.includes(at) && !inRoot)) break;
      at = up;
    }
  }
  return undefined;
}

/**
 * Why `path` is no name for a prompt, or undefined: its name does not end in one of {@link
 * PROMPT_ENDINGS} (or `.json`, for `json`). A trusted project's `.pi/SYSTEM.md` is the prompt's
 * first text, so a name some program loads as code is the project's code, whatever its first
 * line is: a shell's `.venv/bin/activate`, `.rvmrc`, `.autoenv.zsh`; Perl's and Ruby's
 * `Makefile.PL`, `cpanfile`, `Vagrantfile`, `.irbrc`, which stop reading at `__END__`; make's
 * `rules.mk` (`$(shell …)`). No list of such names is whole: the names a prompt may have are
 * (decided, review rev69b F1). The deny lists still apply to these names (`CMakeLists.txt`,
 * `requirements.txt`).
 */
export function proseNameProblem(path: string, json = false): string | undefined {
  const name = nameKey(basename(path));
  const endings = json ? [".json", ...PROMPT_ENDINGS] : PROMPT_ENDINGS;
  if (endings.some((e) => name.length > e.length && name.endsWith(e))) return undefined;
  if (RULE_FILE_NAMES.includes(name)) return undefined;
  return json
    ? "writes JSON: name a file ending .json (or .md, .txt)"
    : "writes Markdown: name a file ending .md or .txt (or .markdown, .mdc, .prompt, or an agent's rule file such as .cursorrules)";
}

/**
 * The file a user named for the prompt (`render -o`, `export --out`), resolved: `~` the home
 * folder, else from where the command runs. A spelling that names a folder (`out/`, `out.md/.`,
 * `d/..`, `.`) is refused as typed: resolving drops the `/` and `/.` and would write a file
 * `out` (rev64d F1), where `open` and `cp` take such a path as a folder.
 *
 * @throws UsageError naming the flag.
 */
export function outputPath(typed: string, flag: string, io: CliIo, home: string): string {
  // A separator, then nothing, `.` or `..` (on Windows `\` separates too).
  const separator = process.platform === "win32" ? "[\\\\/]" : "/";
  if (new RegExp(`(?:^|${separator})\\.{0,2}$`).test(typed)) {
    throw new UsageError(
      `${flag}: ${escapeInline(typed)} names a folder (it ends in a separator, . or ..); name the file (${escapeInline(join(typed, "prompt.md"))})`,
    );
  }
  const path = resolveUserPath(typed, io.cwd, home);
  const tooLong = tooLongToName(path);
  if (tooLong !== undefined) throw new RefusedError(`${flag}: ${tooLong}; name a shorter path`);
  return path;
}

/**
 * A failed write of a named output as the CLI says it: a path refused for
 * what is on disk (a link, a folder, a file there already) is a
 * {@link RefusedError}, exit 2; a write that failed (a full disk, EIO, no
 * permission) a {@link FailedError}, exit 1, as a failed `render > FILE`.
 * Anything else is returned as it is.
 */
export function writeError(flag: string, error: unknown): unknown {
  // A path whose way could not be checked is refused for what is on disk: one line, no usage.
  if (stopOf(error) !== undefined) return new RefusedError(`${flag}: ${(error as Error).message}`);
  if (!(error instanceof UnsafePathError)) return error;
  const message = `${flag}: ${error.message}`;
  return error.code === "write-failed" ? new FailedError(message) : new RefusedError(message);
}

/**
 * Refuses a named output that is an agent's own configuration ({@link
 * agentFileOf}: a settings file such as `~/.codex/config.toml` or a project's
 * `.claude/settings.json`, or any other file in an agent's folder, `.mcp.json`,
 * `.opencode/plugins/x.ts`, `.claude/commands/x.md`, pi's agent dir's
 * `models.json`, Gemini CLI's `.env`, save an instructions file at its top
 * and a prompt folder's file, such as `~/.codex/prompts/x.md`; a checkout in
 * `.claude/worktrees/NAME/` judged from its own top), or a file another
 * program runs or trusts by name ({@link RUN_BY_NAME_FILES},
 * {@link RUN_BY_NAME_FOLDERS}), by the path as written, as it is written
 * (`write`) or as it really is (its folder's real path: `~/.codex` a link
 * into your dotfiles, pi's agent dir wherever it is): the prompt would
 * replace that file's configuration. There is no `--force`: a prompt is never
 * such a file's contents.
 */
async function refuseNamedOutput(
  path: string,
  write: string | undefined,
  where: {
    home: string;
    cwd: string;
    env: Readonly<Record<string, string | undefined>>;
    agentDir: string;
    cacheRoot: string;
    passwd: string;
    flag: string;
    warn: (text: string) => void;
    /** `process.platform`'s value for the machine (`darwin`: `~/Library` is a dot folder). */
    platform: string;
  },
): Promise<PromptFolder | undefined> {
  // Every check compares the real path the write will land at ({@link realPathAsItWillBe}: its
  // folders' real paths, with the names still to be made, its own name not followed, as the write
  // follows none): `~/pi/newdir/x.md` with `~/pi -> ~/.pi/agent` is pi's agent dir's file, though
  // `newdir/` is not made yet (fx107d's limit, fixed by fx109b).
  const landsAt = async (p: string) => join(await realPathAsItWillBe(dirname(p)), basename(p));
  const defined = <T>(x: T | undefined): x is T => x !== undefined;
  const written = [...new Set([path, write, await landsAt(path)].filter(defined))];
  // Each also as the path in your home folder it is by another name (see `homeSpellings`), but
  // sysprompt's own folders, left to their own judges, by any of their names; one that is your home
  // folder, holds it, or is `/` (`--agent-dir ~`) is no folder of sysprompt's alone: it exempts
  // nothing (review rev54b F5).
  const realHome = await realpath(where.home).catch(() => where.home);
  const holdsHome = (o: string) =>
    dirname(o) === o || isWithin(where.home, o) || isWithin(realHome, o);
  const kept = (
    await Promise.all(
      [where.cacheRoot, where.agentDir].map(async (o) => [o, await realPathAsItWillBe(o)]),
    )
  ).filter((names) => !names.some(holdsHome));
  const own = kept.map(([o]) => o).filter(defined);
  const owned = kept.flat();
  const inOwn = (t: string) => owned.some((o) => t === o || isWithin(t, o));
  const resolved = written.filter((t) => !inOwn(t)).map((t) => resolve(t));
  const look = { flag: where.flag, warn: where.warn };
  const named: Named[] = [
    ...written.map((t) => ({ path: t, by: undefined, namesOnly: undefined })),
    ...(await spelledInHome(resolved, where.home, where.env, look, "your home folder's")),
  ];
  const targets = named.map((n) => n.path);
  const said = <T>(judge: (t: string) => T | undefined, names = true) =>
    saidOf(named, judge, names);
  // sysprompt's cache folder, by its path and its real path, the target as written and by its
  // folder's real path (review rev101d F5); one that is your home folder or holds it is none.
  const caches = [where.cacheRoot, await realPathAsItWillBe(where.cacheRoot)];
  const inCache =
    !caches.some(holdsHome) &&
    written.some((t) => caches.some((c) => t !== c && isWithin(resolve(t), c)));
  if (inCache) {
    throw new RefusedError(
      `${where.flag}: ${path}: a file in sysprompt's cache folder (${escapeInline(where.cacheRoot)}), where sysprompt keeps its caches and each project's export file (export/<agent>/<project>/), which that project's agent reads as its system prompt: not written (another project's export, or a cache file, would be replaced by this project's prompt); write the prompt to a file of its own, or for export leave out --out`,
    );
  }
  const system = await systemFolders(where.env, where.home);
  const inSystem = said((t) => systemFileOf(t, system));
  if (inSystem !== undefined) {
    throw new RefusedError(
      `${where.flag}: ${path}: ${inSystem}, where programs read their configuration and start-up files: not written (the prompt holds a repository's text); write the prompt to a file of its own`,
    );
  }
  const run = said(runByNameOf);
  if (run !== undefined) {
    throw new RefusedError(
      `${where.flag}: ${path}: ${run}, which another program runs or trusts line by line: not written over (the prompt holds a repository's text); write the prompt to a file of its own`,
    );
  }
  // Your agents' folders by their real paths too (`~/.codex` a link into your dotfiles), and pi's
  // agent dir wherever it is: a target inside one is named as the file there.
  const folders = [
    ...Object.values(AGENT_FOLDERS).flatMap((names) =>
      names.map((f) => ({ as: join(where.home, f), at: join(where.home, f) })),
    ),
    // (An agent dir that is your home folder or holds it is not taken for a folder of pi's alone.)
    ...(isWithin(where.home, where.agentDir)
      ? []
      : [{ as: join(where.home, ".pi", "agent"), at: where.agentDir }]),
  ];
  const reals = await Promise.all(folders.map((f) => realPathAsItWillBe(f.at)));
  const yours = folders.flatMap((f, i) =>
    [f.at, reals[i]]
      .filter(defined)
      .flatMap((at) =>
        targets.filter((t) => t !== at && isWithin(t, at)).map((t) => join(f.as, relative(at, t))),
      ),
  );
  // Home-level settings files outside any folder (`~/.claude.json`), by their real paths too.
  const files = Object.values(SETTINGS_FILES).flatMap((names) =>
    names.map((f) => join(where.home, f)),
  );
  // As the write would land at it, and where its own link leads (`~/.claude.json -> dotfiles/…`).
  const realFiles = await Promise.all(
    files.map(async (f) => [await landsAt(f), await realPathAsItWillBe(f)]),
  );
  const hit = files.filter((f, i) => [f, ...(realFiles[i] ?? [])].some((p) => targets.includes(p)));
  // GitHub reads `.github` at a repository's top only (`docs/.github/notes.md` is a plain file):
  // a folder holding one is a top when it is its own project root (or lies in no repository).
  const judged = [...targets, ...yours, ...hit];
  const holders = [...new Set(judged.flatMap(topOnlyHolders).map((f) => resolve(where.cwd, f)))];
  const roots = await Promise.all(holders.map((f) => findProjectRoot(f).catch(() => f)));
  const tops = new Set(holders.filter((f, i) => roots[i] === f));
  const isTop = (f: string) => tops.has(resolve(where.cwd, f));
  const found = judged.map((t) => agentFileOf(t, isTop)).find(defined);
  if (found === undefined) {
    // An agent's settings file is said as such first (`~/.claude.json`, gemini's `~/.env`).
    const roots = await rootsInHome(named, where.home);
    const dotted = said(
      (t) => homeDotNameOf(t, where.home, own, where.platform, roots.get(t)),
      false,
    );
    if (dotted !== undefined) {
      throw new RefusedError(
        `${where.flag}: ${path}: ${dotted} in your home folder, where such files are programs' configuration (start-up files, rc files, hooks): not written (the prompt holds a repository's text); write the prompt to a file of its own (a path with no dot-name below your home folder, or for export none: the default export folder)`,
      );
    }
    // Another user's home folder, by the same rule: run as root, `-o ~alice/.bashrc.d/x.sh` (rev66d
    // F5), her dot entries' links followed as yours are, for a home the path lies in (rev68d F2:
    // `-o ~alice/dotfiles/vimrc` with her `~/.vimrc -> dotfiles/vimrc`; under sudo, your own).
    for (const other of await otherHomes(where.passwd, where.home, where.env)) {
      const homes = [resolve(other.home), resolve(other.real)];
      const inside = resolved.some((t) => homes.some((h) => within(t, h)));
      const whose = `${escapeInline(other.user)}'s home folder's`;
      const theirNames = [
        ...written.map((t) => ({ path: t, by: undefined, namesOnly: undefined })),
        ...(inside ? await spelledInHome(resolved, other.home, {}, look, whose) : []),
      ];
      const [byHome, byReal] = [
        await rootsInHome(theirNames, other.home),
        await rootsInHome(theirNames, other.real),
      ];
      const theirs = saidOf(
        theirNames,
        (t) =>
          homeDotNameOf(t, other.home, [], where.platform, byHome.get(t)) ??
          homeDotNameOf(t, other.real, [], where.platform, byReal.get(t)),
        false,
      );
      if (theirs !== undefined) {
        throw new RefusedError(
          `${where.flag}: ${path}: ${theirs} in the home folder of ${escapeInline(other.user)} (${escapeInline(other.home)}), where such files are programs' configuration (start-up files, rc files, hooks): not written (the prompt holds a repository's text); write the prompt to a file of its own (a path with no dot-name below a home folder)`,
        );
      }
    }
    return judged.map((t) => promptFolderOf(t, isTop)).find(defined);
  }
  const rules = found.folder === undefined ? [] : rulePlacesIn(found.folder);
  const prompts = (CONFIG_PROMPT_FOLDERS[found.agent] ?? [])
    .filter((f) => f.startsWith(`${found.folder}/`))
    .map((f) => `${f}/`);
  const what =
    found.folder === undefined
      ? `${found.agent}'s own settings file (${found.file})`
      : found.agent in CONFIG_FOLDERS
        ? `${found.agent}'s configuration (${found.file}, in its folder ${found.folder}/, where only an instructions file at the top is text: ${INSTRUCTION_FILES.join(", ")}${rules.length > 0 ? `; and the rule files sysprompt reads there: ${rules.join(", ")}` : ""}${prompts.length > 0 ? `; and the files of its prompt folders: ${prompts.join(", ")}` : ""})`
        : `${found.agent}'s own configuration (${found.file}, in its folder ${found.folder}/, where only an instructions file at the top is text: ${INSTRUCTION_FILES.join(", ")}; and the files of a prompt folder: ${Object.values(PROMPT_FOLDERS).flat().join(", ")})`;
  throw new RefusedError(
    `${where.flag}: ${path}: ${what}, not written over: the prompt would replace its configuration; write the prompt to a file of its own (another path, or for export none: the default export folder), then add the one line export prints to this file`,
  );
}

/** Each of `named`'s paths with its project root below `home` ({@link projectRootInHome}), if any. */
async function rootsInHome(
  named: readonly Named[],
  home: string,
): Promise<Map<string, string | undefined>> {
  const paths = [...new Set(named.map((n) => n.path))];
  const roots = await Promise.all(paths.map((p) => projectRootInHome(p, home)));
  return new Map(paths.map((p, i) => [p, roots[i]]));
}

/** A path judged as the file it is (`by` undefined) or as the home path it is by another name. */
interface Named {
  path: string;
  by: string | undefined;
  namesOnly: boolean | undefined;
}

/**
 * What `judge` says of the first of `named` it finds something in, with what named it so; a
 * {@link Named} judged by the lists of names only is skipped when `names` is false.
 */
function saidOf<T>(
  named: readonly Named[],
  judge: (t: string) => T | undefined,
  names = true,
): string | undefined {
  for (const n of named) {
    if (n.namesOnly && !names) continue;
    const found = judge(n.path);
    if (found !== undefined) return `${found}${n.by === undefined ? "" : ` (${n.by})`}`;
  }
  return undefined;
}

/**
 * Each of `targets` (resolved) as the path in `home` it is by another name ({@link
 * homeSpellings}: `~/dotfiles/vimrc` is `~/.vimrc` when that is a link to it), for your home
 * folder and for another user's alike (`env` {}: their XDG variables are not yours to know).
 * A look that stopped at its budget is said by a warning naming `whose` configuration folders.
 */
async function spelledInHome(
  targets: readonly string[],
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  look: { flag: string; warn: (text: string) => void },
  whose: string,
): Promise<Named[]> {
  const { spellings, over, unread } = await homeSpellings(home, env);
  if (over > 0 || unread > 0) {
    const folders = unread > 0 ? `, and ${unread} more folders were not looked at for links` : "";
    look.warn(
      `sysprompt: warning: ${look.flag}: ${over} link(s) in ${whose} configuration folders were not followed${folders} (the look at where they lead stopped at its budget of ${HOME_LINKS_BUDGET} names looked up)\n`,
    );
  }
  return spellings.flatMap((s) =>
    targets
      .filter((t) => within(t, s.at))
      .map((t) => ({ path: join(s.as, relative(s.at, t)), by: s.by, namesOnly: s.namesOnly })),
  );
}

/** The XDG base folders programs take for a folder of your home folder's, when set (and absolute). */
const XDG_HOME_FOLDERS = [
  ["XDG_CONFIG_HOME", ".config"],
  ["XDG_DATA_HOME", join(".local", "share")],
  ["XDG_STATE_HOME", join(".local", "state")],
] as const;

/** The most entries of one folder read for its links (a home folder holds a few hundred). */
const ENTRIES_READ = 4096;

/**
 * The most entries read below your home folder's dot folders for their links, two levels down
 * (a home of caches and toolchains, `~/.cache`, `~/.vscode/extensions`, holds some thousands).
 */
const HOME_DOT_ENTRIES = 16_384;

/** Your home folder's dot folders read first: the agents' and the editors' configuration. */
const FIRST_READ = new Set([
  ".config",
  ".local",
  ...Object.values(AGENT_FOLDERS).flatMap((names) => names.map((f) => f.split("/")[0] ?? "")),
  ".vim",
  ".emacs.d",
  ".doom.d",
  ".spacemacs.d",
]);

/**
 * A folder of your home folder by another name: `at` stands for `as`, as
 * `by` says. `namesOnly`: judged by the lists of names only ({@link
 * runByNameOf}, the agents' files), not by the dot-name rule (an XDG folder
 * that is your home folder itself, where every path would be a dot path).
 */
interface Spelling {
  at: string;
  as: string;
  by: string | undefined;
  namesOnly?: boolean;
}

/**
 * The folders that are folders of your home folder by another name, `at`,
 * each with the path it stands for, `as`, and what says so, `by`: your home
 * folder by its real path (HOME given through a link, `/home -> usr/home`:
 * review rev52b F3), and `$XDG_CONFIG_HOME`, `$XDG_DATA_HOME`,
 * `$XDG_STATE_HOME` (set and absolute), as given and by their real paths,
 * for `~/.config`, `~/.local/share` and `~/.local/state`: git, fish, systemd
 * and the autostart entries read their files there, wherever it is (review
 * rev52b F10). An XDG folder that is `/` or holds your home folder stands for
 * nothing here: every path in it would be refused; one that is your home
 * folder stands for `~/.config` (or the others) by the lists of names only
 * (`~/fish/conf.d/x.fish` is fish's, `~/notes.md` is yours). And the real
 * path of each link among your home folder's dot entries and the entries of
 * its real dot folders two levels down (`~/.bashrc -> dotfiles/bashrc`,
 * `~/.config/nvim -> ../dotfiles/nvim`, `~/.vim/vimrc -> ../dotfiles/vimrc`,
 * `~/.config/nvim/init.vim -> ../../dotfiles/init.vim`): the file or folder it
 * leads to is that home path (review rev54b F2, rev69b F2).
 */
async function homeSpellings(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ spellings: Spelling[]; over: number; unread: number }> {
  const realOf = (p: string) => realpath(p).catch(() => p);
  const realHome = await realOf(home);
  const homes = [resolve(home), resolve(realHome)];
  const holdsHome = (folder: string) =>
    dirname(folder) === folder || homes.some((h) => within(h, folder));
  const spellings: Spelling[] = [{ at: resolve(realHome), as: home, by: undefined }];
  // The folders whose links are read: your home folder (its dot entries), ~/.config and the others
  // (and their XDG folders), and the folders whose every file a program runs or trusts, three
  // levels down (`~/.config/systemd/user/x.service`, `~/.config/fish/conf.d/x.fish`); a project's
  // own folders (`gradle/wrapper`, `node_modules/.bin`) are no home folder's.
  // Your home folder's dot entries and what lies two levels down in its dot folders (`~/.vim/vimrc`,
  // `~/.config/nvim/init.vim`, `~/.pi/agent/SYSTEM.md`, `~/.local/share/x`: rev69b F2), the agents'
  // and editors' folders first; ~/.config and the others read again only when reached through a
  // link (the walk goes down real folders only).
  const read: { folder: string; as: string; depth: number; rank: number; dots?: boolean }[] = [
    { folder: home, as: home, depth: 3, rank: 0, dots: true },
    ...RUN_BY_NAME_FOLDERS.filter((f) => f.startsWith(".")).map((f) => ({
      folder: join(home, f),
      as: join(home, f),
      depth: 3,
      rank: 3,
    })),
  ];
  for (const [name, below] of XDG_HOME_FOLDERS) {
    const as = join(home, below);
    if ((await realOf(as)) !== join(resolve(realHome), below)) {
      read.push({ folder: as, as, depth: 2, rank: 1 });
    }
    const at = xdgFolder(env, name);
    if (at === undefined) continue;
    for (const folder of new Set([at, await realOf(at)])) {
      const by = `$${name}, ${at}, is your ~/${below}`;
      if (relative(folder, home) === "" || relative(folder, realHome) === "") {
        spellings.push({ at: resolve(folder), as, by, namesOnly: true });
        continue;
      }
      if (holdsHome(folder)) continue;
      spellings.push({ at: resolve(folder), as, by });
      read.push({ folder, as, depth: 2, rank: 1 });
      for (const f of RUN_BY_NAME_FOLDERS.filter((r) => r.startsWith(`${below}/`))) {
        const rest = f.slice(below.length + 1);
        read.push({ folder: join(folder, rest), as: join(as, rest), depth: 3, rank: 3 });
      }
    }
  }
  // One at a time, shallow folders first (your own dot links before a clone's many), one budget.
  // Past the budget nothing more is read: no folder listed, no link read (review rev56b F3: 12,000
  // links read after it, 0.5-0.9 s); the links of the folder being read are counted.
  const leads = linkLeads();
  let over = 0;
  let unread = 0;
  for (const { folder, as, depth, dots } of read.sort((a, b) => a.rank - b.rank)) {
    if (leads.spent()) {
      unread++;
      continue;
    }
    const links = await linksBelow(folder, depth, dots === true);
    const realFolder = await leads.path(folder);
    for (const link of links) {
      if (leads.spent()) {
        over++;
        continue;
      }
      const led = await leads.link(realFolder.at ?? folder, link);
      if (led.over || realFolder.over) over++;
      const at = led.at;
      if (at === undefined || holdsHome(at)) continue;
      const path = join(as, link);
      spellings.push({ at, as: path, by: `${path} is a link to it` });
    }
  }
  return { spellings: spellings.filter((s) => s.at !== s.as), over, unread };
}

/**
 * {@link isWithin} for a normalized `folder` (as `resolve` gives it) and a
 * resolved `path`: a path shorter than the folder is not compared (a link's
 * long target, 4,000 letters, costs its length once, not once per path
 * judged: review rev55b F3).
 */
function within(path: string, folder: string): boolean {
  return path.length >= folder.length && isWithin(path, folder);
}

/** Links followed on one path before it is given up on (as the kernel's ELOOP). */
const MAX_LINKS = 40;

/**
 * The work the look at where your home folder's links lead may take, in
 * folder names the kernel looks up (each `lstat` and `readlink` charged its
 * path's depth), shared by all the folders read: some thousands for a home
 * of dotfile links, a tenth of a second at most. The link that spends it is
 * taken as written (its target read from its folder, not followed); past it
 * nothing more is read, and a warning says how many links and folders.
 */
export const HOME_LINKS_BUDGET = 100_000;

const OVER = Symbol("over");

/**
 * Where paths and links lead, as the kernel follows them: one name at a time,
 * a link met put in its place, a `..` taken from the real folder reached; a
 * missing name and the rest of the path taken as names to be made there (a
 * dangling `~/.x -> dotfiles/x` leads to `~/dotfiles/x`: review rev55b F2); a
 * loop (more than {@link MAX_LINKS} links) leads nowhere (undefined). One
 * call at a time, all charged to one `budget`, {@link HOME_LINKS_BUDGET} unless given (review rev55b
 * F3); `over`: the budget ran out, and the answer is the path as written.
 * With `memo`, what each name of a real folder is (a link, missing, another
 * entry) is looked up once for all calls: many paths below one folder cost its
 * names once (review rev109f F3: thousands of imports' paths, one `realpath` per
 * folder each). Without, each look is charged, as the look at your home's links
 * wants (its budget stops a clone's links into one deep chain: rev56b F3).
 */
function linkLeads(budget = HOME_LINKS_BUDGET, memo = false) {
  let left = budget;
  const charge = (path: string) => {
    left -= path.split(sep).length;
    if (left < 0) throw OVER;
  };
  const led = new Map<string, { real: string | undefined; links: number }>();
  const kinds = new Map<string, Awaited<ReturnType<typeof lstatKindOrMissing>> | undefined>();
  const kindOf = async (path: string) => {
    if (memo && kinds.has(path)) return kinds.get(path);
    charge(path);
    const kind = await lstatKindOrMissing(path).catch(() => undefined);
    if (memo) kinds.set(path, kind);
    return kind;
  };
  const names = (target: string) => target.split(sep === "\\" ? /[\\/]/ : "/");
  const follow = async (
    from: string,
    target: string,
    count: { links: number },
  ): Promise<string | undefined> => {
    let current = isAbsolute(target) ? parse(target).root : from;
    const parts = names(target);
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i] ?? "";
      if (name === "" || name === ".") continue;
      if (name === "..") {
        current = dirname(current);
        continue;
      }
      const next = join(current, name);
      const kind = await kindOf(next);
      if (kind === undefined) return resolve(current, ...parts.slice(i));
      if (kind !== "link") {
        current = next;
        continue;
      }
      const known = led.get(next);
      if (known !== undefined) {
        count.links += known.links;
        if (known.real === undefined || count.links > MAX_LINKS) return undefined;
        current = known.real;
        continue;
      }
      if (++count.links > MAX_LINKS) return undefined;
      charge(next);
      const inner = await readlink(next).catch(() => undefined);
      if (inner === undefined) return resolve(current, ...parts.slice(i));
      const before = count.links;
      const real = await follow(current, inner, count);
      led.set(next, { real, links: count.links - before });
      if (real === undefined) return undefined;
      current = real;
    }
    return current;
  };
  const within = async (
    written: () => Promise<string | undefined>,
    run: () => Promise<string | undefined>,
  ) => {
    if (left > 0) {
      try {
        return { at: await run(), over: false };
      } catch (error) {
        if (error !== OVER) throw error;
      }
    }
    return { at: await written(), over: true };
  };
  return {
    /** Whether the budget is spent: a look now reads nothing to follow. */
    spent: () => left <= 0,
    /** Where the absolute path `path` leads. */
    path: (path: string) =>
      within(
        async () => path,
        () => follow(parse(path).root, path, { links: 0 }),
      ),
    /** Where the link `link`, in the real folder `folder`, leads. */
    link: (folder: string, link: string) => {
      const path = join(folder, link);
      return within(
        async () => {
          const target = await readlink(path).catch(() => undefined);
          return target === undefined ? undefined : resolve(dirname(path), target);
        },
        () => follow(dirname(path), link.split(sep).pop() ?? "", { links: 0 }),
      );
    },
  };
}

/**
 * The links in `folder` and its folders `depth` levels down, as paths below
 * it: at most {@link ENTRIES_READ} entries read in all, level by level (none
 * where it cannot be read). A link is not followed. `dots` (your home folder):
 * only its dot entries, {@link HOME_DOT_ENTRIES} entries read, and of each
 * level the agents' and editors' folders ({@link FIRST_READ}) first.
 */
async function linksBelow(folder: string, depth: number, dots = false): Promise<string[]> {
  const links: string[] = [];
  let level = [""];
  let entries = 0;
  const most = dots ? HOME_DOT_ENTRIES : ENTRIES_READ;
  const first = (path: string) => (FIRST_READ.has(path.split(sep, 1)[0] ?? "") ? 0 : 1);
  for (let d = 0; d < depth && level.length > 0; d++) {
    const next: string[] = [];
    if (dots) level.sort((a, b) => first(a) - first(b));
    for (const sub of level) {
      let dir: Dir;
      try {
        dir = opendirSync(join(folder, sub), { bufferSize: 256 });
      } catch {
        continue;
      }
      try {
        for (let entry = await dir.read(); entry !== null; entry = await dir.read()) {
          if (dots && d === 0 && !entry.name.startsWith(".")) continue;
          if (++entries > most) return links;
          const path = join(sub, entry.name);
          if (entry.isSymbolicLink()) links.push(path);
          else if (entry.isDirectory()) next.push(path);
        }
      } catch {
        // A folder that fails half way gives what was read of it.
      } finally {
        await dir.close().catch(() => undefined);
      }
    }
    level = next;
  }
  return links;
}

/**
 * What {@link RUN_BY_NAME_FILES}, {@link RUN_BY_NAME_PATHS} or {@link RUN_BY_NAME_FOLDERS} says
 * `path` is (as written, and with `.`/`..` taken away), or undefined.
 */
export function runByNameOf(path: string): string | undefined {
  const written = path.split(sep).join("/");
  for (const p of [written, posix.normalize(written)]) {
    const names = pathKey(p).split("/");
    const file = names[names.length - 1] ?? "";
    if (RUN_BY_NAME_FILES.some((name) => namedLike(file, nameKey(name)))) {
      return `a file named ${file}`;
    }
    for (const pattern of RUN_BY_NAME_PATHS) {
      const last = pathKey(pattern).split("/");
      const tail = names.slice(-last.length);
      if (tail.length === last.length && last.every((n, i) => namedLike(tail[i] ?? "", n))) {
        return `a file ${tail.join("/")} (${pattern})`;
      }
    }
    const folders = names.slice(0, -1);
    for (const folder of RUN_BY_NAME_FOLDERS) {
      const run = pathKey(folder).split("/");
      for (let at = 0; at + run.length <= folders.length; at++) {
        if (run.every((n, j) => folders[at + j] === n)) {
          return `a file in a ${folder}/ folder`;
        }
      }
    }
  }
  return undefined;
}

/**
 * The endings of a prompt saved as text: no program of {@link RUN_BY_NAME_FILES} reads a name
 * its trailing `*` would give them (`.env.md`, `lefthook.md`, `Procfile.txt`; rev64d F7).
 */
const PROSE_ENDING = /\.(?:md|markdown|txt)$/;

/** Each name pattern of {@link RUN_BY_NAME_FILES} and {@link RUN_BY_NAME_PATHS} as a test of a name. */
const NAME_PATTERNS = new Map<string, RegExp>();

/**
 * Whether a file's name (lower-cased, as {@link nameKey} gives it) is `name` of {@link
 * RUN_BY_NAME_FILES}, whose `*` stands for any letters (`test_*.py`); one at the end for further
 * letters, but not a {@link PROSE_ENDING} (`.stylelintrc*` is not `.stylelintrc.md`).
 */
function namedLike(file: string, name: string): boolean {
  if (!name.includes("*")) return file === name;
  let pattern = NAME_PATTERNS.get(name);
  if (pattern === undefined) {
    const parts = name.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
    // Each `*` stands for one letter at least: `*.pth` is not the name `.pth`.
    pattern = new RegExp(`^${parts.join("[^/]+")}$`);
    NAME_PATTERNS.set(name, pattern);
  }
  return pattern.test(file) && !(name.endsWith("*") && PROSE_ENDING.test(file));
}

/**
 * The project root of `path` strictly below `home`, found as the render finds one ({@link
 * findProjectRoot}, no folder above the home folder looked at: a repository's top whose marker is
 * yours), or undefined: none below the home folder. A home kept in git (`~/.git`, a dotfiles home)
 * is none: by the home-folder rule it makes no folder of the home a project's (review rev103b F2).
 */
export async function projectRootInHome(path: string, home: string): Promise<string | undefined> {
  if (!isAbsolute(path)) return undefined;
  const at = resolve(path);
  if (at === home || !isWithin(at, home)) return undefined;
  const folder = dirname(at);
  const root = await findProjectRoot(folder, home).catch(() => undefined);
  if (root === undefined || root === home || !isWithin(root, home)) return undefined;
  // No root found: findProjectRoot gives the folder itself.
  if (root === folder && !(await holdsProjectRoot(folder).catch(() => false))) return undefined;
  return root;
}

/**
 * The folders of macOS's `~/Library` that hold your documents, not programs' configuration:
 * iCloud Drive's `Mobile Documents/` and the cloud drives' `CloudStorage/` (Dropbox, OneDrive),
 * where projects are kept. Compared by {@link nameKey}.
 */
const SYNCED_IN_LIBRARY: readonly string[] = ["mobile documents", "cloudstorage"];

/**
 * What makes `path` a dot-name path under `home` (`a file named .gdbinit`,
 * `a file in the folder .config`), or undefined: its name, or a folder's on
 * its way below your home folder, starts with `.`. Programs read their
 * start-up and rc files there by name (`~/.gdbinit`, `~/.bashrc.d/x.sh`,
 * `~/.config/nvim/init.vim`, `~/.config/environment.d/x.conf`,
 * `~/.emacs.d/init.el`, `~/.pam_environment`), more than any list holds
 * (review rev51a F2). Left to their own judges: sysprompt's cache folder and
 * what is below it (the default export folder), your agents' folders
 * ({@link AGENT_FOLDERS}, pi's agent dir: {@link agentFileOf} allows only
 * their instructions files and prompt folders there), given in `own`. Your
 * home folder itself, as a path, holds no dot-name. On macOS (`platform`
 * darwin) `~/Library` is one as well: programs' per-user configuration lies
 * there, not in dot folders (`LaunchAgents/`, `Application Support/Code/User/`,
 * `Application Support/Claude/`; review rev101d F3). With `root`, the target's project root below
 * the home folder ({@link projectRootInHome}), only the names from the home folder down to it are
 * read: below a repository of its own (`~/code/app/.cursorrules`, `.github/`, `.cursor/rules/`)
 * they are that project's, as anywhere else (review rev103b F2).
 */
export function homeDotNameOf(
  path: string,
  home: string,
  own: readonly string[],
  platform: string = process.platform,
  root?: string,
): string | undefined {
  if (path === home || !isWithin(path, home)) return undefined;
  if (own.some((o) => path === o || isWithin(path, o))) return undefined;
  const agentFolders = Object.values(AGENT_FOLDERS).flatMap((names) =>
    names.map((f) => join(home, f)),
  );
  if (agentFolders.some((f) => isWithin(path, f))) return undefined;
  const all = relative(home, path).split(sep);
  const names =
    root === undefined || !isWithin(path, root)
      ? all
      : all.slice(0, relative(home, root).split(sep).length);
  const library =
    platform === "darwin" &&
    nameKey(names[0] ?? "") === "library" &&
    !SYNCED_IN_LIBRARY.includes(nameKey(names[1] ?? ""));
  const at = library ? 0 : names.findIndex((n) => n.startsWith("."));
  if (at < 0) return undefined;
  const name = names[at] ?? "";
  // (Named by the whole path: `~/.config/app/x.md`, `~/.config` its own repository, is in the folder.)
  return at === all.length - 1 ? `a file named ${name}` : `a file in the folder ${name}`;
}
