// The one door for repository files: every read of a file a repository can
// hold (context files, imports, rules, the `.pi` layer, skills, prompt
// templates, presets, config, scenarios) goes through here. See read.ts.

// The caps and the checks the door is built from, for the readers that cap or place what they read.
export {
  charBoundary,
  checkMaxBytes,
  cutMarker,
  DEFAULT_MAX_CONTEXT_BYTES,
  humanBytes,
  withCutMarker,
} from "./capped-read.js";
export {
  type ChainFolder,
  capChain,
  chainCutDiagnostic,
  chainFolders,
  MAX_CHAIN_FOLDERS,
} from "./cwd-chain.js";
// Where an entry opened by its path below a checked folder must lie (rev92a F1-F4). See list-folder.ts.
export { namesRefusal } from "./door-checks.js";
export { isGitFolder } from "./git-file.js";
export {
  type HeldEnd,
  type HeldWalk,
  heldLinks,
  isRepositoryRoot,
  type LinkOut,
  linkOutRefusal,
  mirroredRepository,
  stopOf,
  stopRefusal,
} from "./held-links.js";
export { type HgCopy, type HgIgnore, hgIgnoreAround, hgIgnored } from "./hgignore.js";
export { intoProject } from "./into-project.js";
export { openedElsewhere, realBelow } from "./list-folder.js";
export { type NestedCheck, nestedClones } from "./nested-clone.js";
export { readFileNoFollow } from "./no-follow.js";
export {
  AGENT_DIR_IN_PROJECT,
  agentDirLeftOut,
  type OwnFolderWhere,
  ownAgentDir,
  ownFolderInProject,
  ownFolderInProjectDiagnostic,
  sharedAgentDir,
  sharedAgentDirDiagnostic,
} from "./own-folders.js";
export {
  HOME_IS_TOP,
  MAX_PRIVATE_ENTRIES,
  PRIVATE_PLACES,
  privateLooksMade,
  withPrivateLook,
  YOUR_PRIVATE_PLACES,
  yourHomeFolders,
  yourPrivateRefusal,
} from "./own-private.js";
export {
  type Checkout,
  checkoutReach,
  type OwnFiles,
  type OwnPlace,
  ownFilesOf,
  ownRepositories,
  placeOwnFile,
} from "./own-reach.js";
export { sudoUser } from "./owner.js";
export { type PlantedCheck, plantedCheck } from "./planted.js";
export {
  addIgnoreFile,
  enclosingRepositories,
  excludeRules,
  globalIgnoreRules,
  type IgnoreFileRead,
  NO_DEADLINE,
  type PrivatePathsOptions,
  type PrivateVerdict,
  privatePaths,
  readIgnoreFile,
  withIgnoreFile,
  yourIgnoreLists,
} from "./private-paths.js";
export {
  type FolderJudge,
  listProjectFolder,
  listProjectFolderSync,
  type ProjectListing,
} from "./project-folder.js";
export {
  findProjectRoot,
  holdsGit,
  holdsGitRoot,
  holdsOtherClone,
  holdsProjectRoot,
  holdsRepository,
  holdsUsableGit,
  mergeRootMarkerRefusals,
  type RefusedRootMarker,
  type RootMarkerLoss,
  rootMarkerRefusedDiagnostics,
} from "./project-root.js";
export {
  type FolderInProject,
  folderReaches,
  folderRefused,
  folderRefusedAt,
  foundRefusal,
  listedRefusal,
  type PrivateCheck,
  placeRefusal,
  projectReach,
  type Reach,
  type ReachOptions,
  type Refusal,
  reachOf,
  reachRefusal,
  refusalDiagnostic,
} from "./reach.js";
export {
  type DoorOptions,
  REFUSAL_CODES,
  type Refused,
  type RepoCapped,
  type RepoText,
  readRepoCapped,
  readRepoText,
  readRepoTexts,
} from "./read.js";
export {
  folderRefusedSync,
  type OwnFilesSync,
  ownFilesOfSync,
  projectReachSync,
  readRepoTextSync,
  readRepoTextsSync,
  type SyncDoorOptions,
} from "./read-sync.js";
// The one walk over a repository's folders. See walk.ts.
export {
  type Enter,
  listFolder,
  type WalkedFolder,
  type WalkOptions,
  type WalkSkip,
  type WalkStop,
  walkFolders,
} from "./walk.js";
