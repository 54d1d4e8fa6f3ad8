// A player's link (their combatant token, Melee's address, the combat) travels through the room's
// metadata, which every member of the room (and every extension they run) can read and write: so
// it travels sealed, and signed by who sealed it. Each browser keeps an ECDH P-256 key pair
// (localStorage) and publishes its public half in its OBR player metadata, which only that player
// can write. The GM's page seals a link with its own key pair for the player's key (ECDH, then
// AES-GCM): only the player's browser can open it, and only a link sealed with the private half
// of the key the GM published opens under that key, so a player cannot slip a link of their own
// (another Melee's address) to someone else.
export const PLAYER_KEY = "org.melee.owlbear/key";

const CURVE = { name: "ECDH", namedCurve: "P-256" } as const;
const AES = { name: "AES-GCM", length: 256 } as const;

export interface Sealed {
  /** The recipient's public key (raw, base64): a player whose key changed needs a new seal. */
  to: string;
  /** The sender's public key (raw, base64): the GM's published one for a player's link. */
  from: string;
  iv: string;
  data: string;
}

export interface KeyPair {
  publicKey: string;
  privateKey: CryptoKey;
}

const toBase64 = (bytes: ArrayBuffer | Uint8Array): string => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const importPublic = (raw: string): Promise<CryptoKey> => crypto.subtle.importKey("raw", fromBase64(raw), CURVE, false, []);
const sharedKey = (privateKey: CryptoKey, publicKey: CryptoKey): Promise<CryptoKey> =>
  crypto.subtle.deriveKey({ name: "ECDH", public: publicKey }, privateKey, AES, false, ["encrypt", "decrypt"]);

/** This browser's key pair for one OBR player, made once (under a lock: the popover and the background page may both ask). */
export async function ownKeyPair(storage: Storage, playerId: string): Promise<KeyPair> {
  const name = `melee-owlbear/key/${playerId}`;
  return navigator.locks.request(name, async () => {
    const kept = storage.getItem(name);
    if (kept) {
      const { publicKey, privateKey } = JSON.parse(kept) as { publicKey: string; privateKey: JsonWebKey };
      return { publicKey, privateKey: await crypto.subtle.importKey("jwk", privateKey, CURVE, false, ["deriveKey"]) };
    }
    const pair = await crypto.subtle.generateKey(CURVE, true, ["deriveKey"]);
    const publicKey = toBase64(await crypto.subtle.exportKey("raw", pair.publicKey));
    storage.setItem(name, JSON.stringify({ publicKey, privateKey: await crypto.subtle.exportKey("jwk", pair.privateKey) }));
    return { publicKey, privateKey: pair.privateKey };
  });
}

/** `text` sealed by `from` (the sender's key pair) for the key `to`. */
export async function seal(text: string, to: string, from: KeyPair): Promise<Sealed> {
  const key = await sharedKey(from.privateKey, await importPublic(to));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(text));
  return { to, from: from.publicKey, iv: toBase64(iv), data: toBase64(data) };
}

/** The sealed text, or null when it was sealed for another key, by a key not among `senders`, or
 * tampered with (AES-GCM: only the holder of a sender's private key could have sealed it). */
export async function unseal(sealed: Sealed, own: KeyPair, senders: string[]): Promise<string | null> {
  if (sealed.to !== own.publicKey || !senders.includes(sealed.from)) return null;
  try {
    const key = await sharedKey(own.privateKey, await importPublic(sealed.from));
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(sealed.iv) }, key, fromBase64(sealed.data));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
