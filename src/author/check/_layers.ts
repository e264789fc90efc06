import { join } from "node:path";
import { parseFrontmatter } from "../../_frontmatter.js";
import { checkpoint } from "../../_pace.js";
import { type LayerConfine, type LoadedLayer, loadLayer } from "../../locate/load-layer.js";
import {
  NO_DEADLINE,
  type OwnFiles,
  ownFilesOf,
  projectReach,
  type Reach,
  readRepoText,
} from "../../repo-files/index.js";
import { listMarkdown, readLayerFiles } from "../../sections/load.js";
import type { Layer } from "../../types.js";

/** A template file with where its body starts, to locate what is found in it. */
export interface TemplateFile {
  name: string;
  path: string;
  body: string;
  /** 1-based line of `path` on which `body` starts. */
  bodyLine: number;
}

/** One layer folder as `check` sees it: what a render loads, plus every template's location. */
export interface CheckedLayer {
  loaded: LoadedLayer;
  partials: TemplateFile[];
  /** SYSTEM_TEMPLATE.md, even when a SYSTEM.md beside it wins in a render (the layer notes that). */
  systemTemplate?: TemplateFile;
}

/**
 * Loads a layer the way a render does (so its diagnostics are the render's),
 * and reads its partials and SYSTEM_TEMPLATE.md again for their paths and body
 * lines, which the render path does not keep. Problems with those files are
 * already in the layer's diagnostics, so the second read's are dropped.
 * `signal` stops the reading and parsing (the promise rejects with its reason).
 * `own` (your layer): a file whose real path lies in a checkout is read through
 * that checkout's door, in both reads, as a render reads it (review rev98a F1).
 */
export async function readLayerForCheck(
  dir: string,
  layer: Layer,
  customFiles: boolean,
  confine?: LayerConfine,
  signal?: AbortSignal,
  own?: { home: string; trusted: boolean; cwd?: string | undefined },
): Promise<CheckedLayer> {
  const reach = confine
    ? await projectReach({ ...confine, trusted: true, signal: signal ?? NO_DEADLINE })
    : undefined;
  const ownFiles = !reach && own ? await ownFilesOf(dir, { ...own, signal }) : undefined;
  const [loaded, partials, systemTemplate] = await Promise.all([
    loadLayer(dir, layer, { customFiles, signal, ...(confine ? { confine } : {}), own }),
    readPartials(join(dir, "partials"), reach, signal, ownFiles),
    customFiles ? readSystemTemplate(join(dir, "SYSTEM_TEMPLATE.md"), reach, ownFiles) : undefined,
  ]);
  return { loaded, partials, ...(systemTemplate ? { systemTemplate } : {}) };
}

async function readPartials(
  dir: string,
  reach: Reach | undefined,
  signal: AbortSignal | undefined,
  own: OwnFiles | undefined,
): Promise<TemplateFile[]> {
  const { names } = await listMarkdown(dir, signal, reach);
  // The files a render reads, no more: past the folder's total the rest are not read.
  const { texts: reads } = await readLayerFiles(dir, names, reach, own);
  const files: TemplateFile[] = [];
  for (const [i, read] of reads.entries()) {
    const file = names[i];
    if (!read.ok || file === undefined) continue;
    await checkpoint(signal);
    const doc = parseFrontmatter(read.text);
    const name = file.slice(0, -".md".length);
    files.push({ name, path: join(dir, file), body: doc.body, bodyLine: doc.bodyLine });
  }
  return files;
}

async function readSystemTemplate(
  path: string,
  reach: Reach | undefined,
  own: OwnFiles | undefined,
): Promise<TemplateFile | undefined> {
  const read = await readRepoText(path, { reach, own });
  return read.ok ? { name: "SYSTEM_TEMPLATE", path, body: read.text, bodyLine: 1 } : undefined;
}
