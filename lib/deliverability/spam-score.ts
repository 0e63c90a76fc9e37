import "server-only";

import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { access, constants } from "node:fs/promises";

import type { Clock } from "@/lib/clock";
import { env } from "@/lib/env";
import { logger } from "@/lib/log/logger";
import { composeMessage } from "@/lib/mail/build-message";
import type { OutgoingMessage } from "@/lib/mail/outgoing-message";

import type { SpamRule, SpamScore } from "./spam-score-levels";

export type { SpamRule, SpamScore } from "./spam-score-levels";

/** spamc's own limit (500 KiB): past it a filter passes a message unscored, and SpamAssassin gets slow. */
export const MAX_SCORED_BYTES = 500 * 1024;

/** SpamAssassin processes running at once in this process: each is a perl loading every rule, about a second of CPU. */
const PROCESSES_AT_ONCE = 2;

/**
 * SpamAssassin with the rules the operator's system has (Debian's package ships them; sa-update
 * adds newer ones), run locally:
 * - `--local` turns the network tests off: DNS blocklists, Razor, Pyzor, and the SPF, DKIM and
 *   DMARC lookups, which depend on the sending domain's records and the relay, not on the mail.
 * - Bayes is off: it scores by what this machine's own mail taught it, which says nothing of a
 *   recipient's filter, and it would learn from every preview.
 * - No user preferences are read or created: only the site's rules count.
 * The report is written between two lines carrying a marker of this run's own, so nothing inside
 * a message can pass for a report. It names its message by the index header: SpamAssassin reads
 * an mbox's messages in an order of its own, not the file's.
 */
function argumentsFor(marker: string): string[] {
  return [
    "--local",
    "--test-mode",
    "--nocreate-prefs",
    "--prefspath=/dev/null",
    "--mbox",
    "--cf=use_bayes 0",
    "--cf=report_safe 0",
    "--cf=clear_report_template",
    // The header's value ends in its line break: it comes last.
    `--cf=report ${marker} _SCORE_ _REQD_ _TESTSSCORES(,)_ _HEADER(${INDEX_HEADER})_`,
    "--cf=report _SUMMARY_",
    `--cf=report ${marker}-end`,
  ];
}

/** The configured SpamAssassin, or null when there is none to run. */
async function spamAssassinPath(path = env().SPAMASSASSIN_PATH): Promise<string | null> {
  try {
    await access(path, constants.X_OK);
    return path;
  } catch {
    return null;
  }
}

/** Put first in each message: its place in the list, which its report quotes (SpamAssassin drops X-Spam-* headers it is given). */
const INDEX_HEADER = "X-Score-Index";

/**
 * The messages as an mbox, for one SpamAssassin process to score them all: a separator line
 * before each, then the index header, and a line of the message starting `From ` quoted
 * (`>From `, mboxrd) so that it cannot start another message.
 */
function asMbox(raws: string[]): string {
  return raws
    .map((raw, index) => {
      const message = `${INDEX_HEADER}: ${index}${raw.includes("\r\n") ? "\r\n" : "\n"}${raw}`.replace(
        /^(>*From )/gm,
        ">$1",
      );
      return `From spam-score@localhost Thu Jan  1 00:00:00 1970\n${message}${message.endsWith("\n") ? "" : "\n"}\n`;
    })
    .join("");
}

/**
 * The `_SUMMARY_` table's descriptions by rule name: ` 2.7 RULE_NAME   description`, a long
 * description going on in lines indented past the name.
 */
function descriptions(lines: string[]): Map<string, string> {
  const found = new Map<string, string>();
  let last: string | null = null;
  for (const line of lines) {
    const rule = /^[ -]?\d+(?:\.\d+)?\s+(\S+)\s*(.*)$/.exec(line);
    if (rule) {
      last = rule[1]!;
      found.set(last, rule[2]!.trim());
    } else if (last && /^\s{4,}\S/.test(line)) {
      found.set(last, `${found.get(last)} ${line.trim()}`.trim());
    }
  }
  return found;
}

