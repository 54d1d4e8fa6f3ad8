// The extension's two pages. index.html, the popover: the GM starts a Melee fight from the
// scene's tokens (a side and a sheet for each) or joins one by its id and GM token, and says who
// plays whom; each player sees /play for their own combatant. background.html, alive while the
// room is open: the GM's seals the players' links and mirrors Melee's state onto the tokens
// (sync.ts); everyone's publishes their browser's public key (seal.ts).
import OBR from "@owlbear-rodeo/sdk";
import type { Image, Metadata, Player } from "@owlbear-rodeo/sdk";
import { MeleeClient, MeleeNetworkError, MeleeProblem } from "@melee/client";
import type { Combat, CombatCreate, Ruleset, Sheet } from "@melee/client";
import { ROOM_KEY, loadSecrets, playLink, readLink, readRoom, readSealed, saveSecrets } from "./room.js";
import type { Fighter, RoomState } from "./room.js";
import { combatantId, isToken, ownSheet, sheetFor, tokenName } from "./scene.js";
import { PLAYER_KEY, ownKeyPair, unseal } from "./seal.js";
import type { KeyPair } from "./seal.js";
import { runGmSync } from "./sync.js";
import { pickLang, words } from "./words.js";
import type { Word } from "./words.js";

const lang = pickLang(navigator.languages);
const t = words(lang);
const URL_KEY = "melee-owlbear/url";

function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element as T;
}
const input = (id: string): string => $<HTMLInputElement>(id).value.trim();

function say(text: string, error = false): void {
  const status = document.getElementById("status");
  if (!status) return void (error && console.error("Melee:", text)); // the background page shows nothing
  status.textContent = text;
  status.classList.toggle("error", error);
}

function explain(error: unknown): string {
  if (error instanceof MeleeProblem) return `${t("failed")} ${error.detail ?? error.title}`;
  if (error instanceof MeleeNetworkError) return t("unreachable");
  return String(error);
}

/** Runs a GM's click: its failure is shown, never thrown away. */
function run(task: () => Promise<void>): void {
  task().catch((error: unknown) => say(explain(error), true));
}

function client(baseUrl: string, token?: string): MeleeClient {
  const apiKey = input("api-key");
  return new MeleeClient({ baseUrl, lang, ...(token ? { token } : {}), ...(apiKey ? { apiKey } : {}) });
}

function showFrame(url: string | null): void {
  const frame = $<HTMLIFrameElement>("play");
  if (url === null) {
    frame.hidden = true;
    frame.removeAttribute("src");
  } else {
    if (frame.getAttribute("src") !== url) frame.src = url;
    frame.hidden = false;
  }
}

const select = (id: string, options: HTMLOptionElement[], value: string, onChange: (value: string) => void): HTMLSelectElement => {
  const element = document.createElement("select");
  element.id = id;
  element.append(...options);
  element.value = value;
  element.addEventListener("change", () => onChange(element.value));
  return element;
};

// -- a player -------------------------------------------------------------------------------

/** This browser's key pair for the player, its public half published (the GM's seals the links). */
async function publishKey(): Promise<KeyPair> {
  const keys = await ownKeyPair(localStorage, await OBR.player.getId());
  if ((await OBR.player.getMetadata())[PLAYER_KEY] !== keys.publicKey) await OBR.player.setMetadata({ [PLAYER_KEY]: keys.publicKey });
  return keys;
}

/** The keys the room's GMs published: a player's link opens only if one of them sealed it. */
const gmKeys = (party: Player[]): string[] =>
  party.filter((p) => p.role === "GM").map((p) => p.metadata[PLAYER_KEY]).filter((key): key is string => typeof key === "string");

let shown = 0;
/** A player's view: /play at the address, for the combat and combatant, their sealed link holds
 * (nothing of it read from the room's fields, which any player may rewrite). */
async function renderPlayer(metadata: Metadata, party: Player[], me: string, keys: KeyPair): Promise<void> {
  const turn = (shown += 1);
  const room = readRoom(metadata);
  const sealed = readSealed(metadata)[me];
  const link = room && sealed ? readLink(await unseal(sealed, keys, gmKeys(party))) : null;
  if (turn !== shown) return; // a newer change is being shown
  const current = link && link.combat === room?.combatId ? link : null; // a link of an earlier fight waits
  $("waiting").hidden = Boolean(current);
  showFrame(current ? playLink(current.address, current.combat, current.token, current.combatant) : null);
}

// -- the GM ---------------------------------------------------------------------------------

let room: RoomState | null = null;
let party: Player[] = [];
let ruleset: Ruleset | null = null;
let tokens: Image[] = [];
/** Token item id -> the GM's choice: its side ("" out of the fight) and its sheet ("own" or an example combatant's id). */
const choices = new Map<string, { side: string; sheet: string }>();

