import { oneLine } from "../../_prompt-text.js";
import { trimRuns } from "../../_text.js";
import type { GitInfo, GitUpstream } from "../../data.js";

/** A branch, an upstream or a subject longer than this is cut (with `…`): repository text, not ours. */
export const MAX_GIT_TEXT = 200;
/** How many commit subjects the section lists. */
export const GIT_COMMITS = 5;

/** Repository text as one escaped line of at most {@link MAX_GIT_TEXT} characters. */
export function gitText(text: string): string {
  const line = oneLine(text.length > MAX_GIT_TEXT * 8 ? text.slice(0, MAX_GIT_TEXT * 8) : text);
  return line.length > MAX_GIT_TEXT ? `${line.slice(0, MAX_GIT_TEXT - 1)}…` : line;
}

/** What `git status --porcelain=v2 --branch -z` says, before the commits are added. */
export type GitStatus = Omit<GitInfo, "commits">;

/**
 * Reads `git status --porcelain=v2 --branch -z`: the `# branch.*` headers and
 * one record per changed path (paths are not kept, only counted). A rename
 * record (`2 …`) is followed by its original path, which is skipped. Linear
 * in the output; an unknown record is ignored. `truncated`: the output is
 * only the start of what git printed, so the counts are lower bounds (the
 * headers come first, so they are whole).
 */
export function parseStatus(output: string, truncated = false): GitStatus {
  const status: GitStatus = {
    branch: null,
    head: null,
    upstream: null,
    staged: 0,
    unstaged: 0,
    untracked: 0,
    conflicted: 0,
    truncated,
  };
  let upstreamName: string | undefined;
  let ab: { ahead: number; behind: number } | undefined;
  const records = output.split("\0");
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? "";
    if (record.startsWith("# ")) {
      const space = record.indexOf(" ", 2);
      const key = space < 0 ? record.slice(2) : record.slice(2, space);
      const value = space < 0 ? "" : record.slice(space + 1);
      if (key === "branch.oid")
        status.head = /^[0-9a-f]{12,}$/.test(value) ? value.slice(0, 12) : null;
      else if (key === "branch.head")
        status.branch = value === "(detached)" ? null : gitText(value);
      else if (key === "branch.upstream") upstreamName = value;
      else if (key === "branch.ab") {
        const match = /^\+(\d+) -(\d+)$/.exec(value);
        if (match) ab = { ahead: Number(match[1]), behind: Number(match[2]) };
      }
      continue;
    }
    const kind = record[0];
    if (kind === "1" || kind === "2") {
      const [x, y] = [record[2], record[3]];
      if (x !== undefined && x !== ".") status.staged++;
      if (y !== undefined && y !== ".") status.unstaged++;
      if (kind === "2") i++; // the original path of a rename or copy
    } else if (kind === "u") status.conflicted++;
    else if (kind === "?") status.untracked++;
  }
  if (upstreamName !== undefined) {
    const upstream: GitUpstream = {
      name: gitText(upstreamName),
      ahead: ab?.ahead ?? 0,
      behind: ab?.behind ?? 0,
      // git prints no branch.ab line when the upstream is gone.
      gone: ab === undefined,
    };
    status.upstream = upstream;
  }
  return status;
}

/** `git log -z --format=%s` output: the subjects, newest first, at most {@link GIT_COMMITS}. */
export function parseSubjects(output: string): string[] {
  return (
    output
      .split("\0")
      .map((s) => trimRuns(s, "\n", "both"))
      // A subject of blanks git keeps (no-break spaces, a tab) would be an empty item.
      .filter((s) => s.trim() !== "")
      .slice(0, GIT_COMMITS)
      .map(gitText)
  );
}

/** What a repository's own config sets that could make git run a program. */
export interface RiskyConfig {
  /** Clean/smudge filter drivers: each can run a program when `git status` hashes a file. */
  drivers: string[];
  /** Protocols it sets a `protocol.<name>.allow` for: each is overridden to `never`. */
  protocols: string[];
  /** The config key that makes it a partial clone (git would fetch missing objects), if any. */
  promisor: string | undefined;
}

/** Boolean config values git reads as false; any other value of a set key is true. */
const GIT_FALSE = new Set(["false", "no", "off", "0"]);

/**
 * Reads `git config -z --get-regexp '^(filter|protocol|extensions|remote)\.'`
 * (`<key>\n<value>` records, section and variable names in lower case): the
 * filter drivers, the protocols given a policy, and whether a missing object
 * would be fetched from a remote (`extensions.partialClone`, a remote with
 * `promisor` true, or a remote with a `partialclonefilter`).
 */
export function parseRiskyConfig(output: string): RiskyConfig {
  const drivers = new Set<string>();
  const protocols = new Set<string>();
  let promisor: string | undefined;
  for (const record of output.split("\0")) {
    const newline = record.indexOf("\n");
    const key = newline < 0 ? record : record.slice(0, newline);
    const value = newline < 0 ? "" : record.slice(newline + 1);
    const first = key.indexOf(".");
    const last = key.lastIndexOf(".");
    const section = key.slice(0, first);
    const middle = first < last ? key.slice(first + 1, last) : undefined;
    const name = key.slice(last + 1);
    if (section === "filter" && middle !== undefined) drivers.add(middle);
    else if (section === "protocol" && middle !== undefined && name === "allow") {
      protocols.add(middle);
    } else if (key === "extensions.partialclone") promisor ??= "extensions.partialClone";
    else if (section === "remote" && name === "promisor" && !GIT_FALSE.has(value.toLowerCase())) {
      promisor ??= `remote.${middle ?? ""}.promisor`;
    } else if (section === "remote" && name === "partialclonefilter") {
      // git makes a remote with a filter a promisor remote, whatever its `promisor` says.
      promisor ??= `remote.${middle ?? ""}.partialclonefilter`;
    }
  }
  return { drivers: [...drivers].sort(), protocols: [...protocols].sort(), promisor };
}
