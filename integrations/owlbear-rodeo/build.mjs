// Bundles src/main.ts (with @melee/client from clients/typescript and @owlbear-rodeo/sdk) into
// dist/main.js, the ES module index.html loads. `--stub` bundles test/obr-stub.js in the SDK's
// place instead: the page then runs outside Owlbear Rodeo, for the browser test, which serves
// that bundle (written to `--outfile PATH`) as dist/main.js.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const stub = process.argv.includes("--stub");
const outfile = process.argv.includes("--outfile") ? process.argv[process.argv.indexOf("--outfile") + 1] : here("dist/main.js");
await build({
  entryPoints: [here("src/main.ts")],
  outfile,
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: !stub,
  sourcemap: stub ? "inline" : false,
  logLevel: "warning",
  alias: {
    "@melee/client": here("../../clients/typescript/src/index.ts"),
    ...(stub ? { "@owlbear-rodeo/sdk": here("test/obr-stub.js") } : {}),
  },
});
