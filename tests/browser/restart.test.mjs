// A fight saved from /play is resumed after the DEFAULT server restarted (issue 36): the
// command of ./scripts/serve (gunicorn with deploy/gunicorn.conf.py), the embedded store,
// no SECRET_KEY, a temporary MELEE_DATA_DIR. In en, fr and pt: start the server, start a
// fight and play a little, save it to a file, STOP the server (the fight is gone with its
// memory), start it again, resume the fight from the file and play it to its end. The
// generated secret outlives the process in MELEE_DATA_DIR/server-secret (0600), and the
// log says where it lives, never what it is.
// Usage: node restart.test.mjs <repository root>   (MELEE_PYTHON: the Python to run gunicorn with)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TIMEOUT, launch, logHas, noOverflow, seat, text } from "./lib.mjs";
import { checkCardsAndLog, playToTheEnd } from "./play-helpers.mjs";

const root = process.argv[2];
const python = process.env.MELEE_PYTHON || join(root, ".venv/bin/python");
const WAIT = TIMEOUT; // 60 s: a ceiling on each wait for a state (lib.mjs, play-helpers.mjs use it too)
const READY_WITHIN = 120000; // gunicorn's start on that machine

const WORDS = {
  en: { saved: "Saved: keep the file to resume the fight later.", resumed: "The fight is back where it was saved.",
    restored: (v) => new RegExp(`\nThe game master resumes the fight on .+, from the save of .+ \\(version ${v}\\)\\.$`) },
  fr: { saved: "Sauvegardé\u00a0: gardez le fichier pour reprendre le combat plus tard.", resumed: "Le combat reprend là où il a été sauvegardé.",
    restored: (v) => new RegExp(`\nLe meneur de jeu reprend le combat le .+, à partir de la sauvegarde du .+ \\(version ${v}\\)\\.$`) },
  pt: { saved: "Salvo: guarde o arquivo para retomar o combate depois.", resumed: "O combate voltou ao ponto em que foi salvo.",
    restored: (v) => new RegExp(`\nO mestre retoma o combate em .+, a partir do ponto salvo em .+ \\(versão ${v}\\)\\.$`) },
};
const FIGHTS = [{ lang: "en", width: 1280 }, { lang: "fr", width: 390 }, { lang: "pt", width: 1280 }];

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => { const { port } = probe.address(); probe.close(() => resolve(port)); });
  });
}

