// Copies the built SDK (dist/**/*.js, what `npm run build` made) into Melee's service package,
// service/web/sdk/ by default (or the folder given), from where a deployment serves it to /play at
// /play/sdk/<file> (service/web/__init__.py): the page imports it as ES modules, no node at run time.
// The folder's old .js files go first, so a module the SDK no longer has is not served.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const folder = process.argv[2] ?? join(root, "../../service/web/sdk");

/** The .js files below a folder, as paths relative to it. */
function modules(base, at = base) {
  return readdirSync(at, { withFileTypes: true }).flatMap((entry) => {
    const path = join(at, entry.name);
    if (entry.isDirectory()) return modules(base, path);
    return entry.name.endsWith(".js") ? [relative(base, path)] : [];
  });
}

mkdirSync(folder, { recursive: true });
for (const name of modules(folder)) rmSync(join(folder, name));
for (const name of modules(join(root, "dist"))) {
  mkdirSync(dirname(join(folder, name)), { recursive: true });
  writeFileSync(join(folder, name), readFileSync(join(root, "dist", name)));
}
console.log(folder);
