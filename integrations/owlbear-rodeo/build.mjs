// Builds the extension's site: src/main.ts bundled (with @melee/client from clients/typescript
// and @owlbear-rodeo/sdk) into main.js, beside manifest.json, index.html, background.html,
// style.css and icon.svg, in service/web/integrations/owlbear-rodeo/ (checked in: Melee serves
// it, so that the extension installs from one URL), or in `--outdir DIR`.
// `--stub [--outfile PATH]` bundles test/obr-stub.js in the SDK's place instead, and only the
// bundle (dist/stub.js by default): the page then runs outside Owlbear Rodeo, for the browser
// test, which serves that bundle as main.js.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const stub = process.argv.includes("--stub");
const outdir = option("--outdir") ?? here("../../service/web/integrations/owlbear-rodeo");
// The stubbed bundle never goes where Melee serves the real one.
const outfile = option("--outfile") ?? (stub ? here("dist/stub.js") : join(outdir, "main.js"));
await build({
  entryPoints: [here("src/main.ts")],
  outfile,
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: !stub,
  sourcemap: stub ? "inline" : false,
  legalComments: "none",
  logLevel: "warning",
  alias: {
    "@melee/client": here("../../clients/typescript/src/index.ts"),
    ...(stub ? { "@owlbear-rodeo/sdk": here("test/obr-stub.js") } : {}),
  },
});
if (!stub) {
  mkdirSync(outdir, { recursive: true });
  for (const file of ["manifest.json", "index.html", "background.html", "style.css", "icon.svg"]) copyFileSync(here(file), join(outdir, file));
}
