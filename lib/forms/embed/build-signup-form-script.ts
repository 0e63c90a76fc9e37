import "server-only";

import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** The script's budget, gzipped: it loads on every page of the sender's site. */
export const SIGNUP_FORM_SCRIPT_BUDGET_BYTES = 10 * 1024;

export interface SignupFormScript {
  code: string;
  bytes: number;
  gzipBytes: number;
}

/** Bundles and minifies the widget from its TypeScript source (esbuild, no framework, ES2018 browsers). */
export async function buildSignupFormScript(): Promise<SignupFormScript> {
  const result = await build({
    entryPoints: [path.join(process.cwd(), "lib/forms/embed/signup-form-widget.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2018",
    legalComments: "none",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.text;
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).byteLength };
}
