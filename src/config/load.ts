import { join, relative } from "node:path";
import { decodeText, kindOfPath, realpathOrSelf } from "../_fs.js";
import { leavesFolder, toPosix } from "../_paths.js";
import { entryKind, UnsafePathError } from "../_safe-write.js";
import {
  ownFilesOf,
  type PlantedCheck,
  placeOwnFile,
  plantedCheck,
  readFileNoFollow,
} from "../repo-files/index.js";
import type { Diagnostic } from "../types.js";
import { parseConfig } from "./parse.js";
import {
  CONFIG_FILE_NAME,
  type ConfigFile,
  type ConfigLayer,
  MAX_CONFIG_FILE_BYTES,
} from "./types.js";

/** Where the config files are, and whether the project's may be read. */
export interface ConfigFolders {
  /** The agent dir: `<agentDir>/sysprompt.yaml` is the user's config. */
  agentDir: string;
  /** The working folder: the project folder must resolve inside it. */
  cwd: string;
  /** The project layer folder (`<cwd>/.pi`): `<projectDir>/sysprompt.yaml` is the project's. */
  projectDir: string;
  /** False: the project's file is not read (an info diagnostic says so when there is one). */
  projectTrusted: boolean;
  /**
   * Your home folder: your file whose real path lies in a checkout
   * (`~/.pi -> ~/kits/team`) is read as that checkout's, its hard links and
   * its links out refused (review rev98a F1). Required: pi's config read
   * left it out, and read your file unplaced (fx100b).
   */
  home: string;
}

/**
 * The user's config file, then the project's (the order they apply in, the
 * later winning). Never throws: a missing file is normal and silent; a link,
 * a FIFO, a device, a file over {@link MAX_CONFIG_FILE_BYTES}, binary bytes
 * or a project folder that resolves outside cwd is a warning and the file is
 * not used; an untrusted project's file is not read at all.
 */
export async function loadConfigFiles(folders: ConfigFolders): Promise<{
  files: ConfigFile[];
  diagnostics: Diagnostic[];
}> {
  const userPath = join(folders.agentDir, CONFIG_FILE_NAME);
  const projectPath = join(folders.projectDir, CONFIG_FILE_NAME);
  const [user, project] = await Promise.all([
    readUserConfig(userPath, folders),
    folders.projectTrusted ? readProjectConfig(projectPath, folders) : untrusted(projectPath),
  ]);
  return {
    files: [user, project.file],
    diagnostics: [...user.diagnostics, ...project.diagnostics],
  };
}

/**
 * One config file; see {@link loadConfigFiles}. `planted`: a project's file,
 * refused when another user planted it or a folder on its way ({@link plantedCheck}).
 * A project's file with more than one name (a hard link) is refused, your own
 * is read (review rev96a F1), unless it is a private file of yours (`home`'s:
 * review rev99a, `yourPrivateRefusal`).
 */
export async function readConfigFile(
  path: string,
  layer: ConfigLayer,
  planted?: PlantedCheck,
  inCheckout = false,
  home?: string,
): Promise<ConfigFile> {
  const none = (diagnostics: Diagnostic[] = []): ConfigFile => ({
    layer,
    path,
    found: false,
    values: {},
    lines: new Map(),
    diagnostics,
  });
  let bytes: Buffer | null;
  try {
    bytes = await readFileNoFollow(path, MAX_CONFIG_FILE_BYTES, {
      planted,
      anyNames: layer === "user" && !inCheckout,
      yours: layer === "user" ? { home } : undefined,
    });
  } catch (error) {
    if (!(error instanceof UnsafePathError)) throw error;
    return none([
      {
        level: "warning",
        code: "config-refused",
        message: `${CONFIG_FILE_NAME} not used: ${error.reason}${error.code === "too-large" ? " (a config is a few lines)" : ""}`,
        path,
      },
    ]);
  }
  if (bytes === null) return none();
  const decoded = decodeText(bytes, path);
  if (!decoded.ok) return none(decoded.diagnostics);
  const file = parseConfig(decoded.text, path, layer);
  return { ...file, diagnostics: [...decoded.diagnostics, ...file.diagnostics] };
}

/** Your file: read whatever its names unless its real path lies in a checkout (placeOwnFile). */
async function readUserConfig(path: string, folders: ConfigFolders): Promise<ConfigFile> {
  // No file (most renders): nothing to place, no walk.
  if ((await kindOfPath(path)) === "missing")
    return readConfigFile(path, "user", undefined, false, folders.home);
  const own = await ownFilesOf(folders.agentDir, {
    home: folders.home,
    trusted: folders.projectTrusted,
    cwd: folders.cwd,
  });
  const place = await placeOwnFile(path, own);
  if (place.kind !== "refused")
    return readConfigFile(path, "user", undefined, place.kind === "checkout", folders.home);
  const diagnostic: Diagnostic = {
    level: "warning",
    code: "config-refused",
    message: `${CONFIG_FILE_NAME} not used: ${place.refusal.message}`,
    path,
  };
  return { ...emptyFile(path, "user"), diagnostics: [diagnostic] };
}

/** The project's file, only when the project folder is really inside cwd (`.pi` may be a link). */
async function readProjectConfig(
  path: string,
  folders: ConfigFolders,
): Promise<{ file: ConfigFile; diagnostics: Diagnostic[] }> {
  // `.pi` a FIFO or a file: the project layer says so once (`layer-not-folder`), not here too.
  // Missing (a dangling link included): no file, nothing to say; before, the written `.pi` of a cwd
  // named through a link was compared with cwd's real path and refused on every render (rev57a F1).
  const kind = await kindOfPath(folders.projectDir);
  if (kind !== "dir") return { file: emptyFile(path, "project"), diagnostics: [] };
  const [root, dir] = await Promise.all([
    realpathOrSelf(folders.cwd),
    realpathOrSelf(folders.projectDir),
  ]);
  const rel = relative(root, dir);
  if (leavesFolder(rel)) {
    const file = emptyFile(path, "project");
    return {
      file,
      diagnostics: [
        {
          level: "warning",
          code: "config-refused",
          message: `${CONFIG_FILE_NAME} not used: the project folder resolves to ${toPosix(dir)}, outside the project ${toPosix(root)}`,
          path,
        },
      ],
    };
  }
  // Another user's `.pi` (or file) in a folder anyone may write to is not the project's (rev64a F1),
  // checked again on the opened file: a folder swapped in for the open is refused (rev67a F2).
  const file = await readConfigFile(path, "project", plantedCheck());
  return { file, diagnostics: file.diagnostics };
}

/** An untrusted project's file is never opened; when one is there, an info says it was left out and how to use it. */
async function untrusted(path: string): Promise<{ file: ConfigFile; diagnostics: Diagnostic[] }> {
  const file = emptyFile(path, "project");
  // lstat only, never an open; an entry that cannot even be looked at is not worth a word.
  const kind = await entryKind(path).catch(() => "missing" as const);
  if (kind === "missing") return { file, diagnostics: [] };
  return {
    file,
    diagnostics: [
      {
        level: "info",
        code: "config-untrusted",
        message: `${CONFIG_FILE_NAME} of the project not read: the project is not trusted; trust it (drop --untrusted; in pi, allow the project's files) to use its defaults`,
        path,
      },
    ],
  };
}

function emptyFile(path: string, layer: ConfigLayer): ConfigFile {
  return { layer, path, found: false, values: {}, lines: new Map(), diagnostics: [] };
}
