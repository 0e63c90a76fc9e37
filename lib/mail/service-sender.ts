import { env, type Env } from "@/lib/env";

/**
 * The sender of the service's own mail (invitations), as opposed to a brand's:
 * SERVICE_MAIL_FROM, else no-reply at the host of APP_URL.
 */
export function serviceSender(config: Pick<Env, "SERVICE_MAIL_FROM" | "APP_URL"> = env()): {
  name: string;
  address: string;
} {
  const configured = config.SERVICE_MAIL_FROM?.trim();
  if (configured) {
    const match = /^(.*)<([^>]+)>$/.exec(configured);
    return match
      ? { name: match[1]!.trim().replace(/^"|"$/g, ""), address: match[2]!.trim() }
      : { name: "Mailservice", address: configured };
  }
  return { name: "Mailservice", address: `no-reply@${new URL(config.APP_URL).hostname}` };
}
