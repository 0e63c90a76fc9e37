import { appUrl } from "@/lib/runtime/app-url";

/**
 * The sender of the service's own mail (invitations), as opposed to a brand's:
 * SERVICE_MAIL_FROM, else no-reply at the host of APP_URL.
 */
export function serviceSender(env: Partial<Record<string, string>> = process.env): { name: string; address: string } {
  const configured = env.SERVICE_MAIL_FROM?.trim();
  if (configured) {
    const match = /^(.*)<([^>]+)>$/.exec(configured);
    return match ? { name: match[1]!.trim().replace(/^"|"$/g, ""), address: match[2]!.trim() } : { name: "Mailservice", address: configured };
  }
  return { name: "Mailservice", address: `no-reply@${new URL(appUrl()).hostname}` };
}
