// The GM's background page (background.html, alive while the room is open): it seals each
// player's link (their combatant token, Melee's address, the combat) for that player's browser,
// and follows the combat's log, writing every combatant's health and conditions onto its token
// after each entry. Only the GM's client writes; the players' background pages only publish their
// public key. The room's metadata says which combat the room plays; where Melee is, and who plays
// whom, come from the GM's own browser (room.ts), never from the room, which any player may write.
import OBR from "@owlbear-rodeo/sdk";
import type { Metadata, Player } from "@owlbear-rodeo/sdk";
import { MeleeClient } from "@melee/client";
import type { Ruleset } from "@melee/client";
import { SEALED_KEY, loadSecrets, readRoom, readSealed, saveSecrets } from "./room.js";
import type { PlayerLink, RoomState, SealedLink } from "./room.js";
import { PLAYER_KEY, seal } from "./seal.js";
import type { KeyPair } from "./seal.js";
import { tokenStates, writeStates } from "./scene.js";

/** One at a time: each step sees what the previous one wrote. */
function serial(): (task: () => Promise<void>) => Promise<void> {
  let tail = Promise.resolve();
  return (task) => (tail = tail.then(task).catch((error: unknown) => console.error("Melee:", error)));
}

/**
 * The sealed links the room should hold: one per player the GM's browser says plays a combatant,
 * once their browser published a key. Any member of the room may write its metadata: a link is
 * kept only as this page sealed it (`mine`, player id -> its JSON), so one spoilt or slipped in by
 * someone else is sealed again, or dropped.
 */
async function sealLinks(room: RoomState, party: Player[], current: Record<string, SealedLink>, mine: Map<string, string>, own: KeyPair): Promise<Record<string, SealedLink> | null> {
  const secrets = loadSecrets(localStorage, room.combatId);
  if (!secrets) return null; // another GM's browser holds this combat's tokens
  const next: Record<string, SealedLink> = {};
  for (const [playerId, combatant] of Object.entries(secrets.players)) {
    const key = party.find((p) => p.id === playerId)?.metadata[PLAYER_KEY];
    const kept = current[playerId];
    if (kept && kept.combatant === combatant && (typeof key !== "string" || kept.to === key) && mine.get(playerId) === JSON.stringify(kept)) {
      next[playerId] = kept;
      continue;
    }
    if (typeof key !== "string") continue; // their browser has not opened the room with Melee yet
    let token = secrets.combatants[combatant];
    if (!token) {
      const gm = new MeleeClient({ baseUrl: secrets.baseUrl, token: secrets.gm });
      token = (await gm.mintToken(room.combatId, { role: "player", combatant })).token;
      secrets.combatants[combatant] = token;
      saveSecrets(localStorage, room.combatId, secrets);
    }
    const link: PlayerLink = { token, address: secrets.baseUrl, combat: room.combatId, combatant };
    next[playerId] = { combatant, ...(await seal(JSON.stringify(link), key, own)) };
    mine.set(playerId, JSON.stringify(next[playerId]));
  }
  const same = JSON.stringify(Object.entries(next).sort()) === JSON.stringify(Object.entries(current).sort());
  return same ? null : next;
}

/** Runs for the GM's browser; `own` is its key pair, whose public half the players' pages trust. */
export async function runGmSync(own: KeyPair): Promise<void> {
  const queue = serial();
  let party = await OBR.party.getPlayers();
  let metadata: Metadata = await OBR.room.getMetadata();
  let followed: { combatId: string; stop: AbortController } | null = null;
  const mine = new Map<string, string>();

  const reseal = (): Promise<void> => queue(async () => {
    const room = readRoom(metadata);
    if (!room) return;
    const next = await sealLinks(room, party, readSealed(metadata), mine, own);
    if (next) await OBR.room.setMetadata({ [SEALED_KEY]: next });
  });

  const rulesets = new Map<string, Promise<Ruleset>>(); // their labels, read once
  const mirror = (room: RoomState): Promise<void> => queue(async () => {
    const secrets = loadSecrets(localStorage, room.combatId);
    if (!secrets || !(await OBR.scene.isReady())) return;
    const melee = new MeleeClient({ baseUrl: secrets.baseUrl, token: secrets.gm });
    const key = `${secrets.baseUrl} ${room.ruleset}`;
    if (!rulesets.has(key)) rulesets.set(key, melee.ruleset(room.ruleset).catch((error: unknown) => (rulesets.delete(key), Promise.reject(error))));
    const [combat, ruleset] = await Promise.all([melee.combat(room.combatId), rulesets.get(key) as Promise<Ruleset>]);
    await writeStates(room.combatants, tokenStates(combat, ruleset, room.lang), room.lang);
  });

  /** Follows the room's combat from its newest entry (it is mirrored once now, then after each one). */
  const follow = (): void => {
    const room = readRoom(metadata);
    if (followed?.combatId === room?.combatId) return;
    followed?.stop.abort();
    followed = null;
    const secrets = room ? loadSecrets(localStorage, room.combatId) : null;
    if (!room || !secrets) return;
    const stop = new AbortController();
    followed = { combatId: room.combatId, stop };
    const melee = new MeleeClient({ baseUrl: secrets.baseUrl, token: secrets.gm });
    const again = (): void => void mirror(room);
    const failed = (error: unknown): void => console.error("Melee:", error);
    // Mirrored once the newest entry is known: a later one is the stream's to deliver, so none falls between.
    melee.events(room.combatId, { after: 0, limit: 1, signal: stop.signal })
      .then(({ last_seq }) => {
        again();
        melee.subscribe(room.combatId, { onEntry: again, onReset: again, onError: failed }, { after: last_seq, signal: stop.signal });
      })
      .catch((error: unknown) => stop.signal.aborted || failed(error));
  };

  OBR.room.onMetadataChange((changed) => {
    metadata = changed;
    follow();
    void reseal();
  });
  OBR.party.onChange((players) => {
    party = players;
    void reseal();
  });
  // The GM's popover changed who plays whom (kept in this browser: see room.ts).
  window.addEventListener("storage", (event) => {
    if (event.key?.startsWith("melee-owlbear/")) void reseal();
  });
  OBR.scene.onReadyChange((ready) => {
    const room = readRoom(metadata);
    if (ready && room) void mirror(room);
  });
  follow();
  await reseal();
}
