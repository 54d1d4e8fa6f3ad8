// Sealing a token for one user: RSA-OAEP (SHA-256) with a key pair made by that user's browser.
// The private key never leaves the browser (a client-scoped setting, i.e. its localStorage); the public
// key is published in the user's flags. A sealed token may sit in a Combat's flags, which every client
// receives: only the browser holding the private key opens it. WebCrypto needs a secure context
// (HTTPS or localhost): elsewhere `crypto.subtle` is missing and the module says so.

const ALGORITHM = { name: "RSA-OAEP", hash: "SHA-256" } as const;

export interface KeyPairJwk {
  publicKey: JsonWebKey;
  privateKey: JsonWebKey;
}

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new Error("no-webcrypto");
  return s;
}

export async function generateKeyPair(): Promise<KeyPairJwk> {
  const pair = await subtle().generateKey({ ...ALGORITHM, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }, true, [
    "encrypt",
    "decrypt",
  ]);
  return {
    publicKey: await subtle().exportKey("jwk", pair.publicKey),
    privateKey: await subtle().exportKey("jwk", pair.privateKey),
  };
}

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

export async function seal(publicKey: JsonWebKey, secret: string): Promise<string> {
  const key = await subtle().importKey("jwk", publicKey, ALGORITHM, false, ["encrypt"]);
  const sealed = await subtle().encrypt(ALGORITHM, key, new TextEncoder().encode(secret));
  return toBase64(new Uint8Array(sealed));
}

/** The secret, or null when this key cannot open it (sealed for another browser). */
export async function open(privateKey: JsonWebKey, sealed: string): Promise<string | null> {
  try {
    const key = await subtle().importKey("jwk", privateKey, ALGORITHM, false, ["decrypt"]);
    return new TextDecoder().decode(await subtle().decrypt(ALGORITHM, key, fromBase64(sealed)));
  } catch {
    return null;
  }
}
