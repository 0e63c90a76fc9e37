import { env, type Env } from "@/lib/env";

type MailConfig = Pick<Env, "NODE_ENV" | "MAIL_TRANSPORT">;

/** The transport MAIL_TRANSPORT names; unset (or empty) falls back to `local`. */
export function mailTransportName(config: Pick<Env, "MAIL_TRANSPORT"> = env()): "local" | "smtp" | "resend" {
  return config.MAIL_TRANSPORT ?? "local";
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
export function mailboxEnabled(config: MailConfig = env()): boolean {
  return config.NODE_ENV !== "production" || mailTransportName(config) === "local";
}

export const UNSET_MAIL_TRANSPORT_WARNING =
  "MAIL_TRANSPORT is not set: mail is stored in the local test mailbox and delivered to nobody; set MAIL_TRANSPORT=smtp|resend for real delivery, or MAIL_TRANSPORT=local to keep this and silence the warning";

/** The warning a production start prints when `local` was not chosen but fallen back to, or null. */
export function unsetMailTransportWarning(config: MailConfig = env()): string | null {
  return config.NODE_ENV === "production" && !config.MAIL_TRANSPORT ? UNSET_MAIL_TRANSPORT_WARNING : null;
}
