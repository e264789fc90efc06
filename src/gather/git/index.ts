// The git step: the repository's branch, upstream, change counts and last
// commit subjects, from the system git run with hardened settings.

export { GIT_COMMITS, MAX_GIT_TEXT } from "./_parse.js";
export { gitExcludeFile, type Refusal as GitRefusal } from "./_repository.js";
export {
  GIT_TIMEOUT_MS,
  type GitOptions,
  type GitResult,
  gatherGit,
  gitEnv,
  gitStep,
} from "./git.js";
