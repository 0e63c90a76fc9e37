// Part of `npm run build`: bundles the embeddable signup form's script, prints its size and fails the
// build when it outgrows its budget (it loads on every page of a sender's site).
import { buildSignupFormScript, SIGNUP_FORM_SCRIPT_BUDGET_BYTES } from "@/lib/forms/embed/build-signup-form-script";

const script = await buildSignupFormScript();
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(
  `signup form script: ${kib(script.bytes)}, ${kib(script.gzipBytes)} gzipped (budget ${kib(SIGNUP_FORM_SCRIPT_BUDGET_BYTES)} gzipped)`,
);
if (script.gzipBytes > SIGNUP_FORM_SCRIPT_BUDGET_BYTES) {
  console.error("signup form script is over its budget");
  process.exit(1);
}
