// Build step: `node dist/src/build/copy-serve-page.js` (run by `npm run build`).
// The inspector's page is plain files beside its server; tsc does not copy them.
import { cpSync } from "node:fs";
import { fileURLToPath } from "node:url";

const from = fileURLToPath(new URL("../../../src/serve/page/", import.meta.url));
const to = fileURLToPath(new URL("../serve/page/", import.meta.url));
cpSync(from, to, { recursive: true });
process.stdout.write(`inspector page: ${from} -> ${to}\n`);
