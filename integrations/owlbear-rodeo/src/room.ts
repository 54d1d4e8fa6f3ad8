// What the extension keeps, and where.
// - The room's metadata (every member of the room, and every extension they run, can read AND
//   write it), under two namespaced keys: the combat (its id, ruleset, combatants and their tokens
//   on the scene, who plays whom: for the table to see, never trusted with a token), written by the
//   GM's popover; and each player's link (their combatant's token, Melee's address, the combat),
//   sealed by the GM's browser for that player's browser alone (seal.ts), written by the GM's
//   background page.
// - Each token's own metadata: its combatant's health and conditions (scene.ts).
// - The GM's browser (localStorage): Melee's address, the GM token, the combatants' tokens and who
//   plays whom. Where a token goes is decided from these only: a room field rewritten by a player
//   sends no token anywhere.
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
  combatId: string;
  ruleset: string;
  /** The room's language: the words written on the scene. */
  lang: Lang;
  combatants: Fighter[];
  /** OBR player id -> the combatant they play, as the GM last published it (shown, not trusted). */
  players: Record<string, string>;
}

/** A player's link, sealed by the GM's browser for their browser's key: a PlayerLink's JSON. */
export interface SealedLink extends Sealed {
  /** The combatant it is for, in clear: the GM's page reseals a link whose combatant changed. */
  combatant: string;
}

/** What a sealed link holds: everything the player's page needs to open /play, nothing from the room. */
export interface PlayerLink {
  token: string;
  address: string;
  combat: string;
  combatant: string;
}

/** The GM's secrets of one combat, kept in the GM's browser only: where Melee is (as the GM typed
 * it), its tokens, and who plays whom (OBR player id -> combatant). */
export interface GmSecrets {
  baseUrl: string;
  gm: string;
  combatants: Record<string, string>;
  players: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => Boolean(value) && typeof value === "object" && !Array.isArray(value);

/** The room's Melee combat, if the metadata holds a well-formed one. */
export function readRoom(metadata: Record<string, unknown>): RoomState | null {
  const state = metadata[ROOM_KEY];
  if (!isRecord(state) || typeof state["combatId"] !== "string") return null;
  const lang = state["lang"];
  return {
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

/** The link's JSON sealed for a player, read back: null unless it is whole. */
export function readLink(text: string | null): PlayerLink | null {
  try {
    const link = JSON.parse(text ?? "null") as unknown;
    if (!isRecord(link)) return null;
    const { token, address, combat, combatant } = link;
    return typeof token === "string" && typeof address === "string" && typeof combat === "string" && typeof combatant === "string"
      ? { token, address, combat, combatant } : null;
  } catch {
    return null;
  }
}

/** The GM's secrets of one combat, null when this browser has none (or only an older form without
 * Melee's address: the GM joins the combat again). */
export function loadSecrets(storage: Storage, combatId: string): GmSecrets | null {
  try {
    const parsed = JSON.parse(storage.getItem(secretsKey(combatId)) ?? "null") as Partial<GmSecrets> | null;
    if (!parsed || typeof parsed.gm !== "string" || typeof parsed.baseUrl !== "string") return null;
    return { baseUrl: parsed.baseUrl, gm: parsed.gm, combatants: parsed.combatants ?? {}, players: parsed.players ?? {} };
  } catch {
    return null;
  }
}

export function saveSecrets(storage: Storage, combatId: string, secrets: GmSecrets): void {
  storage.setItem(secretsKey(combatId), JSON.stringify(secrets));
}
