import { execFileSync } from "node:child_process";

/** The admin CLI against the app under test (it joins the app's running database). */
export function admin<K extends string, V = string>(...args: string[]): Record<K, V> {
  const out = execFileSync("npm", ["run", "-s", "admin", "--", ...args, "--json"], {
    encoding: "utf8",
    env: process.env,
  });
  return JSON.parse(out);
}
