// The module's logic, over the Host interface only: start a Melee combat from a Foundry Combat,
// seal the tokens, follow the log into the chat, mirror Melee's state onto the world (src/mirror.ts),
// keep the snapshot in the GM's browser, prompt whoever is awaited, edit an actor's Melee sheet.
import { MeleeClient, MeleeProblem } from "@melee/client";
import type { Combat as MeleeCombat, LegalAction, LogEntry, Ruleset, Subscription } from "@melee/client";
import type { Field, Host, HostCombat, HostUser, Sealed, TableState } from "./host.js";
import { fixUp, hasMeleeFields, mapSheet, parseMapping, templateFor, type Json, type JsonObject } from "./mapping.js";
import { asAction, asCreate, choiceLabel, conditionLabels, encodeChoice, exampleCombatants, optionDefault, params, sentences } from "./melee.js";
import { conditionCodes, healthPaths, healthUpdate, meleeHealth, parseHealthSetting, STATUS_PREFIX, statusEffects, statusId, turnOf } from "./mirror.js";
import { generateKeyPair, open, seal, type KeyPairJwk } from "./seal.js";

/** Melee's narration languages, from Foundry's. */
export function meleeLang(foundryLang: string): string {
  const base = foundryLang.toLowerCase().split("-")[0];
  return base === "fr" ? "fr" : base === "pt" ? "pt" : "en";
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

function parseKeyPair(text: unknown): KeyPairJwk | null {
  if (typeof text !== "string" || !text) return null;
  try {
    const pair = JSON.parse(text) as Partial<KeyPairJwk>;
    return pair.publicKey && pair.privateKey ? { publicKey: pair.publicKey, privateKey: pair.privateKey } : null;
  } catch {
    return null;
  }
}

function humanize(id: string): string {
  const words = id.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface StartOptions {
  /** The Foundry Combat (default: the current one). */
  combat?: HostCombat;
  /** Physical dice for the creation's rolls (initiative...), in order. */
  dice?: number[];
  /** Reproducible server dice (tests, replays): whoever knows it predicts every die. */
  seed?: number;
  /** The ruleset's combat options (`GET /rulesets/{id}` `options`). */
  options?: JsonObject;
}

export class MeleeTable {
  private keys: KeyPairJwk | null = null;
  private readonly followers = new Map<string, Subscription>();
  private readonly prompting = new Set<string>();
  private readonly recheck = new Set<string>();
  /** After stop(): what was under way finishes quietly, nothing new starts. */
  private stopped = false;
  private readonly opened = new Map<string, string>();
  private readonly rulesets = new Map<string, Promise<Ruleset>>();
  /** The public keys seen, per user: a user update that keeps its key needs no new seal. */
  private readonly knownKeys = new Map<string, string>();
  /** Settles when ready() is done (keys made and published, fights resumed). */
  ready: Promise<void> = Promise.resolve();

  constructor(private readonly host: Host) {}

  private t(key: string, data?: Record<string, string | number>): string {
    return this.host.localize(`MELEE.${key}`, data);
  }

  client(token?: string): MeleeClient {
    const url = String(this.host.setting("url") ?? "").replace(/\/+$/, "");
    if (!url) throw new Error(this.t("Error.NoUrl"));
    const apiKey = String(this.host.setting("apiKey") ?? "");
    return new MeleeClient({
      baseUrl: url,
      lang: meleeLang(this.host.lang()),
      ...(apiKey ? { apiKey } : {}),
      ...(token ? { token } : {}),
    });
  }

  private ruleset(id: string): Promise<Ruleset> {
    let found = this.rulesets.get(id);
    if (!found) {
      found = this.client().ruleset(id);
      found.catch(() => this.rulesets.delete(id));
      this.rulesets.set(id, found);
    }
    return found;
  }

  /** Once Foundry is ready: this browser's key pair, published; then (a GM) the fights resumed. */
  start(): Promise<void> {
    this.ready = this.init();
    return this.ready;
  }

  private async init(): Promise<void> {
    try {
      const stored = parseKeyPair(this.host.setting("keyPair"));
      this.keys = stored ?? (await generateKeyPair());
      if (!stored) await this.host.setSetting("keyPair", JSON.stringify(this.keys));
      const published = this.host.user().publicKey;
      if (JSON.stringify(published) !== JSON.stringify(this.keys.publicKey)) await this.host.publishPublicKey(this.keys.publicKey);
    } catch (error) {
      this.host.notify("error", this.t("Error.NoCrypto"));
      console.error("melee |", error);
      return;
    }
    for (const user of this.host.users()) this.knownKeys.set(user.id, JSON.stringify(user.publicKey));
    if (this.host.user().isGM) {
      for (const combat of this.host.combats()) await this.resume(combat).catch((e: unknown) => this.fail(e));
    }
    for (const combat of this.host.combats()) this.combatChanged(combat);
  }

  private fail(error: unknown): void {
    if (this.stopped) return;
    const message = error instanceof MeleeProblem ? (error.detail ?? error.title) : error instanceof Error ? error.message : String(error);
    this.host.notify("error", this.t("Error.Melee", { detail: message }));
    console.error("melee |", error);
  }

  private async unseal(sealed: Sealed | undefined, cacheKey: string): Promise<string | null> {
    const cached = this.opened.get(cacheKey);
    if (cached) return cached;
    const mine = sealed?.[this.host.user().id];
    if (!mine || !this.keys) return null;
    const token = await open(this.keys.privateKey, mine);
    if (token) this.opened.set(cacheKey, token);
    return token;
  }

  private gmToken(state: TableState): Promise<string | null> {
    return this.host.user().isGM ? this.unseal(state.gm, `${state.combatId}:gm`) : Promise.resolve(null);
  }

  private async sealFor(users: HostUser[], secret: string): Promise<Sealed> {
    const sealed: Sealed = {};
    for (const user of users) if (user.publicKey) sealed[user.id] = await seal(user.publicKey, secret);
    return sealed;
  }

  /** The active GM who follows the fights: the first by id of those who hold the GM token. */
  private leads(state: TableState): boolean {
    const gms = this.host
      .users()
      .filter((u) => u.isGM && u.active && state.gm[u.id])
      .map((u) => u.id)
      .sort();
    return gms[0] === this.host.user().id;
  }

  /** Stops following every fight (the module being shut down). */
  stop(): void {
    this.stopped = true;
    for (const subscription of this.followers.values()) subscription.close();
    this.followers.clear();
  }

  /** Starts a Melee combat from a Foundry Combat: every Combatant mapped to a sheet (src/mapping.ts). */
  async startCombat(o: StartOptions = {}): Promise<TableState | null> {
    const user = this.host.user();
    if (!user.isGM) throw new Error(this.t("Error.GMOnly"));
    await this.ready;
    const combat = o.combat ?? this.host.currentCombat();
    if (!combat) {
      this.host.notify("warn", this.t("Error.NoCombat"));
      return null;
    }
    const previous = combat.state();
    if (previous && previous.status !== "over") {
      this.host.notify("warn", this.t("Error.AlreadyStarted"));
      return previous;
    }
    if (!this.keys) throw new Error(this.t("Error.NoCrypto"));
    const rulesetId = String(this.host.setting("ruleset") ?? "");
    const mapping = parseMapping(this.host.setting("mapping"));
    const ruleset = await this.ruleset(rulesetId);
    const example = exampleCombatants(ruleset);
    const lang = meleeLang(this.host.lang());
    const sheets: JsonObject[] = [];
    const bare: string[] = [];
    const entries = combat.combatants.map((c) => {
      // The token's disposition says the side (friendly: allies, hostile: enemies); without one, a
      // combatant a player owns is an ally.
      const ally = c.disposition === 1 || (c.disposition !== -1 && (c.actor?.ownerIds.length ?? 0) > 0);
      return { combatant: c, ally, template: templateFor(example, ally) };
    });
    for (const { combatant, ally, template } of entries) {
      const { sheet, read } = mapSheet({
        ruleset: rulesetId,
        template,
        id: combatant.id,
        name: combatant.name || combatant.actor?.name || combatant.id,
        side: ally ? "allies" : "enemies",
        system: combatant.actor?.system,
        sheet: combatant.actor?.sheet,
        mapping,
      });
      // Nothing of its own: it would fight with the example's statistics under its name. Refused.
      if (!hasMeleeFields(read, combatant.actor?.sheet)) bare.push(combatant.name || combatant.actor?.name || combatant.id);
      sheets.push(sheet);
    }
    if (bare.length) {
      this.host.notify("error", this.t("Error.NoSheet", { names: bare.join(", ") }));
      return null;
    }
    fixUp(rulesetId, sheets);
    const kept: JsonObject[] = [];
    sheets.forEach((sheet, i) => {
      const { combatant } = entries[i]!;
      if (this.host.mapActor({ sheet, actor: combatant.actor, combatant, ruleset: rulesetId }) !== false) kept.push(sheet);
    });
    const body: JsonObject = { ruleset: rulesetId, lang, combatants: kept };
    if (o.dice) body.dice = o.dice;
    if (o.seed !== undefined) body.seed = o.seed;
    if (o.options) body.options = o.options;
    const created = await this.client().createCombat(asCreate(body));

    const users = this.host.users();
    const gms = users.filter((u) => u.isGM);
    const tokens: Record<string, Sealed> = {};
    for (const sheet of kept) {
      const id = String(sheet.id);
      const token = created.tokens.combatants[id];
      if (!token) continue;
      const owners = combat.combatants.find((c) => c.id === id)?.actor?.ownerIds ?? [];
      tokens[id] = await this.sealFor(
        users.filter((u) => u.isGM || owners.includes(u.id)),
        token,
      );
      const unkeyed = users.filter((u) => !u.isGM && owners.includes(u.id) && !u.publicKey);
      for (const u of unkeyed) this.host.notify("warn", this.t("Warn.NoKey", { user: u.name }));
    }
    const gmToken = created.tokens.gm;
    const state: TableState = {
      combatId: created.id,
      ruleset: rulesetId,
      lang,
      status: created.status,
      version: created.version,
      awaiting: created.awaiting,
      lastSeq: 0,
      names: Object.fromEntries(kept.map((s) => [String(s.id), String(s.name)])),
      dicePolicy: String((o.options?.dice_policy as string | undefined) ?? optionDefault(ruleset, "dice_policy") ?? "own"),
      gm: await this.sealFor(gms, gmToken),
      tokens,
    };
    this.opened.set(`${created.id}:gm`, gmToken);
    await this.saveSnapshot(created.id, await this.trySnapshot(this.client(gmToken), created.id));
    await this.mirror(combat, state, created).catch((e: unknown) => this.fail(e)); // the fight goes on
    await combat.setState(state);
    this.follow(combat, state, gmToken);
    this.host.notify("info", this.t("Info.Started", { ruleset: ruleset.name }));
    return state;
  }

  /** The GM ends the fight (Melee's `end_combat`). */
  async endCombat(combat: HostCombat | null = this.host.currentCombat(), reason?: string): Promise<void> {
    const state = combat?.state();
    if (!combat || !state) return;
    const token = await this.gmToken(state);
    if (!token) throw new Error(this.t("Error.GMOnly"));
    await this.client(token).act(state.combatId, asAction({ type: "end_combat", actor: "gm", ...(reason ? { reason } : {}) }));
  }

  private async trySnapshot(client: MeleeClient, id: string): Promise<string | null> {
    try {
      return await client.snapshot(id);
    } catch (error) {
      // A Melee without the snapshot API (404): the fight goes on, it only cannot be restored.
      if (error instanceof MeleeProblem && error.status === 404) return null;
      throw error;
    }
  }

  /** The snapshots this browser keeps, by Melee combat id (a client setting: see saveSnapshot). */
  private snapshots(): Record<string, string> {
    try {
      const all: unknown = JSON.parse(String(this.host.setting("snapshots") || "{}"));
      return all !== null && typeof all === "object" ? (all as Record<string, string>) : {};
    } catch {
      return {};
    }
  }

  /** Keeps (or, null, forgets) a fight's snapshot in the leading GM's browser only: a client
   * setting. Not in the Combat's flags, nor in a world setting or a document: Foundry sends those
   * to every client, players included, whatever their ownership or a setting's `restricted`. */
  private async saveSnapshot(combatId: string, snapshot: string | null): Promise<void> {
    const all = this.snapshots();
    if (snapshot) all[combatId] = snapshot;
    else if (combatId in all) delete all[combatId];
    else return;
    await this.host.setSetting("snapshots", JSON.stringify(all));
  }

  /** Melee's combat (`GET /combats/{id}` or the creation's answer) mirrored onto the world:
   * health onto the actors, conditions as status effects, the tracker's turn and round. */
  private async mirror(combat: HostCombat, state: TableState, melee: MeleeCombat): Promise<void> {
    const ruleset = await this.ruleset(state.ruleset);
    this.host.addStatusEffects(statusEffects(conditionLabels(ruleset, state.lang)));
    const health = parseHealthSetting(this.host.setting("health"));
    for (const fighter of melee.combatants) {
      const actor = combat.combatants.find((c) => c.id === fighter.id)?.actor;
      if (!actor) continue;
      const id = String(fighter.id);
      const now = meleeHealth(state.ruleset, fighter);
      if (now) await combat.updateActor(id, healthUpdate(healthPaths(actor.system, health), now));
      const wanted = conditionCodes(fighter).map(statusId);
      for (const status of actor.statuses) {
        if (status.startsWith(STATUS_PREFIX) && !wanted.includes(status)) await combat.setStatus(id, status, false);
      }
      for (const status of wanted) if (!actor.statuses.includes(status)) await combat.setStatus(id, status, true);
    }
    await combat.setTurn(turnOf(melee.awaiting, combat.combatants.map((c) => c.id)), melee.round);
  }

  /** A GM's client at start-up: a fight Melee no longer has is restored from its snapshot, then followed. */
  async resume(combat: HostCombat): Promise<void> {
    const state = combat.state();
    if (!state || state.status === "over") return;
    const token = await this.gmToken(state);
    if (!token || !this.leads(state)) return;
    const client = this.client(token);
    try {
      await client.combat(state.combatId);
    } catch (error) {
      const snapshot = this.snapshots()[state.combatId];
      if (!(error instanceof MeleeProblem) || (error.status !== 404 && error.status !== 410) || !snapshot) throw error;
      try {
        // Sent with the GM token; nothing of the answer is used (a restore may answer no more than
        // {id, ruleset, version}): the fight is followed below with the same token.
        await client.restore(snapshot);
        this.host.notify("info", this.t("Info.Restored"));
      } catch (restoreError) {
        // 409: restored meanwhile (another GM's client, a retry): it is live, which is all we need.
        if (!(restoreError instanceof MeleeProblem) || restoreError.status !== 409) throw restoreError;
      }
    }
    this.follow(combat, state, token);
  }

  private follow(combat: HostCombat, state: TableState, token: string): void {
    if (this.followers.has(combat.id)) return;
    const client = this.client(token);
    let chain: Promise<void> = Promise.resolve();
    let pending = 0;
    const subscription = client.subscribe(
      state.combatId,
      {
        onEntry: (entry: LogEntry) => {
          pending++;
          chain = chain
            .then(() => this.record(combat, client, entry, --pending === 0))
            .catch((e: unknown) => this.fail(e));
          return chain;
        },
        onError: (error: unknown) => {
          this.followers.delete(combat.id);
          if (combat.state()?.status !== "over") this.fail(error);
        },
      },
      { after: state.lastSeq },
    );
    this.followers.set(combat.id, subscription);
  }

  /** One log entry: its sentences to the chat; then (the last one of a burst) the state and the snapshot. */
  private async record(combat: HostCombat, client: MeleeClient, entry: LogEntry, last: boolean): Promise<void> {
    const state = combat.state();
    if (this.stopped || !state || entry.seq <= state.lastSeq) return;
    const lines = sentences(entry);
    if (lines.length) await this.host.chat(`<div class="melee-entry">${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("")}</div>`);
    const next: TableState = { ...state, lastSeq: entry.seq };
    if (last) {
      const now = await client.combat(state.combatId);
      next.status = now.status;
      next.version = now.version;
      next.awaiting = now.awaiting;
      await this.mirror(combat, next, now).catch((e: unknown) => this.fail(e)); // the fight goes on
      await this.saveSnapshot(state.combatId, now.status === "over" ? null : await this.trySnapshot(client, state.combatId));
    }
    await combat.setState(next);
    if (next.status === "over") {
      this.followers.get(combat.id)?.close();
      this.followers.delete(combat.id);
    }
  }

  /** A Combat's flags changed (on every client): prompt whoever this client acts for. */
  combatChanged(combat: HostCombat): void {
    const state = combat.state();
    if (this.stopped || !state || state.status === "over") return;
    void this.promptAll(combat, state).catch((e: unknown) => this.fail(e));
  }

  /** Opens again the prompts this client's user has to answer in the current Combat (one closed
   * before acting comes back): the combat tracker's "Your move" button. */
  promptAgain(): void {
    const combat = this.host.currentCombat();
    if (combat) this.combatChanged(combat);
  }

  private async promptAll(combat: HostCombat, state: TableState): Promise<void> {
    await this.ready;
    // Every client knows the ruleset's status effects: its token HUD lists them.
    this.host.addStatusEffects(statusEffects(conditionLabels(await this.ruleset(state.ruleset), state.lang)));
    const me = this.host.user();
    const users = this.host.users();
    for (const awaited of state.awaiting) {
      const actor = awaited.actor;
      let token: string | null = null;
      if (!me.isGM) {
        token = await this.unseal(state.tokens[actor], `${state.combatId}:${actor}`);
      } else if (this.leads(state)) {
        // The GM answers for whoever has no player here to answer: NPCs, absent or keyless owners.
        const owners = combat.combatants.find((c) => c.id === actor)?.actor?.ownerIds ?? [];
        const answered = users.some((u) => !u.isGM && u.active && owners.includes(u.id) && state.tokens[actor]?.[u.id]);
        if (!answered) token = await this.gmToken(state);
      }
      if (token) void this.prompt(combat, actor, awaited.reason, token).catch((e: unknown) => this.fail(e));
    }
  }

  private label(kind: string, id: string): string {
    const key = `MELEE.${kind}.${id}`;
    return this.host.has(key) ? this.host.localize(key) : humanize(id);
  }

  /** The words for one choice of a parameter. */
  private choice(ruleset: Ruleset, state: TableState, param: string, value: Json): string {
    if (value !== null && typeof value === "object") {
      return Object.entries(value)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => this.choice(ruleset, state, k, v as Json))
        .join(", ");
    }
    const text = String(value);
    if (typeof value === "boolean") return this.t(value ? "Choice.Yes" : "Choice.No");
    return state.names[text] ?? choiceLabel(ruleset, state.lang, param, text) ?? humanize(text);
  }

  /** The legal actions as buttons; one that has a single choice of target or weapon says it. */
  private buttonLabel(ruleset: Ruleset, state: TableState, legal: LegalAction): string {
    const details = params(legal)
      .filter(([name, p]) => p.required && p.choices?.length === 1 && name !== "actor")
      .map(([name, p]) => this.choice(ruleset, state, name, p.choices![0]!));
    const label = this.label("Action", legal.type);
    return details.length ? `${label} (${details.join(", ")})` : label;
  }

  /** The form of one legal action: a select per choice, a number per integer, a text per string. */
  fields(ruleset: Ruleset, state: TableState, legal: LegalAction): Field[] {
    const fields: Field[] = [];
    for (const [name, p] of params(legal)) {
      const label = this.label("Param", name);
      if (p.choices) {
        if (p.choices.length <= 1 && !p.required) continue;
        fields.push({
          name,
          label,
          kind: "select",
          required: p.required,
          choices: p.choices.map((c) => ({ value: encodeChoice(c), label: this.choice(ruleset, state, name, c) })),
        });
      } else if (p.type === "array" && "items" in p && p.items) {
        p.items.forEach((item, i) => {
          fields.push({
            name: `${name}.${i}`,
            label: p.items!.length > 1 ? `${label} ${i + 1}` : label,
            kind: "select",
            required: p.required,
            choices: (item.choices ?? []).map((c) => ({ value: encodeChoice(c), label: this.choice(ruleset, state, name, c) })),
          });
        });
      } else if (p.type === "object" && p.keys) {
        for (const key of p.keys) {
          fields.push({
            name: `${name}.${key}`,
            label: `${label}: ${this.label("Param", key)}`,
            kind: "number",
            required: p.required,
            min: 0,
            ...(p.total !== undefined ? { hint: this.t("Hint.Total", { total: p.total }) } : {}),
          });
        }
      } else if (p.type === "integer" || p.type === "number") {
        fields.push({
          name,
          label,
          kind: "number",
          required: p.required,
          ...(p.minimum !== null && p.minimum !== undefined ? { min: p.minimum } : {}),
          ...(p.maximum !== null && p.maximum !== undefined ? { max: p.maximum } : {}),
        });
      } else if (p.type === "string" || p.type === undefined) {
        fields.push({ name, label, kind: "text", required: p.required });
      }
      // Anything else (an object with no keys: the target's own answer) is not this form's to fill.
    }
    if (state.dicePolicy !== "server") fields.push({ name: "dice", label: this.t("Param.dice"), kind: "text", required: false, hint: this.t("Hint.Dice") });
    return fields;
  }

  /** The action a form's values make (values typed back from the legal choices). */
  static action(legal: LegalAction, actor: string, values: Record<string, string>): JsonObject {
    const action: JsonObject = { type: legal.type, actor };
    for (const [name, p] of params(legal)) {
      if (p.type === "object" && p.keys) {
        const value: JsonObject = {};
        for (const key of p.keys) {
          const text = values[`${name}.${key}`]?.trim();
          if (text) value[key] = Number(text);
        }
        if (Object.keys(value).length) action[name] = value;
        continue;
      }
      if (p.type === "array" && "items" in p && p.items) {
        const picked = p.items
          .map((item, i) => item.choices?.find((c) => encodeChoice(c) === values[`${name}.${i}`]))
          .filter((c) => c !== undefined);
        if (picked.length) action[name] = picked as Json[]; // the legal choices, JSON as Melee sent them
        continue;
      }
      const text = values[name];
      if (text === undefined || text === "") {
        if (p.required && p.choices?.length === 1) action[name] = p.choices[0] as Json;
        continue;
      }
      if (p.choices) {
        const found = p.choices.find((c) => encodeChoice(c) === text);
        if (found !== undefined) action[name] = found as Json;
      } else if (p.type === "integer" || p.type === "number") action[name] = Number(text);
      else action[name] = text;
    }
    const dice = values.dice?.split(/[\s,;]+/).filter(Boolean).map(Number);
    if (dice?.length) action.dice = dice;
    return action;
  }

  private renderForm(fields: Field[]): string {
    const rows = fields.map((f) => {
      const id = `melee-${f.name.replace(/[^A-Za-z0-9_-]/g, "-")}`;
      let input: string;
      if (f.kind === "textarea") {
        input = `<textarea id="${id}" name="${escapeHtml(f.name)}" rows="16">${escapeHtml(f.value ?? "")}</textarea>`;
      } else if (f.kind === "select") {
        const blank = f.required ? "" : `<option value="">—</option>`;
        input = `<select id="${id}" name="${escapeHtml(f.name)}">${blank}${(f.choices ?? [])
          .map((c) => `<option value="${escapeHtml(c.value)}">${escapeHtml(c.label)}</option>`)
          .join("")}</select>`;
      } else {
        const range = `${f.min !== undefined ? ` min="${f.min}"` : ""}${f.max !== undefined ? ` max="${f.max}"` : ""}`;
        input = `<input id="${id}" name="${escapeHtml(f.name)}" type="${f.kind === "number" ? "number" : "text"}"${range}>`;
      }
      const hint = f.hint ? `<p class="hint">${escapeHtml(f.hint)}</p>` : "";
      return `<div class="form-group"><label for="${id}">${escapeHtml(f.label)}</label><div class="form-fields">${input}</div>${hint}</div>`;
    });
    return rows.join("");
  }

  /** Prompts this client's user for one awaited actor: the legal actions, then the chosen one's form. */
  private async prompt(combat: HostCombat, actor: string, reason: string, token: string): Promise<void> {
    const state = combat.state();
    if (!state) return;
    // One prompt per combatant at a time: a change while it is open is looked at again when it closes.
    const key = `${combat.id}:${actor}`;
    if (this.prompting.has(key)) {
      this.recheck.add(key);
      return;
    }
    this.prompting.add(key);
    let again = false;
    try {
      const client = this.client(token);
      const ruleset = await this.ruleset(state.ruleset);
      const name = state.names[actor] ?? (actor === "gm" ? this.t("GM") : actor);
      const reasonKey = `MELEE.Reason.${reason}`;
      const content = `<p>${escapeHtml(this.host.has(reasonKey) ? this.host.localize(reasonKey, { name }) : this.t("Reason.default", { name }))}</p>`;
      // Until the user acts, closes the list of actions, or the fight moves on.
      for (;;) {
        const current = combat.state();
        if (this.stopped || !current || current.status === "over" || !current.awaiting.some((a) => a.actor === actor)) return;
        const options = await client.options(state.combatId, { actor });
        if (!options.actions.length) return;
        const buttons = options.actions.map((legal, i) => ({ action: `o${i}`, label: this.buttonLabel(ruleset, state, legal) }));
        const picked = await this.host.choose(this.t("Prompt.Title", { name }), content, buttons);
        if (picked === null) return; // closed: asked again at the next change of the fight
        const legal = options.actions[Number(picked.slice(1))];
        if (!legal) return;
        const fields = this.fields(ruleset, state, legal);
        const values = await this.host.form(`${name}: ${this.label("Action", legal.type)}`, this.renderForm(fields), fields, this.t("Prompt.Submit"));
        if (values === null) continue;
        try {
          // No If-Match: in a simultaneous phase (dark-earth's allocations) the others' actions move the
          // version on without making this one stale; Melee checks it against the rules when it applies it.
          await client.act(state.combatId, asAction(MeleeTable.action(legal, actor, values)));
          again = true;
          return;
        } catch (error) {
          if (!(error instanceof MeleeProblem)) throw error;
          this.host.notify("warn", error.detail ?? error.title);
        }
      }
    } finally {
      this.prompting.delete(key);
      if (this.recheck.delete(key) && again) this.combatChanged(combat);
    }
  }

  /** The GM's "Melee sheet" editor of an actor: its `flags.melee.sheet` as JSON, opened with the
   * sheet Melee would make of it now for the world's ruleset (the fields to fill), saved on submit;
   * emptied, the flag is removed. Returns whether a sheet was saved. */
  async editSheet(actorId: string): Promise<boolean> {
    if (!this.host.user().isGM) throw new Error(this.t("Error.GMOnly"));
    const actor = this.host.actor(actorId);
    if (!actor) return false;
    const rulesetId = String(this.host.setting("ruleset") ?? "");
    let current = actor.sheet;
    if (current === null || typeof current !== "object") {
      const example = exampleCombatants(await this.ruleset(rulesetId));
      const ally = actor.ownerIds.length > 0;
      const { sheet } = mapSheet({
        ruleset: rulesetId,
        template: templateFor(example, ally),
        id: actor.id,
        name: actor.name,
        side: ally ? "allies" : "enemies",
        system: actor.system,
        sheet: null,
        mapping: parseMapping(this.host.setting("mapping")),
      });
      // Who fights and on which side come from the Combat: the editor holds the statistics only.
      const { id: _id, name: _name, side: _side, ...statistics } = sheet;
      current = statistics;
    }
    const field: Field = { name: "sheet", label: this.t("Sheet.Label"), kind: "textarea", required: false, hint: this.t("Sheet.Hint"), value: JSON.stringify(current, null, 2) };
    for (;;) {
      const values = await this.host.form(this.t("Sheet.Title", { name: actor.name }), this.renderForm([field]), [field], this.t("Sheet.Save"));
      if (values === null) return false;
      const text = (values.sheet ?? "").trim();
      if (text === "") {
        await this.host.setActorSheet(actor.id, null);
        return false;
      }
      try {
        const sheet: unknown = JSON.parse(text);
        if (sheet === null || typeof sheet !== "object" || Array.isArray(sheet)) throw new Error("not an object");
        await this.host.setActorSheet(actor.id, sheet);
        return true;
      } catch {
        this.host.notify("warn", this.t("Error.SheetJson"));
        field.value = text;
      }
    }
  }

  /** A user published a (new) key: the lead GM seals their combatants' tokens for it. */
  async userChanged(user: HostUser): Promise<void> {
    if (!this.host.user().isGM || !user.publicKey) return;
    const key = JSON.stringify(user.publicKey);
    if (this.knownKeys.get(user.id) === key) return;
    this.knownKeys.set(user.id, key);
    for (const combat of this.host.combats()) {
      const state = combat.state();
      if (!state || state.status === "over" || !this.leads(state)) continue;
      let changed = false;
      const tokens = { ...state.tokens };
      for (const c of combat.combatants) {
        if (!(user.isGM || c.actor?.ownerIds.includes(user.id))) continue;
        const token = await this.unseal(state.tokens[c.id], `${state.combatId}:${c.id}`);
        if (!token) continue;
        tokens[c.id] = { ...tokens[c.id], [user.id]: await seal(user.publicKey, token) };
        changed = true;
      }
      const gm = { ...state.gm };
      if (user.isGM) {
        const token = await this.gmToken(state);
        if (token) {
          gm[user.id] = await seal(user.publicKey, token);
          changed = true;
        }
      }
      if (changed) await combat.setState({ ...state, tokens, gm });
    }
  }
}
