import { sha256Hex } from "./sha256";

export interface FormChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

/**
 * ALTCHA's proof of work: the number whose SHA-256 after the salt is the
 * challenge, sent back as the base64 JSON payload altcha-lib verifies.
 * Yields to the page every thousand tries so the form stays responsive.
 */
export async function solveChallenge(challenge: FormChallenge): Promise<string> {
  const max = challenge.maxnumber ?? 1_000_000;
  for (let number = 0; number <= max; number++) {
    if (sha256Hex(challenge.salt + number) === challenge.challenge) {
      const { algorithm, salt, signature } = challenge;
      return btoa(JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature }));
    }
    if (number % 1000 === 999) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error("challenge not solved");
}