/** The ruleset example's combatants: the sheets a token may take. */
const examples = (): Sheet[] => ruleset?.example.combat.combatants ?? [];
/** A side as /play shows it: "villains" reads "Villains". */
const sideName = (side: string): string => side.charAt(0).toUpperCase() + side.slice(1).replace(/[_-]+/g, " ");
const sides = (): string[] => [...new Set(examples().map((c) => c.side))];

async function publish(state: RoomState): Promise<void> {
  await OBR.room.setMetadata({ [ROOM_KEY]: state });
}

async function loadTokens(): Promise<void> {
  const ready = await OBR.scene.isReady();
  const found = ready ? await OBR.scene.items.getItems(isToken) : [];
  $("no-tokens").textContent = t(ready ? "noTokens" : "noScene");
  const names = (list: Image[]): string => JSON.stringify(list.map((token) => [token.id, tokenName(token)]));
  if (names(found) === names(tokens)) return; // a token's metadata changed (Melee's own marks): the rows stay as the GM left them
  tokens = found;
  renderTokens();
}

async function connect(): Promise<void> {
  const baseUrl = input("melee-url");
  localStorage.setItem(URL_KEY, baseUrl);
  const rulesets = await client(baseUrl).rulesets();
  $<HTMLSelectElement>("ruleset").replaceChildren(new Option("", ""), ...rulesets.map((r) => new Option(r.name, r.id)));
  say("");
}

/** The GM's choices start from the scene: the selected tokens fight (all, when none is), players' on the first side. */
async function chooseRuleset(id: string): Promise<void> {
  ruleset = id ? await client(input("melee-url")).ruleset(id) : null;
  choices.clear();
  const selection = (await OBR.player.getSelection()) ?? [];
  const [first = "", last = ""] = [sides()[0], sides().at(-1)];
  for (const token of tokens) {
    const fights = selection.length === 0 || selection.includes(token.id);
    const side = !fights ? "" : party.some((p) => p.id === token.createdUserId && p.role === "PLAYER") ? first : last;
    const sheet = ruleset && ownSheet(token, ruleset.id) ? "own" : (examples().find((c) => c.side === side) ?? examples()[0])?.id ?? "";
    choices.set(token.id, { side, sheet });
  }
  renderTokens();
}

function renderTokens(): void {
  const list = $("fighters");
  list.replaceChildren();
  $("fighters-section").hidden = !ruleset;
  $("no-tokens").hidden = tokens.length > 0;
  $<HTMLButtonElement>("start").disabled = !ruleset || tokens.length === 0;
  if (!ruleset) return;
  const rulesetId = ruleset.id;
  for (const token of tokens) {
    const choice = choices.get(token.id) ?? { side: "", sheet: examples()[0]?.id ?? "" };
    choices.set(token.id, choice);
    const item = document.createElement("li");
    item.dataset["item"] = token.id;
    const name = Object.assign(document.createElement("span"), { textContent: tokenName(token) });
    const sheets = [
      ...(ownSheet(token, rulesetId) ? [new Option(t("ownSheet"), "own")] : []),
      ...examples().map((c) => new Option(c.name, c.id)),
    ];
    item.append(
      name,
      select(`side-${token.id}`, [new Option(t("notFighting"), ""), ...sides().map((s) => new Option(sideName(s), s))], choice.side, (v) => (choice.side = v)),
      select(`sheet-${token.id}`, sheets, choice.sheet, (v) => (choice.sheet = v)),
    );
    const [side, sheet] = [...item.querySelectorAll("select")];
    side?.setAttribute("aria-label", `${t("side")} · ${name.textContent}`);
    sheet?.setAttribute("aria-label", `${t("sheet")} · ${name.textContent}`);
    list.append(item);
  }
}

async function start(): Promise<void> {
  if (!ruleset) return;
  const baseUrl = input("melee-url");
  const taken = new Set<string>();
  const fighters: (Fighter & { owner: string })[] = [];
  const combatants: Sheet[] = [];
  for (const token of tokens) {
    const choice = choices.get(token.id);
    if (!choice?.side) continue;
    const base = choice.sheet === "own" ? ownSheet(token, ruleset.id) : examples().find((c) => c.id === choice.sheet);
    if (!base) continue;
    const name = tokenName(token);
    const id = combatantId(name, taken);
    combatants.push(sheetFor(base, id, name, choice.side));
    fighters.push({ id, name, item: token.id, owner: token.createdUserId });
  }
  if (!combatants.length) return say(t("noFighter"), true);
  const { options } = ruleset.example.combat;
  // The ruleset is the GM's choice at run time: its id a string, its sheets any ruleset's (Melee checks them).
  const body = { ruleset: ruleset.id, lang, combatants, ...(options ? { options } : {}) } as CombatCreate;
  const created = await client(baseUrl).createCombat(body);
  // A token's owner plays it (their first, if they own several); the GM may change it below.
  const players: Record<string, string> = {};
  for (const fighter of fighters) {
    const owner = party.find((p) => p.id === fighter.owner && p.role === "PLAYER");
    if (owner && !players[owner.id]) players[owner.id] = fighter.id;
  }
  saveSecrets(localStorage, created.id, { baseUrl, gm: created.tokens.gm, combatants: { ...created.tokens.combatants }, players });
  await publish({ combatId: created.id, ruleset: created.ruleset, lang, players,
    combatants: fighters.map(({ id, name, item }) => ({ id, name, ...(item ? { item } : {}) })) });
  say(t("started"));
}

