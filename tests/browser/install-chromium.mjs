// Decompresses the Chromium that @sparticuz/chromium ships inside its npm
// package (pinned in package-lock.json; nothing else is downloaded) into the
// directory given, with the fonts and the libraries it carries for systems
// that lack them (al2023/lib), and prints the binary's path.
// Usage: node install-chromium.mjs <directory>   (scripts/install-browser runs it)
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const directory = process.argv[2];
mkdirSync(directory, { recursive: true });
process.env.TMPDIR = directory; // the package decompresses into os.tmpdir()
const { default: chromium, inflate } = await import("@sparticuz/chromium");
const bin = fileURLToPath(new URL("../bin/", import.meta.resolve("@sparticuz/chromium")));
const path = await chromium.executablePath(bin);
await inflate(join(bin, "al2023.tar.br"));
console.log(path);