// The default server as ./scripts/serve runs it: its gunicorn command, from the repository, with
// neither REDIS_URL nor SECRET_KEY (nor WEB_CONCURRENCY: the configuration picks one worker).
async function startServer(port, dataDir) {
  const env = { ...process.env, HOST: "127.0.0.1", PORT: String(port), MELEE_DATA_DIR: dataDir };
  for (const name of ["REDIS_URL", "SECRET_KEY", "SECRET_KEY_FALLBACKS", "WEB_CONCURRENCY", "PROMETHEUS_MULTIPROC_DIR"]) delete env[name];
  const child = spawn(python, ["-m", "gunicorn", "--config", "deploy/gunicorn.conf.py", "service.app:create_app()"],
    { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  const server = { child, base: `http://127.0.0.1:${port}`, output: "", exited: null };
  child.stdout.on("data", (chunk) => { server.output += chunk; });
  child.stderr.on("data", (chunk) => { server.output += chunk; });
  server.exit = new Promise((resolve) => child.once("exit", (code, signal) => { server.exited = { code, signal }; resolve(server.exited); }));
  const deadline = Date.now() + READY_WITHIN;
  while (Date.now() < deadline) {
    assert.equal(server.exited, null, `gunicorn exited: ${server.output}`);
    try {
      if ((await fetch(`${server.base}/readyz`, { signal: AbortSignal.timeout(5000) })).status === 200) return server;
    } catch { /* not listening yet */ }
    await Promise.race([server.exit, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  child.kill("SIGKILL");
  throw new Error(`gunicorn was not ready within ${READY_WITHIN / 1000} s: ${server.output}`);
}

// SIGTERM, as a terminal's Ctrl-C or a service manager stops it; the process is gone when this returns.
async function stopServer(server) {
  server.child.kill("SIGTERM");
  const stopped = await Promise.race([server.exit, new Promise((resolve) => setTimeout(resolve, WAIT, null))]);
  if (stopped === null) server.child.kill("SIGKILL");
  assert.deepEqual(stopped, { code: 0, signal: null }, `gunicorn did not stop cleanly: ${server.output}`);
  return server.output;
}

async function ruleset(page, base) {
  await page.goto(`${base}/play`);
  await page.waitForSelector('#ruleset option[value="sistema-2d6"]', { state: "attached", timeout: WAIT });
}

const browser = await launch();
const errors = [];
const work = mkdtempSync(join(tmpdir(), "melee-restart-"));
let server = null;
let passed = 0;
try {
  for (const { lang, width } of FIGHTS) {
    const words = WORDS[lang];
    const dataDir = join(work, `data-${lang}`); // created by the server itself
    const secretFile = join(dataDir, "server-secret");
    const port = await freePort();

    // 1. The default server; a fight started in /play, played a little, saved to a file.
    server = await startServer(port, dataDir);
    const base = server.base;
    let seated = await seat(browser, lang, width, errors);
    let page = seated.page;
    page.setDefaultTimeout(WAIT);
    await ruleset(page, base);
    await page.selectOption("#ruleset", "sistema-2d6");
    await page.click("#create");
    await logHas(page, 1);
    await playToTheEnd(page, `${lang}: before saving`, 2);
    const version = Number(await page.textContent("#version"));
    assert.ok(version >= 3, `${lang}: version ${version}`);
    await logHas(page, version);
    const lines = await page.locator("#log li").allInnerTexts();
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: WAIT }), page.click("#save-fight")]);
    const file = join(work, `fight-${lang}.json`);
    await download.saveAs(file);
    assert.equal(await text(page, "#save-status"), words.saved);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(typeof saved.snapshot, "string");
    await seated.ctx.close();

    // 2. The server stops: the embedded store, and the fight in it, are gone.
    const firstRun = await stopServer(server);
    server = null;
    const key = readFileSync(secretFile, "ascii").trim();
    assert.match(key, /^[0-9a-f]{64}$/);
    assert.equal(statSync(secretFile).mode & 0o777, 0o600, "server-secret: mode 0600");
    assert.equal(statSync(dataDir).mode & 0o777, 0o700, "the data folder: mode 0700");
    assert.ok(firstRun.includes(`the generated server secret is kept in a new file, ${secretFile};`), firstRun);
    assert.ok(!firstRun.includes(key), "the key itself is never logged");

    // 3. Started again, the same way, on the same port: it reads the same secret back.
    server = await startServer(port, dataDir);
    const gone = await fetch(`${base}/combats/${saved.combat}`, { headers: { Authorization: `Bearer ${saved.gm_token}` } });
    assert.equal(gone.status, 404, `${lang}: the fight did not go with the first process`);

    // 4. A fresh page resumes the fight from the file, where it was, and plays it to its end.
    seated = await seat(browser, lang, width, errors);
    page = seated.page;
    page.setDefaultTimeout(WAIT);
    await ruleset(page, base);
    assert.equal(await page.isHidden("#fight"), true);
    await page.setInputFiles("#resume-file", file);
    await page.waitForFunction((v) => document.querySelector(`#log li[data-seq="${v}"]`) || !document.querySelector("#error").hidden,
      version + 1, { timeout: WAIT });
    assert.equal(await page.isHidden("#error"), true, `${lang}: resume refused: ${await page.textContent("#error")}`);
    assert.equal(await text(page, "#setup-status"), words.resumed);
    assert.equal(await page.inputValue("#ruleset"), "sistema-2d6");
    const resumed = await page.locator("#log li").allInnerTexts();
    assert.deepEqual(resumed.slice(0, -1), lines);
    assert.match(resumed.at(-1), words.restored(version));
    await noOverflow(page, `${lang}@${width} resumed after a restart`);
    await playToTheEnd(page, `${lang}: after the restart`);
    await checkCardsAndLog(page, { ruleset: "sistema-2d6", lang, characters: [{ name: "Ana" }, { name: "Capanga" }] });
    await seated.ctx.close();

    const secondRun = await stopServer(server);
    server = null;
    assert.ok(secondRun.includes(`the generated server secret is read from ${secretFile};`), secondRun);
    assert.ok(!secondRun.includes(key), "the key itself is never logged");
    assert.equal(readFileSync(secretFile, "ascii").trim(), key, "the same key, not a new one");
    console.log(`${lang} (${width} px): saved at version ${version}, resumed after a restart and finished`);
    passed++;
  }
  assert.deepEqual(errors, []);
  console.log(`restart: ${passed} passed, 0 failed`);
} finally {
  if (server) server.child.kill("SIGKILL");
  await browser.close();
  rmSync(work, { recursive: true, force: true });
}
