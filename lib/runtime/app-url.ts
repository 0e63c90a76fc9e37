/** APP_URL without a trailing slash: the base of every link the service mails or shows. */
export function appUrl(): string {
  return (process.env.APP_URL || "http://localhost:3000").replace(/\/+$/, "");
}
