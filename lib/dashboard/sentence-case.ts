// No server imports: the browser reads the server's refusals beside their fields with the same rule.

/** A first word of letters only (an apostrophe or a hyphen inside, a stop after). */
const PLAIN_WORD = /^[a-z][a-z'’-]*[,.:;!?]?(\s|$)/;

/**
 * zod's and the API's messages start lower-case ("must not be empty"); a
 * message shown to a person reads as a sentence. One that starts with
 * something the sender typed (an address, a merge tag, a link, a code)
 * keeps it as typed: `owner@example.com`, never `Owner@example.com`.
 */
export function sentenceCase(message: string): string {
  return PLAIN_WORD.test(message) ? message.charAt(0).toUpperCase() + message.slice(1) : message;
}