/** The report of each message in SpamAssassin's output, by the message's index; a message without one has a hole. */
function readReports(output: string, marker: string): SpamScore[] {
  const reports: SpamScore[] = [];
  const lines = output.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const head = lines[i]!.startsWith(`${marker} `)
      ? /^(-?[\d.]+) (-?[\d.]+) (\S*) (\d+)$/.exec(lines[i]!.slice(marker.length + 1).trim())
      : null;
    if (!head) continue;
    const end = lines.indexOf(`${marker}-end`, i);
    const [, score, threshold, tests, index] = head as unknown as [string, string, string, string, string];
    const table = descriptions(lines.slice(i + 1, end === -1 ? undefined : end));
    const rules: SpamRule[] = tests
      .split(",")
      .filter((entry) => entry.includes("="))
      .map((entry) => {
        const [name, score] = entry.split("=") as [string, string];
        return { name, score: Number(score), description: table.get(name) ?? "" };
      })
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    reports[Number(index)] = { available: true, score: Number(score), threshold: Number(threshold), rules };
    if (end !== -1) i = end;
  }
  return reports;
}

let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` once fewer than PROCESSES_AT_ONCE others run: a page reloaded many times starts no crowd of perls. */
async function inProcessSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= PROCESSES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function run(path: string, args: string[], input: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      path,
      args,
      { timeout: timeoutMs, maxBuffer: 4 * input.length + 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    // A process that died before reading all of its input is reported by the callback, not here.
    child.stdin?.on("error", () => {});
    child.stdin?.end(input);
  });
}

export interface ScoreOptions {
  /** The SpamAssassin to run; SPAMASSASSIN_PATH by default. */
  path?: string;
}

/** A run's time limit: the start, which loads every rule, and then each message. Generous: a loaded machine is slow, and a preview does not wait for it. */
const START_MS = 30_000;
const PER_MESSAGE_MS = 10_000;

/**
 * SpamAssassin's opinion of complete RFC 5322 messages (headers and MIME body as they are sent),
 * all scored by one process: it loads its rules once. Not available when SpamAssassin is not
 * installed; a message past MAX_SCORED_BYTES is not scored (too_large); a run that fails or times
 * out leaves its messages `failed`. Never throws: a preview without a score is still a preview.
 */
export async function scoreMessages(raws: string[], options: ScoreOptions = {}): Promise<SpamScore[]> {
  const path = await spamAssassinPath(options.path);
  if (!path) return raws.map(() => ({ available: false, reason: "not_installed" }));
  const scored = raws.filter((raw) => Buffer.byteLength(raw) <= MAX_SCORED_BYTES);
  let reports: SpamScore[] = [];
  if (scored.length > 0) {
    const marker = `spam-score-${randomBytes(12).toString("hex")}`;
    const timeoutMs = START_MS + scored.length * PER_MESSAGE_MS;
    try {
      const output = await inProcessSlot(() => run(path, argumentsFor(marker), asMbox(scored), timeoutMs));
      reports = readReports(output, marker);
    } catch (error) {
      logger().warn({ err: error, path }, "SpamAssassin gave no score");
    }
  }
  let next = 0;
  return raws.map((raw) =>
    Buffer.byteLength(raw) > MAX_SCORED_BYTES
      ? { available: false, reason: "too_large" }
      : (reports[next++] ?? { available: false, reason: "failed" }),
  );
}

/** One message's score (scoreMessages). */
export async function scoreMessage(raw: string, options: ScoreOptions = {}): Promise<SpamScore> {
  const [score] = await scoreMessages([raw], options);
  return score!;
}

/** Scores kept by what was scored: the preview asks again at each visit, and a campaign rarely changes between two. */
const CACHED_SCORES = 200;
const cache = new Map<string, Promise<SpamScore>>();

/**
 * The score of a message as a transport would build it (lib/mail/build-message.ts), kept per
 * message: the same sender, recipient, subject, parts and headers are scored once. The key is
 * what was rendered, not the built bytes, whose MIME boundary and Date differ at each build.
 * Only scores are kept: an installation, or a run that failed, is tried again next time.
 */
export function scoreOutgoingMessage(clock: Clock, message: OutgoingMessage): Promise<SpamScore> {
  const { from, replyTo, to, subject, text, html, headers } = message;
  const key = createHash("sha256")
    .update(JSON.stringify([from, replyTo, to, subject, text, html, headers]))
    .digest("base64url");
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const scoring = scoreMessage(composeMessage(message, clock.now()).raw.toString("utf8"));
  cache.set(key, scoring);
  if (cache.size > CACHED_SCORES) cache.delete(cache.keys().next().value!);
  void scoring.then((score) => {
    if (!score.available && cache.get(key) === scoring) cache.delete(key);
  });
  return scoring;
}
