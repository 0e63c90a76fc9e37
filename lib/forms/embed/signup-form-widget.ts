// The embeddable signup form, served as /embed/signup-form.js. It renders each
// <div data-signup-form="fm_…"> in a shadow root (the host page's CSS cannot
// reach in, and the form's cannot leak out), posts JSON to the service and
// shows the answer in place. A plain HTML form with the challenge on gets the
// proof of work solved before it posts. No framework: the budget is 10 KB gzipped.
import type { PublicSignupForm } from "../public-signup-form";
import { formCss } from "./form-css";
import { escapeHtml, fieldId, formMarkup } from "./form-markup";
import { solveChallenge, type FormChallenge } from "./solve-challenge";

const SCOPE = "sf";
const script = document.currentScript as HTMLScriptElement | null;
const serviceOrigin = script?.src ? new URL(script.src).origin : location.origin;

interface Answer {
  data?: unknown;
  error?: { code: string; message: string; param?: string };
}

const OFFLINE = "The form could not reach the server. Check your connection and try again.";

async function call(url: string, init?: RequestInit): Promise<{ ok: boolean; body: Answer }> {
  try {
    const response = await fetch(url, init);
    return { ok: response.ok, body: (await response.json()) as Answer };
  } catch {
    return { ok: false, body: { error: { code: "offline", message: OFFLINE } } };
  }
}

function render(root: ShadowRoot, html: string): void {
  root.innerHTML = `<style>:host{all:initial!important;display:block!important}${formCss(`.${SCOPE}`)}</style>${html}`;
}

function notice(message: string, role: "status" | "alert" = "alert"): string {
  return `<div class="${SCOPE} sf-light sf-rounded"><p class="sf-status" role="${role}">${escapeHtml(message)}</p></div>`;
}

async function solvedChallenge(url: string): Promise<string> {
  const { ok, body } = await call(url);
  if (!ok) throw new Error("no challenge");
  return solveChallenge(body as FormChallenge);
}

function valuesOf(element: HTMLFormElement): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  const topics: string[] = [];
  for (const [name, value] of new FormData(element)) {
    if (typeof value !== "string") continue;
    if (name === "topic_ids") topics.push(value);
    else values[name] = value;
  }
  if (element.querySelector('[name="topic_ids"]')) values.topic_ids = topics;
  return values;
}

/** The visitor's own time zone in the form's hidden field: campaigns sent at a local time reach them at that hour. */
function fillTimeZone(scope: ParentNode): void {
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
  } catch {
    // A browser without time zone data: the contact gets the workspace's.
  }
  scope.querySelectorAll<HTMLInputElement>('input[type="hidden"][name="time_zone"]').forEach((input) => {
    if (!input.value) input.value = zone;
  });
}

function bind(root: ShadowRoot, form: PublicSignupForm): void {
  render(root, formMarkup(form, SCOPE));
  fillTimeZone(root);
  const element = root.querySelector("form")!;
  const status = root.querySelector(".sf-status")!;
  const button = element.querySelector("button")!;
  element.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const place of root.querySelectorAll(".sf-error")) place.textContent = "";
    for (const input of root.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
    status.textContent = "";
    button.disabled = true;
    const values = valuesOf(element);
    let answer: { ok: boolean; body: Answer };
    try {
      if (form.challengeUrl) values.altcha = await solvedChallenge(form.challengeUrl);
      answer = await call(form.action, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(values),
      });
    } catch {
      answer = { ok: false, body: { error: { code: "offline", message: OFFLINE } } };
    }
    button.disabled = false;
    if (answer.ok) {
      const { status: outcome } = answer.body.data as { status: string };
      render(root, formMarkup(form, SCOPE, { done: outcome === "confirmation_sent" ? form.checkInbox : form.success }));
      root.querySelector<HTMLElement>(".sf-done")?.focus();
      return;
    }
    const problem = answer.body.error ?? { code: "unknown", message: OFFLINE };
    const place = problem.param ? root.getElementById(`${fieldId(form.id, problem.param)}-error`) : null;
    if (!place) {
      status.textContent = problem.message;
      return;
    }
    place.textContent = problem.message;
    const input = element.querySelector<HTMLElement>(`[name="${problem.param}"]`);
    input?.setAttribute("aria-invalid", "true");
    input?.focus();
  });
}

function mount(host: Element): void {
  if (host.shadowRoot) return;
  const root = host.attachShadow({ mode: "open" });
  render(root, notice("Loading the form…", "status"));
  const id = host.getAttribute("data-signup-form") ?? "";
  void call(`${serviceOrigin}/f/${encodeURIComponent(id)}/config`).then(({ ok, body }) => {
    if (ok) bind(root, body.data as PublicSignupForm);
    else
      render(
        root,
        notice(
          body.error?.code === "origin_not_allowed"
            ? "This signup form cannot be used on this website."
            : (body.error?.message ?? OFFLINE),
        ),
      );
  });
}

/** A plain HTML form with the challenge on: solve it, then let the form post as it would have. */
function enhance(element: HTMLFormElement): void {
  if (element.dataset.sfBound) return;
  element.dataset.sfBound = "1";
  element.addEventListener("submit", async (event) => {
    const field = element.querySelector<HTMLInputElement>('input[name="altcha"]');
    if (!field || field.value) return;
    event.preventDefault();
    field.value = await solvedChallenge(element.dataset.challengeUrl!);
    element.submit();
  });
}

function start(): void {
  document.querySelectorAll("[data-signup-form]").forEach(mount);
  document.querySelectorAll<HTMLFormElement>("form[data-challenge-url]").forEach(enhance);
  fillTimeZone(document);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
