import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** One file of the page, read once when the server starts. */
export interface PageAsset {
  type: string;
  body: Buffer;
}

/**
 * The page's files, by the URL path that serves each. The table is the whole
 * list: a request names one of these paths or gets a 404, and no request
 * path ever reaches the file system.
 */
const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/app.css": { file: "app.css", type: "text/css; charset=utf-8" },
  "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
};

/**
 * Reads the page from the package: `page/` beside this module (copied into
 * `dist/` by `npm run build`). Plain HTML, CSS and JavaScript, no framework,
 * nothing fetched from the network.
 */
export async function loadPage(): Promise<Map<string, PageAsset>> {
  const dir = new URL("./page/", import.meta.url);
  const entries = await Promise.all(
    Object.entries(ASSETS).map(
      async ([path, { file, type }]) =>
        [path, { type, body: await readFile(fileURLToPath(new URL(file, dir))) }] as const,
    ),
  );
  return new Map(entries);
}
