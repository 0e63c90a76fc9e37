import { env, type Env } from "@/lib/env";

// Gmail's Feedback Loop groups complaints by the fields of a Feedback-ID header, `a:b:c:SenderId`
// (up to three identifiers of the sender's choice, then one that names the sender), and reports a
// field whose mail draws complaints. Only ids go in: no address, no name, nothing about a person.

/** A field holds no colon (it would shift every field after it), no space, and at most 64 characters. */
function field(value: string): string {
  return value.replace(/[^A-Za-z0-9._-]/g, "").slice(0, 64) || "none";
}

/** The SenderId: APP_URL's host name, the same on every mail this installation sends. */
export function feedbackSenderId(config: Pick<Env, "APP_URL"> = env()): string {
  return field(new URL(config.APP_URL).hostname);
}

/**
 * What a mail's complaints are counted by: its stream first (the campaign's id; for mail that is
 * not a campaign, what it is: `confirmation`, `welcome`, `invitation`…), then the brand (`service`
 * for the service's own mail), then the workspace (`service` when the mail is about none), then the
 * installation. A campaign drawing complaints is then told apart from its brand's other mail, and
 * a brand from its workspace's others.
 */
export function feedbackId(
  mail: { stream: string; brandId: string | null; workspaceId: string | null },
  config: Pick<Env, "APP_URL"> = env(),
): string {
  return [mail.stream, mail.brandId ?? "service", mail.workspaceId ?? "service", feedbackSenderId(config)]
    .map(field)
    .join(":");
}
