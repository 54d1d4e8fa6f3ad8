// Bundles src/index.ts (and @melee/client) into dist/melee.mjs with esbuild.
// --package also writes dist/melee.zip: the module's FILES under melee/, the archive a Foundry
// "download" URL points to (a plain zip, written here without a dependency).
// --publish [folder] copies the module's FILES into the folder (default: Melee's
// service/web/integrations/foundry-vtt/, from where a deployment serves them, built into its zip).
import { build } from "esbuild";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
await build({
  entryPoints: [join(root, "src/index.ts")],
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  outfile: join(root, "dist/melee.mjs"),
  legalComments: "none",
  logLevel: "warning",
});

/** What an installed module holds: its manifest, the bundle, the languages, the README. */
const FILES = ["module.json", "dist/melee.mjs", "lang/en.json", "lang/fr.json", "lang/pt-BR.json", "README.md"];

if (process.argv.includes("--package")) {
  writeFileSync(join(root, "dist/melee.zip"), zip(FILES.map((name) => [`melee/${name}`, readFileSync(join(root, name))]), new Date()));
  console.log("dist/melee.zip");
}

const publish = process.argv.indexOf("--publish");
if (publish !== -1) {
  const next = process.argv[publish + 1];
  const folder = next && !next.startsWith("--") ? next : join(root, "../../service/web/integrations/foundry-vtt");
  for (const name of FILES) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, name), readFileSync(join(root, name)));
  }
  console.log(folder);
}

/** An MS-DOS date and time (a zip entry's): local time, 2-second steps, years from 1980. */
function dosDateTime(date) {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const day = ((Math.max(date.getFullYear(), 1980) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  return { time, day };
}

function crc32(data) {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function zip(entries, date) {
  const { time, day } = dosDateTime(date);
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = Buffer.from(name);
    const packed = deflateRawSync(data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(day, 12); // a zero here reads as 1980-00-00, a date that is not one
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(day, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
