import { appUrl } from "@/lib/runtime/app-url";

/** The form's hosted page; `done` shows its thank-you message, `error` a signed problem next to its field. */
export function hostedFormUrl(formId: string, state: { done?: string; error?: string } = {}): string {
  const url = new URL(`${appUrl()}/f/${formId}`);
  for (const [name, value] of Object.entries(state)) if (value) url.searchParams.set(name, value);
  return url.toString();
}
