// The extension's popover: the GM starts a Melee fight (a ruleset's example) or joins one by its
// id and GM token, then says which OBR player plays which combatant; the room's metadata carries
// the combat and each player's /play link, and each player sees /play for their own combatant.
import OBR from "@owlbear-rodeo/sdk";
import type { Metadata, Player } from "@owlbear-rodeo/sdk";
import { MeleeClient, MeleeNetworkError, MeleeProblem } from "@melee/client";
import type { Combat } from "@melee/client";
import { ROOM_KEY, loadSecrets, playLink, readRoom, saveSecrets } from "./room.js";
import type { RoomState } from "./room.js";
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
  const status = $("status");
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

function combatants(combat: Combat): RoomState["combatants"] {
  return combat.combatants.map((c) => ({ id: c.id, name: c.name }));
}

// -- a player -------------------------------------------------------------------------------

function renderPlayer(room: RoomState | null, me: string): void {
  const link = room?.links[me];
  $("waiting").hidden = Boolean(link);
  showFrame(link?.url ?? null);
}

// -- the GM ---------------------------------------------------------------------------------

let room: RoomState | null = null;
let party: Player[] = [];

async function publish(state: RoomState): Promise<void> {
  await OBR.room.setMetadata({ [ROOM_KEY]: state });
}

async function connect(): Promise<void> {
  const baseUrl = input("melee-url");
  localStorage.setItem(URL_KEY, baseUrl);
  const rulesets = await client(baseUrl).rulesets();
  $<HTMLSelectElement>("ruleset").replaceChildren(...rulesets.map((r) => new Option(r.name, r.id)));
  $<HTMLButtonElement>("start").disabled = false;
  say("");
}

async function start(): Promise<void> {
  const baseUrl = input("melee-url");
  const melee = client(baseUrl);
  const { example } = await melee.ruleset($<HTMLSelectElement>("ruleset").value);
  const created = await melee.createCombat(example.combat);
  saveSecrets(localStorage, created.id, { gm: created.tokens.gm, combatants: { ...created.tokens.combatants } });
  await publish({ baseUrl, combatId: created.id, ruleset: created.ruleset, combatants: combatants(created), links: {} });
  say(t("started"));
}

async function join(): Promise<void> {
  const baseUrl = input("melee-url");
  const combatId = input("combat-id");
  const gm = client(baseUrl, input("gm-token"));
  const combat = await gm.combat(combatId);
  await gm.options(combatId, { actor: "gm" }); // a player's token is refused here: only the GM's joins
  const known = loadSecrets(localStorage, combatId);
  saveSecrets(localStorage, combatId, { gm: gm.token ?? "", combatants: known?.combatants ?? {} });
  localStorage.setItem(URL_KEY, baseUrl);
  await publish({ baseUrl, combatId, ruleset: combat.ruleset, combatants: combatants(combat), links: {} });
  say(t("joined"));
}

/** Gives an OBR player a combatant: its token (kept, or minted now) in a /play link in the room. */
async function assign(player: Player, combatant: string): Promise<void> {
  if (!room) return;
  const links = { ...room.links };
  if (!combatant) {
    delete links[player.id];
  } else {
    const secrets = loadSecrets(localStorage, room.combatId);
    if (!secrets) throw new Error("this browser does not hold the combat's GM token: join it again");
    let token = secrets.combatants[combatant];
    if (!token) {
      const minted = await client(room.baseUrl, secrets.gm).mintToken(room.combatId, { role: "player", combatant });
      token = minted.token;
      saveSecrets(localStorage, room.combatId, { ...secrets, combatants: { ...secrets.combatants, [combatant]: token } });
    }
    links[player.id] = { combatant, url: playLink(room.baseUrl, room.combatId, token, combatant) };
  }
  await publish({ ...room, links });
}

function renderAssignments(): void {
  const list = $("assignments");
  list.replaceChildren();
  $("no-players").hidden = party.length > 0;
  const current = room;
  if (!current) return;
  for (const player of party) {
    const item = document.createElement("li");
    item.dataset["player"] = player.id;
    const label = document.createElement("label");
    label.textContent = player.name;
    label.htmlFor = `assign-${player.id}`;
    const select = document.createElement("select");
    select.id = `assign-${player.id}`;
    select.append(new Option(t("nobody"), ""), ...current.combatants.map((c) => new Option(c.name, c.id)));
    select.value = current.links[player.id]?.combatant ?? "";
    select.addEventListener("change", () => run(() => assign(player, select.value)));
    item.append(label, select);
    list.append(item);
  }
}

function renderGm(state: RoomState | null): void {
  room = state;
  $("assign-section").hidden = !state;
  renderAssignments();
  const secrets = state ? loadSecrets(localStorage, state.combatId) : null;
  showFrame(state && secrets ? playLink(state.baseUrl, state.combatId, secrets.gm, "gm") : null);
}

// -- the page -------------------------------------------------------------------------------

function translate(): void {
  document.documentElement.lang = lang === "pt" ? "pt-BR" : lang;
  for (const element of document.querySelectorAll<HTMLElement>("[data-t]")) {
    element.textContent = t(element.dataset["t"] as Word);
  }
}

OBR.onReady(() => {
  run(async () => {
    translate();
    const role = await OBR.player.getRole();
    const me = await OBR.player.getId();
    const render = (metadata: Metadata): void => {
      const state = readRoom(metadata);
      if (role === "GM") renderGm(state);
      else renderPlayer(state, me);
    };
    document.body.dataset["role"] = role;
    $("gm").hidden = role !== "GM";
    if (role === "GM") {
      $<HTMLInputElement>("melee-url").value = localStorage.getItem(URL_KEY) ?? "";
      $("connect").addEventListener("click", () => run(connect));
      $("start").addEventListener("click", () => run(start));
      $("join").addEventListener("click", () => run(join));
      party = await OBR.party.getPlayers();
      OBR.party.onChange((players) => {
        party = players;
        renderAssignments();
      });
    }
    render(await OBR.room.getMetadata());
    OBR.room.onMetadataChange(render);
  });
});
