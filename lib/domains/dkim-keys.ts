import "server-only";

import { createCipheriv, createDecipheriv, createHash, generateKeyPairSync, randomBytes } from "node:crypto";

import { requiredSecret } from "@/lib/env";

/** A DKIM key pair for a sending domain: the public half goes in DNS, the private half signs every message. */
export function generateDkimKeyPair(): { publicKey: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

// Private keys are stored encrypted (AES-256-GCM) under a key derived from TOKEN_SECRET: a copy of the
// database alone cannot sign mail as the sender's domain.

function encryptionKey(): Buffer {
  return createHash("sha256")
    .update(`dkim-private-keys.${requiredSecret("TOKEN_SECRET")}`)
    .digest();
}

export function encryptPrivateKey(pem: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const sealed = Buffer.concat([cipher.update(pem, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), sealed.toString("base64")].join(":");
}

export function decryptPrivateKey(stored: string): string {
  const [version, iv, tag, sealed] = stored.split(":");
  if (version !== "v1" || !iv || !tag || !sealed) throw new Error("not an encrypted DKIM key");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(sealed, "base64")), decipher.final()]).toString("utf8");
}
