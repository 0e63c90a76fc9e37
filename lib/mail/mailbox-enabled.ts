type Env = Partial<Record<string, string>>;

/** The transport MAIL_TRANSPORT names; unset (or empty) falls back to `local`. */
export function mailTransportName(env: Env = process.env): string {
  return env.MAIL_TRANSPORT || "local";
}

/**
 * Whether the dashboard's test mailbox (page, nav entry, simulate buttons) is
 * available. It shows live confirmation and unsubscribe links to every member
 * of a workspace, who could confirm or resubscribe people with them. So in
 * production it exists only while mail goes to the local transport: named
 * explicitly, or as the logged fallback of an unset MAIL_TRANSPORT (then it is
 * the only place mail goes and a fresh `npm start` would be unusable without
 * it). With smtp or resend, mail stored earlier stays hidden.
 */
export function mailboxEnabled(env: Env = process.env): boolean {
  return env.NODE_ENV !== "production" || mailTransportName(env) === "local";
}

export const UNSET_MAIL_TRANSPORT_WARNING =
  "MAIL_TRANSPORT is not set: mail is stored in the local test mailbox and delivered to nobody; set MAIL_TRANSPORT=smtp|resend for real delivery, or MAIL_TRANSPORT=local to keep this and silence the warning";

/** The warning a production start prints when `local` was not chosen but fallen back to, or null. */
export function unsetMailTransportWarning(env: Env = process.env): string | null {
  return env.NODE_ENV === "production" && !env.MAIL_TRANSPORT ? UNSET_MAIL_TRANSPORT_WARNING : null;
}
