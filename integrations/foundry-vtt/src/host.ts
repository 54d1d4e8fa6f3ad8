// What the module needs from its host, Foundry VTT, and nothing more. src/foundry.ts implements it
// over Foundry's globals (the one place that touches them); the logic (src/table.ts) sees only this.
import type { Awaiting } from "@melee/client";

/** A Foundry user, as far as Melee cares. */
export interface HostUser {
  id: string;
  name: string;
  isGM: boolean;
  active: boolean;
  /** The public key this user's browser published (a user flag), to seal their token for them. */
  publicKey: JsonWebKey | null;
}

export interface HostActor {
  id: string;
  name: string;
  /** The status effects the actor has now (`actor.statuses`): ids of CONFIG.statusEffects. */
  statuses: string[];
  /** `actor.system`: the game system's data, read by the mapping's paths. */
  system: unknown;
  /** `actor.flags.melee.sheet`: a partial Melee sheet the GM set on this actor, if any. */
  sheet: unknown;
  /** The ids of the non-GM users who own this actor (ownership level OWNER). */
  ownerIds: string[];
}

export interface HostCombatant {
  id: string;
  name: string;
  actor: HostActor | null;
  /** The token's disposition: 1 friendly, 0 neutral, -1 hostile, -2 secret; null without a token. */
  disposition: number | null;
}

/** A sealed string per user id: only that user's browser opens it (src/seal.ts). */
export type Sealed = Record<string, string>;

/** What the module keeps in a Combat's flags (`flags.melee.state`), which every client receives:
 * nothing in it is a secret in clear, and Melee's snapshot is not in it (the leading GM's browser
 * keeps it, in a client setting: see `Host.setSetting("snapshots")`). */
export interface TableState {
  combatId: string;
  ruleset: string;
  lang: string;
  status: string;
  version: number;
  awaiting: Awaiting[];
  /** The seq of the last log entry posted to the chat. */
  lastSeq: number;
  /** Names of the combatants by Melee id (the Foundry Combatant ids). */
  names: Record<string, string>;
  /** The combat's dice_policy: "server" hides the dice input. */
  dicePolicy: string;
  /** The GM token sealed for each GM user. */
  gm: Sealed;
  /** Each combatant's token sealed for its owners (and for the GMs, to hand it on later). */
  tokens: Record<string, Sealed>;
}

/** What the `melee.mapActor` hook receives. */
export interface MapActorContext {
  /** The sheet the default mapping made: change it in place. */
  sheet: Record<string, unknown>;
  actor: HostActor | null;
  combatant: HostCombatant;
  ruleset: string;
}

export interface HostCombat {
  id: string;
  combatants: HostCombatant[];
  state(): TableState | null;
  setState(state: TableState): Promise<void>;
  /** The tracker's turn (an index in the Combat's turn order) and round, set together (`combat.update`). */
  setTurn(combatantId: string | null, round: number): Promise<void>;
  /** Writes data (dotted paths, `system.attributes.hp.value`) to a combatant's actor: for a
   * token not linked to its actor, the token's own actor, so the token's bar shows it. */
  updateActor(combatantId: string, data: Record<string, unknown>): Promise<void>;
  /** Sets or clears one of CONFIG.statusEffects on a combatant's actor (`actor.toggleStatusEffect`). */
  setStatus(combatantId: string, statusId: string, active: boolean): Promise<void>;
}

/** A status effect the module adds to CONFIG.statusEffects (`name` shown, already translated). */
export interface StatusEffect {
  id: string;
  name: string;
  img: string;
}

export interface FieldChoice {
  value: string;
  label: string;
}

/** One input of a form dialog. */
export interface Field {
  name: string;
  label: string;
  kind: "select" | "number" | "text" | "textarea";
  choices?: FieldChoice[];
  required: boolean;
  min?: number;
  max?: number;
  hint?: string;
  /** The value the form opens with. */
  value?: string;
}

export type SettingKey = "url" | "apiKey" | "ruleset" | "mapping" | "health" | "keyPair" | "snapshots";

export interface Host {
  /** This client's user. */
  user(): HostUser;
  users(): HostUser[];
  setting(key: SettingKey): unknown;
  setSetting(key: SettingKey, value: unknown): Promise<void>;
  currentCombat(): HostCombat | null;
  /** A world actor by id. */
  actor(id: string): HostActor | null;
  /** Sets (a partial sheet) or clears (null) an actor's Melee sheet, `flags.melee.sheet`. */
  setActorSheet(id: string, sheet: object | null): Promise<void>;
  /** Adds status effects to CONFIG.statusEffects (those not there yet), so tokens can show them. */
  addStatusEffects(effects: StatusEffect[]): void;
  combats(): HostCombat[];
  /** The interface language (`game.i18n.lang`). */
  lang(): string;
  localize(key: string, data?: Record<string, string | number>): string;
  has(key: string): boolean;
  notify(level: "info" | "warn" | "error", message: string): void;
  /** Post a chat message (HTML) as "Melee"; whispered to the GMs when asked. */
  chat(content: string, whisperToGMs?: boolean): Promise<void>;
  /** A dialog with one button per choice: the chosen button's action, null if closed. */
  choose(title: string, content: string, buttons: { action: string; label: string }[]): Promise<string | null>;
  /** A form dialog: the fields' values by name, null if closed. */
  form(title: string, content: string, fields: Field[], submit: string): Promise<Record<string, string> | null>;
  /** `Hooks.call("melee.mapActor", context)`: other modules may change `context.sheet`, or return false to leave the combatant out. */
  mapActor(context: MapActorContext): boolean;
  onCombatChanged(callback: (combat: HostCombat) => void): void;
  onUserChanged(callback: (user: HostUser) => void): void;
  publishPublicKey(key: JsonWebKey): Promise<void>;
}
