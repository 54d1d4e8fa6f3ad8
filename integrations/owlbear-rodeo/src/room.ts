// What the extension keeps, and where.
// - The room's metadata (every extension of every member of the room can read it), under two
//   namespaced keys: the combat (Melee's URL, the combat, its combatants and their tokens on the
//   scene, who plays whom), written by the GM's popover; and each player's combatant token,
//   sealed for that player's browser alone (seal.ts), written by the GM's background page.
// - Each token's own metadata: its combatant's health and conditions (scene.ts).
// - The GM's browser (localStorage): the GM token and the combatants' tokens; never the room.
import type { Lang } from "./words.js";
import type { Sealed } from "./seal.js";

/** OBR asks extensions to namespace their metadata by a domain they own. */
export const NAMESPACE = "org.melee.owlbear";
export const ROOM_KEY = `${NAMESPACE}/combat`;
export const SEALED_KEY = `${NAMESPACE}/sealed`;

export interface Fighter {
  /** The Melee combatant's id. */
  id: string;
  name: string;
  /** The OBR item (the token on the scene) it stands for, when the fight was started from tokens. */
  item?: string;
}

export interface RoomState {
  baseUrl: string;
  combatId: string;
  ruleset: string;
  /** The room's language: the words written on the scene. */
  lang: Lang;
  combatants: Fighter[];
  /** OBR player id -> the combatant they play. Who plays whom, not their tokens. */
  players: Record<string, string>;
}

/** A player's combatant token, sealed for their browser's key. */
export interface SealedLink extends Sealed {
  combatant: string;
}

/** The GM's secrets of one combat, kept in the GM's browser only. */
export interface GmSecrets {
  gm: string;
  combatants: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** The room's Melee combat, if the metadata holds a well-formed one. */
export function readRoom(metadata: Record<string, unknown>): RoomState | null {
  const state = metadata[ROOM_KEY];
  if (!isRecord(state) || typeof state["baseUrl"] !== "string" || typeof state["combatId"] !== "string") return null;
  const lang = state["lang"];
  return {
    baseUrl: state["baseUrl"],
    combatId: state["combatId"],
    ruleset: typeof state["ruleset"] === "string" ? state["ruleset"] : "",
    lang: lang === "fr" || lang === "pt" ? lang : "en",
    combatants: Array.isArray(state["combatants"]) ? (state["combatants"] as Fighter[]) : [],
    players: isRecord(state["players"]) ? (state["players"] as Record<string, string>) : {},
  };
}

/** OBR player id -> their sealed link. */
export function readSealed(metadata: Record<string, unknown>): Record<string, SealedLink> {
  const sealed = metadata[SEALED_KEY];
  return isRecord(sealed) ? (sealed as Record<string, SealedLink>) : {};
}

/** Melee's /play for one token (the page reads its fragment: never sent to a server, nor logged). */
export function playLink(baseUrl: string, combatId: string, token: string, actor: string): string {
  const params = new URLSearchParams({ combat: combatId, token, as: actor });
  return `${baseUrl.replace(/\/+$/, "")}/play#${params.toString()}`;
}

const secretsKey = (combatId: string): string => `melee-owlbear/${combatId}`;

export function loadSecrets(storage: Storage, combatId: string): GmSecrets | null {
  try {
    const parsed = JSON.parse(storage.getItem(secretsKey(combatId)) ?? "null") as GmSecrets | null;
    return parsed && typeof parsed.gm === "string" ? { gm: parsed.gm, combatants: parsed.combatants ?? {} } : null;
  } catch {
    return null;
  }
}

export function saveSecrets(storage: Storage, combatId: string, secrets: GmSecrets): void {
  storage.setItem(secretsKey(combatId), JSON.stringify(secrets));
}
