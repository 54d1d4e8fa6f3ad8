// A player's combatant token travels through the room's metadata, which every member of the room
// (and every extension they run) can read: so it travels sealed. Each player's browser keeps an
// ECDH P-256 key pair (localStorage) and publishes its public half in their OBR player metadata,
// which only that player can write; the GM's page seals the token for that key (ECDH with a fresh
// key of its own, then AES-GCM), and only the browser holding the private half can open it.
export const PLAYER_KEY = "org.melee.owlbear/key";

const CURVE = { name: "ECDH", namedCurve: "P-256" } as const;
const AES = { name: "AES-GCM", length: 256 } as const;

export interface Sealed {
  /** The recipient's public key (raw, base64): a player whose key changed needs a new seal. */
  to: string;
  /** The sender's one-time public key (raw, base64). */
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

export async function seal(text: string, to: string): Promise<Sealed> {
  const once = await crypto.subtle.generateKey(CURVE, true, ["deriveKey"]);
  const key = await sharedKey(once.privateKey, await importPublic(to));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(text));
  return { to, from: toBase64(await crypto.subtle.exportKey("raw", once.publicKey)), iv: toBase64(iv), data: toBase64(data) };
}

/** The sealed text, or null when it was sealed for another key (or tampered with). */
export async function unseal(sealed: Sealed, own: KeyPair): Promise<string | null> {
  if (sealed.to !== own.publicKey) return null;
  try {
    const key = await sharedKey(own.privateKey, await importPublic(sealed.from));
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(sealed.iv) }, key, fromBase64(sealed.data));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
