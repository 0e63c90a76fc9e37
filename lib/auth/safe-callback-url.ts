/**
 * Where to send someone after signing in or out: a path on this site, or "/".
 * The value is parsed the way a browser parses it, because prefix checks miss
 * what browsers rewrite: "/\evil.example" and "/<tab>/evil.example" both mean
 * "//evil.example" to a browser. Pure and dependency-free: the sign-in form
 * (in the browser) and next-auth's redirect callback (on the server) share it.
 */
export function safeCallbackUrl(value: unknown, appOrigin: string): string {
  if (typeof value !== "string" || value === "") return "/";
  let url: URL;
  let origin: string;
  try {
    origin = new URL(appOrigin).origin;
    url = new URL(value, origin);
  } catch {
    return "/";
  }
  if (url.origin !== origin) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can normalise to a path that starts "//" ("/.//evil.example"): another host to a browser.
  return path.startsWith("//") ? "/" : path;
}
