// The room's tokens as Melee combatants, and Melee's state back onto them: each token's item
// metadata holds its combatant's health and conditions (ITEM_KEY), and a label attached to the
// token shows them on the scene, in the room's language.
import OBR, { buildLabel } from "@owlbear-rodeo/sdk";
import type { Image, Item } from "@owlbear-rodeo/sdk";
import type { Combat, Combatant, Ruleset, Sheet } from "@melee/client";
import { NAMESPACE } from "./room.js";
import type { Fighter } from "./room.js";
import { words } from "./words.js";
import type { Lang } from "./words.js";

/** A token's Melee state (health, conditions), written by the GM's page after each log entry. */
export const ITEM_KEY = `${NAMESPACE}/melee`;
/** A sheet the GM keeps on a token: ruleset id -> a sheet of that ruleset (POST /combats' combatant). */
export const SHEETS_KEY = `${NAMESPACE}/sheets`;
/** Marks the label this extension attached to a token (its value: the token's item id). */
const LABEL_KEY = `${NAMESPACE}/label`;

export interface TokenState {
  combat: string;
  combatant: string;
  /** What the ruleset counts health in (pv, blessures), what is left and the most; null when it keeps none. */
  health: { kind: string; value: number; max: number | null } | null;
  conditions: { code: string; label: string }[];
}

export const isToken = (item: Item): item is Image => item.type === "IMAGE" && item.layer === "CHARACTER";

/** The name the table sees: the token's text label, else its item name. */
export function tokenName(token: Image): string {
  return (token.text?.plainText ?? "").trim() || token.name.trim() || "?";
}

/** The sheets a token keeps in its metadata, for one ruleset. */
export function ownSheet(token: Item, ruleset: string): Sheet | null {
  const sheets = token.metadata[SHEETS_KEY];
  const sheet = sheets && typeof sheets === "object" ? (sheets as Record<string, unknown>)[ruleset] : undefined;
  return sheet && typeof sheet === "object" && !Array.isArray(sheet) ? (sheet as Sheet) : null;
}

/** A Melee id from a name (letters, digits, - _ .), unique among `taken`. */
export function combatantId(name: string, taken: Set<string>): string {
  const base = name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, "-").replace(/^[^a-z0-9]+|-+$/g, "").slice(0, 56) || "token";
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** A combatant for a token: the chosen sheet, with the token's name and the GM's side. */
export function sheetFor(sheet: Sheet, id: string, name: string, side: string): Sheet {
  return { ...structuredClone(sheet), id, name: name.slice(0, 80), side };
}

function health(combatant: Combatant): TokenState["health"] {
  const kind = ["pv", "blessures"].find((key) => typeof combatant[key] === "number");
  if (!kind) return null;
  const max = combatant[`${kind}_max`];
  return { kind, value: combatant[kind] as number, max: typeof max === "number" ? max : null };
}

/** Each combatant's state, its conditions named in the room's language (the ruleset's labels). */
export function tokenStates(combat: Combat, ruleset: Ruleset, lang: Lang): Map<string, TokenState> {
  const labels = (ruleset.labels as Record<string, Record<string, Record<string, string>>>)[lang]?.["condition"] ?? {};
  return new Map(combat.combatants.map((c) => [c.id, {
    combat: combat.id,
    combatant: c.id,
    health: health(c),
    conditions: c.conditions.map((condition) => ({
      code: condition.code,
      // A narrative condition carries the GM's own words.
      label: typeof condition["label"] === "string" ? condition["label"] : labels[condition.code] ?? condition.code.replace(/_/g, " "),
    })),
  }]));
}

/** What the label on a token reads: "HP 7/12 · prone, stunned". */
export function labelText(state: TokenState, lang: Lang): string {
  const t = words(lang);
  const parts: string[] = [];
  if (state.health) {
    const word = t(state.health.kind === "blessures" ? "healthBlessures" : "healthPv");
    parts.push(`${word} ${state.health.value}${state.health.max === null ? "" : `/${state.health.max}`}`);
  }
  if (state.conditions.length) parts.push(state.conditions.map((c) => c.label).join(", "));
  return parts.join(" · ");
}

/**
 * Writes each fighter's state into its token's metadata and its label (the GM's page only); the
 * tokens of an earlier fight lose theirs.
 */
export async function writeStates(fighters: Fighter[], states: Map<string, TokenState>, lang: Lang): Promise<void> {
  const byItem = new Map(fighters.filter((f) => f.item && states.has(f.id)).map((f) => [f.item as string, states.get(f.id) as TokenState]));
  const present = await OBR.scene.items.getItems((item) => byItem.has(item.id) || ITEM_KEY in item.metadata || typeof item.metadata[LABEL_KEY] === "string");
  const marked = present.filter((item) => byItem.has(item.id) || ITEM_KEY in item.metadata);
  if (marked.length) {
    await OBR.scene.items.updateItems(marked.map((item) => item.id), (drafts) => {
      for (const draft of drafts) {
        if (byItem.has(draft.id)) draft.metadata[ITEM_KEY] = byItem.get(draft.id);
        else delete draft.metadata[ITEM_KEY];
      }
    });
  }
  const tokens = present.filter((item) => byItem.has(item.id));
  const labels = new Map(present.filter((item) => typeof item.metadata[LABEL_KEY] === "string").map((item) => [item.metadata[LABEL_KEY] as string, item]));
  const text = new Map(tokens.map((token) => [token.id, labelText(byItem.get(token.id) as TokenState, lang)]));
  const gone = [...labels.values()].filter((label) => !text.has(label.metadata[LABEL_KEY] as string));
  if (gone.length) await OBR.scene.items.deleteItems(gone.map((label) => label.id));
  const stale = [...labels.values()].filter((label) => text.has(label.metadata[LABEL_KEY] as string));
  if (stale.length) {
    await OBR.scene.items.updateItems(stale.map((label) => label.id), (drafts) => {
      for (const draft of drafts) {
        if (draft.type === "LABEL") (draft as unknown as { text: { plainText: string } }).text.plainText = text.get(draft.metadata[LABEL_KEY] as string) ?? "";
      }
    });
  }
  const fresh = tokens.filter((token) => !labels.has(token.id));
  if (fresh.length) {
    await OBR.scene.items.addItems(fresh.map((token) => buildLabel()
      .plainText(text.get(token.id) ?? "")
      .attachedTo(token.id)
      .position({ x: token.position.x, y: token.position.y + 80 * token.scale.y })
      .layer("TEXT")
      .locked(true)
      .disableHit(true)
      .pointerDirection("UP")
      .metadata({ [LABEL_KEY]: token.id })
      .build()));
  }
}
