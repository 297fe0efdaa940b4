/**
 * The transactions cursor (shared/api/supply-books.ts): a position in the sessions' commit order,
 * sealed. A bare position would tell a supplier how many sessions the whole exchange has written
 * (every supplier's traffic shares that order), so the position is encrypted with AES-256-GCM under
 * a key derived from the app's signing secret, bound to the supplier (its id is the associated
 * data): a cursor made up, changed, or taken from another supplier's walk opens to nothing (400).
 * A fresh IV each time: a cursor says nothing about another. Changing JWT_SECRET retires every
 * cursor (a panel starts again from `since`).
 */
import { Buffer } from "node:buffer";
import { createCipheriv, createDecipheriv, createHash } from "node:crypto";

const IV = 12, POS = 8, TAG = 16;

const keyOf = (secret: Uint8Array) =>
  createHash("sha256").update("samplex supply transactions cursor\u0000").update(secret).digest();

const b64url = (b: Uint8Array) => Buffer.from(b).toString("base64url");

export function sealCursor(secret: Uint8Array, supplierId: string, position: number): string {
  const iv = crypto.getRandomValues(new Uint8Array(IV));
  const cipher = createCipheriv("aes-256-gcm", keyOf(secret), iv);
  cipher.setAAD(Buffer.from(supplierId));
  const plain = Buffer.alloc(POS);
  plain.writeBigUInt64BE(BigInt(position));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return b64url(Buffer.concat([iv, body, cipher.getAuthTag()]));
}

/** The position a cursor of this supplier holds, or null for anything else. */
export function openCursor(secret: Uint8Array, supplierId: string, cursor: string): number | null {
  const raw = Buffer.from(cursor, "base64url");
  if (raw.length !== IV + POS + TAG || b64url(raw) !== cursor) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(secret), raw.subarray(0, IV));
    decipher.setAAD(Buffer.from(supplierId));
    decipher.setAuthTag(raw.subarray(IV + POS));
    const plain = Buffer.concat([decipher.update(raw.subarray(IV, IV + POS)), decipher.final()]);
    const position = plain.readBigUInt64BE();
    return position <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(position) : null;
  } catch {
    return null;
  }
}