const fightersOf = (combat: Combat): Fighter[] => combat.combatants.map((c) => ({ id: c.id, name: c.name }));

async function join(): Promise<void> {
  const baseUrl = input("melee-url");
  const combatId = input("combat-id");
  const gm = client(baseUrl, input("gm-token"));
  const combat = await gm.combat(combatId);
  await gm.options(combatId, { actor: "gm" }); // a player's token is refused here: only the GM's joins
  const known = loadSecrets(localStorage, combatId);
  saveSecrets(localStorage, combatId, { baseUrl, gm: gm.token ?? "", combatants: known?.combatants ?? {}, players: {} });
  localStorage.setItem(URL_KEY, baseUrl);
  await publish({ combatId, ruleset: combat.ruleset, lang, combatants: fightersOf(combat), players: {} });
  say(t("joined"));
}

/** Says which combatant an OBR player plays: kept in this browser, which the GM's background page
 * seals their link from, and published in the room for the table to see. */
async function assign(player: Player, combatant: string): Promise<void> {
  const secrets = room ? loadSecrets(localStorage, room.combatId) : null;
  if (!room || !secrets) return;
  const players = { ...secrets.players };
  if (combatant) players[player.id] = combatant;
  else delete players[player.id];
  saveSecrets(localStorage, room.combatId, { ...secrets, players });
  await publish({ ...room, players });
}

function renderAssignments(): void {
  const list = $("assignments");
  list.replaceChildren();
  $("no-players").hidden = party.length > 0;
  const current = room;
  const secrets = current ? loadSecrets(localStorage, current.combatId) : null;
  if (!current || !secrets) return;
  for (const player of party) {
    const item = document.createElement("li");
    item.dataset["player"] = player.id;
    const label = Object.assign(document.createElement("label"), { textContent: player.name, htmlFor: `assign-${player.id}` });
    const options = [new Option(t("nobody"), ""), ...current.combatants.map((c) => new Option(c.name, c.id))];
    item.append(label, select(`assign-${player.id}`, options, secrets.players[player.id] ?? "", (v) => run(() => assign(player, v))));
    list.append(item);
  }
}

function renderGm(state: RoomState | null): void {
  room = state;
  $("assign-section").hidden = !state;
  renderAssignments();
  const secrets = state ? loadSecrets(localStorage, state.combatId) : null;
  showFrame(state && secrets ? playLink(secrets.baseUrl, state.combatId, secrets.gm, "gm") : null);
}

// -- the pages ------------------------------------------------------------------------------

function translate(): void {
  document.documentElement.lang = lang === "pt" ? "pt-BR" : lang;
  for (const element of document.querySelectorAll<HTMLElement>("[data-t]")) {
    element.textContent = t(element.dataset["t"] as Word);
  }
}

async function background(role: string): Promise<void> {
  const keys = await publishKey();
  if (role === "GM") await runGmSync(keys);
}

async function popover(role: string): Promise<void> {
  translate();
  document.body.dataset["role"] = role;
  $("gm").hidden = role !== "GM";
  if (role !== "GM") {
    const [me, keys] = [await OBR.player.getId(), await publishKey()];
    let [metadata, players] = [await OBR.room.getMetadata(), await OBR.party.getPlayers()];
    const render = (): void => void renderPlayer(metadata, players, me, keys).catch((e: unknown) => say(explain(e), true));
    OBR.room.onMetadataChange((changed) => ((metadata = changed), render()));
    OBR.party.onChange((changed) => ((players = changed), render())); // the GM's key, when it comes
    render();
    return;
  }
  $<HTMLInputElement>("melee-url").value = localStorage.getItem(URL_KEY) ?? location.origin;
  $("connect").addEventListener("click", () => run(connect));
  $<HTMLSelectElement>("ruleset").addEventListener("change", (e) => run(() => chooseRuleset((e.target as HTMLSelectElement).value)));
  $("start").addEventListener("click", () => run(start));
  $("join").addEventListener("click", () => run(join));
  party = await OBR.party.getPlayers();
  OBR.party.onChange((players) => {
    party = players;
    renderAssignments();
  });
  await loadTokens();
  OBR.scene.items.onChange(() => run(loadTokens));
  OBR.scene.onReadyChange(() => run(loadTokens));
  renderGm(readRoom(await OBR.room.getMetadata()));
  OBR.room.onMetadataChange((metadata) => renderGm(readRoom(metadata)));
}

OBR.onReady(() => {
  run(async () => {
    const role = await OBR.player.getRole();
    await (document.body.dataset["page"] === "background" ? background(role) : popover(role));
    document.body.dataset["ready"] = "";
  });
});
