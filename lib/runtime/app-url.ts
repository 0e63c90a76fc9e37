import { env } from "@/lib/env";

/** APP_URL without a trailing slash: the base of every link the service mails or shows. */
export function appUrl(): string {
  return env().APP_URL;
}
