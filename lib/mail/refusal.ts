/**
 * A receiving server's answer refusing one message, as the transport reports it beside the messages it
 * handed over. `temporary` refusals (SMTP 4xx, or a provider's rate-limit answer whatever its code) are
 * tried again later and never count as a bounce; a permanent one fails the send. Code 0: no answer
 * came (the connection was lost under the message), tried again later too.
 */
export interface Refusal {
  refused: { code: number; response: string; temporary: boolean };
}

/** Wording that providers use for "slow down", sometimes under a 5xx code (Gmail 4.7.28, Yahoo TSS04, Microsoft 4.7.500). */
const RATE_LIMIT_WORDING =
  /rate limit|too many (messages|connections|recipients)|throttl|try again later|TS[SR]0\d|4\.7\.(28|500|650)|server busy/i;

/**
 * What an SMTP error says about one message, or null when it is not the server's answer to it (a
 * connection that failed before any reply: the whole batch is tried again instead).
 */
export function refusalOf(error: unknown): Refusal | null {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  if (typeof code !== "number" || code < 400 || code >= 600) return null;
  const response = String((error as { response?: unknown }).response ?? (error as Error).message ?? "");
  return { refused: { code, response, temporary: temporarySmtpAnswer(code, response) } };
}

/** 421, 450, 451, 452, 454 and every other 4xx are temporary by definition; a 5xx only when it says "rate limit". */
export function temporarySmtpAnswer(code: number, response: string): boolean {
  return (code >= 400 && code < 500) || RATE_LIMIT_WORDING.test(response);
}
