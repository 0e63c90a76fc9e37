import { z } from "zod";

// Every environment variable the service reads, in one schema. A bad value stops the start with one
// message naming each bad variable, instead of a NaN batch size or a silent fallback found in production.
// No "server-only" here: scripts/serve.ts and the CLI import this outside React's server condition.

/**
 * A rule a value broke, said as "must be <rule>", and optionally what the value
 * is instead in words that carry none of it ("not a URL at all"). The value
 * itself is never printed: URLs carry passwords, and a secret pasted into the
 * wrong variable would end up in the start-up error and the logs.
 */
class Refused {
  constructor(
    readonly rule: string,
    readonly found?: string,
  ) {}
}

/** An empty variable (`VAR= npm start`) counts as unset, as `process.env.VAR || default` did. */
function variable<T>(read: (value: string | undefined) => T | Refused) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const result = read(raw === "" ? undefined : raw);
      if (!(result instanceof Refused)) return result;
      ctx.addIssue({ code: "custom", message: `must be ${result.rule}${result.found ? `, ${result.found}` : ""}` });
      return z.NEVER;
    });
}

const text = () => variable((value) => value);
const textOr = (fallback: string) => variable((value) => value ?? fallback);

const positiveInteger = (fallback: number) =>
  variable((value) =>
    value === undefined ? fallback : /^[1-9]\d*$/.test(value) ? Number(value) : new Refused("a positive integer"),
  );
const wholeNumber = (fallback: number) =>
  variable((value) =>
    value === undefined ? fallback : /^\d+$/.test(value) ? Number(value) : new Refused("a whole number (0 or more)"),
  );
const positiveDays = (fallback: number) =>
  variable((value) =>
    value === undefined
      ? fallback
      : /^\d+(\.\d+)?$/.test(value) && Number(value) > 0
        ? Number(value)
        : new Refused("a positive number of days"),
  );
const port = () =>
  variable((value) =>
    value === undefined
      ? undefined
      : /^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535
        ? Number(value)
        : new Refused("a port number (1-65535)"),
  );

/** `1` on; unset or `0` off. Anything else is refused rather than read as off: `true` would otherwise do nothing. */
const flag = () =>
  variable((value) =>
    value === undefined || value === "0" ? false : value === "1" ? true : new Refused("1 (on) or 0 (off)"),
  );

function oneOf<const T extends readonly string[]>(values: T) {
  const said = `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
  return variable((value) =>
    value === undefined || values.includes(value) ? (value as T[number] | undefined) : new Refused(said),
  );
}

/** The log levels, least to most verbose; `silent` logs nothing. */
export const LOG_LEVELS = ["silent", "fatal", "error", "warn", "info", "debug", "trace"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function url(protocols: string[]) {
  return variable((value) => {
    if (value === undefined) return undefined;
    const parsed = URL.canParse(value) ? new URL(value) : null;
    if (parsed && protocols.includes(parsed.protocol)) return value;
    // Not even the scheme is said: in `user:password@host` it would be the user.
    return new Refused(
      `a URL (${protocols.map((p) => `${p}//`).join(" or ")})`,
      parsed ? "not a URL of another scheme" : "not a URL at all",
    );
  });
}

export const envSchema = z
  .object({
    // Set by Next.js and scripts/serve.ts; production hides the test mailbox, development pretty-prints the logs.
    NODE_ENV: oneOf(["development", "production", "test"]),
    // Set by Next.js while `next build` prerenders: start-up work (listeners, warnings) is skipped then.
    NEXT_PHASE: text(),
    // Read by scripts/serve.ts: the HTTP port and listening address.
    PORT: port(),
    HOST: text(),
    // The public base of every link the service mails or shows; kept without a trailing slash.
    APP_URL: variable((value) => {
      const base = (value ?? "http://localhost:3000").replace(/\/+$/, "");
      return URL.canParse(base) && /^https?:$/.test(new URL(base).protocol)
        ? base
        : new Refused("an http:// or https:// URL");
    }),
    // The least severe log line written (lib/log/logger.ts): info has one line per API request and workflow step.
    LOG_LEVEL: oneOf(LOG_LEVELS).transform((level) => level ?? "info"),
    // Read by lib/runtime and lib/db before this config exists: the data folder and the database.
    DATA_DIR: text(),
    DATABASE_URL: url(["postgres:", "postgresql:"]),
    // Connections per app process in the database pool.
    DATABASE_POOL_SIZE: positiveInteger(10),
    // Every pooled connection's limits: a statement running longer, or a transaction left idle longer, is ended
    // (the few statements that run long on purpose, such as a dry run's COPY or an export's, lift it for themselves).
    DATABASE_STATEMENT_TIMEOUT_SECONDS: positiveInteger(120),
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_SECONDS: positiveInteger(60),
    // Secrets: given here, or generated into DATA_DIR by openDatabase. Optional because `next build` runs without them.
    AUTH_SECRET: text(),
    CURSOR_SECRET: text(),
    TOKEN_SECRET: text(),
    EMBEDDED_PG_PASSWORD: text(),
    // Set by scripts/serve.ts in its own process: its peer-address header can be believed.
    SERVICE_PEER_IP_HEADER_SET: flag(),
    // Reverse proxies whose X-Forwarded-For is believed (lib/http/client-ip.ts parses, serve.ts refuses a bad entry).
    TRUSTED_PROXIES: text(),
    // An edge header carrying the visitor's country (cf-ipcountry); any other source could be forged.
    TRUSTED_COUNTRY_HEADER: text(),
    // Where mail goes; unset means local, with a warning at a production start.
    MAIL_TRANSPORT: oneOf(["local", "smtp", "resend"]),
    // The sender of the service's own mail (invitations); unset, no-reply at APP_URL's host.
    SERVICE_MAIL_FROM: text(),
    // The SMTP relay and its pool, for MAIL_TRANSPORT=smtp.
    SMTP_URL: url(["smtp:", "smtps:"]),
    SMTP_POOL_SIZE: positiveInteger(5),
    // Optional DKIM signature of every SMTP message (PEM key, `\n` escapes allowed).
    DKIM_DOMAIN: text(),
    DKIM_SELECTOR: textOr("mail"),
    DKIM_PRIVATE_KEY: text(),
    // Resend's API key (MAIL_TRANSPORT=resend) and the signing secret of its delivery webhook.
    RESEND_API_KEY: text(),
    RESEND_WEBHOOK_SECRET: text(),
    // SpamAssassin, run locally to show a campaign's spam score in its preview; nothing there, the preview says how to install it.
    SPAMASSASSIN_PATH: textOr("/usr/bin/spamassassin"),
    // Resolvers for checking sending domains' records; empty means the system's.
    DNS_SERVERS: variable((value) =>
      (value ?? "")
        .split(",")
        .map((server) => server.trim())
        .filter(Boolean),
    ),
    // The SPF include shown in each domain's record; unset, `_spf.` + APP_URL's host.
    SPF_INCLUDE: text(),
    // Bounce handling: the VERP domain, the built-in SMTP listener for it, and a mailbox polled each minute.
    BOUNCE_DOMAIN: text(),
    BOUNCE_SMTP_PORT: port(),
    BOUNCE_SMTP_HOST: text(),
    BOUNCE_IMAP_URL: url(["imap:", "imaps:"]),
    // Campaign throttle: recipients per batch and the pause between batches.
    DISPATCH_BATCH_SIZE: positiveInteger(500),
    DISPATCH_BATCH_PAUSE_MS: wholeNumber(0),
    // Rows an import applies per transaction: the most a crash makes it do again.
    IMPORT_CHUNK_ROWS: positiveInteger(5000),
    // Rows of a file whose repeated addresses a dry run finds in memory (16-32 bytes a row: 64 MiB at
    // the default); the database groups a longer file's rows itself, spilling to disk as it needs.
    IMPORT_HASHED_ROWS: positiveInteger(4_000_000),
    // The uploaded files a workspace's imports may hold at once, in bytes (those not yet deleted after their apply or cancel).
    IMPORT_STORAGE_MAX_BYTES: positiveInteger(5 * 1024 * 1024 * 1024),
    // Embedded executor: workflow runs worked on at once. A run spends most of a step waiting on the
    // database or a mail server, so more runs than cores keep both busy: automation mails due together
    // went out at 48 a second with 8 and 73 with 32 (bench:automations --due at-once, 2,000 people).
    WORKFLOW_WORKERS: positiveInteger(32),
    // Signup form submissions per client address per 10 minutes, across all forms.
    SIGNUP_FORM_SUBMISSIONS_PER_IP: positiveInteger(20),
    // Webhooks to plain http and private addresses: self-hosted internal receivers, and tests.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: flag(),
    // A deployment run for other people (the hosted service): its first-run owner is not made an operator,
    // and members are not told about the installation's settings. Unset: a self-hosted install.
    HOSTED_SERVICE: flag(),
    // The billing ladder's lengths in days (fractions allowed): overdue, read-only, the deletion notice, and between reminders.
    BILLING_OVERDUE_DAYS: positiveDays(7),
    BILLING_READ_ONLY_DAYS: positiveDays(60),
    BILLING_DELETION_NOTICE_DAYS: positiveDays(30),
    BILLING_REMINDER_EVERY_DAYS: positiveDays(7),
    // Stripe as the billing provider: its secret key enables it, the webhook secret verifies its events, a price id per plan.
    STRIPE_SECRET_KEY: text(),
    STRIPE_WEBHOOK_SECRET: text(),
    STRIPE_PRICE_STARTER: text(),
    STRIPE_PRICE_GROWTH: text(),
    STRIPE_PRICE_SCALE: text(),
    // Another endpoint speaking Stripe's API (a local server in tests).
    STRIPE_API_URL: url(["http:", "https:"]),
    // Campaign images in an S3-compatible bucket instead of PostgreSQL: setting the bucket turns it on and
    // requires the key pair. No endpoint means AWS in S3_REGION (virtual-hosted addresses); an endpoint
    // (MinIO, R2, a local server) is addressed path-style. S3_PUBLIC_URL, when the bucket or a CDN in front
    // of it serves objects publicly, is where mails fetch images; unset, the service serves them at /i/.
    S3_BUCKET: text(),
    S3_REGION: textOr("us-east-1"),
    S3_ENDPOINT: url(["http:", "https:"]),
    S3_ACCESS_KEY_ID: text(),
    S3_SECRET_ACCESS_KEY: text(),
    S3_PUBLIC_URL: url(["http:", "https:"]),
    // Retention, in days: finished workflow runs (failed ones are kept three times as long, for a retry),
    // finished webhook deliveries with their attempts, the local mailbox, and applied provider reports.
    RETENTION_WORKFLOW_RUNS_DAYS: positiveDays(30),
    RETENTION_WEBHOOK_DELIVERIES_DAYS: positiveDays(30),
    RETENTION_MAILBOX_DAYS: positiveDays(30),
    RETENTION_PROVIDER_EVENTS_DAYS: positiveDays(90),
    // The activity series' exact-instant rollups, after which a window's ends are counted to the whole minute.
    RETENTION_EXACT_ROLLUPS_DAYS: positiveDays(30),
    // A finished import's counts and refused rows' report; an import left unapplied this long is cancelled.
    RETENTION_IMPORTS_DAYS: positiveDays(30),
    // Any of these hands the workflows to an Inngest server instead of the embedded executor.
    INNGEST_DEV: text(),
    INNGEST_BASE_URL: text(),
    INNGEST_SIGNING_KEY: text(),
  })
  .superRefine((config, ctx) => {
    if (!config.S3_BUCKET) return;
    for (const name of ["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
      if (!config[name]) ctx.addIssue({ code: "custom", path: [name], message: "must be set when S3_BUCKET is" });
    }
  });

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {}

/** The configuration in `source`, or an EnvError naming every bad variable and why. */
export function parseEnv(source: Partial<Record<string, string>>): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")} ${issue.message}`);
  throw new EnvError(`invalid environment:\n${problems.join("\n")}`);
}

let cached: Env | null = null;

/** This process's configuration, parsed from process.env on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/**
 * Forgets the parsed configuration: the next env() reads process.env again. For
 * code that completes the environment after modules have loaded (openDatabase
 * puts the generated secrets there) and for tests that change a variable.
 */
export function reloadEnv(): void {
  cached = null;
}

/** Tests only: the configuration becomes process.env with `vars` over it, until reloadEnv(). */
export function overrideEnvForTests(vars: Partial<Record<string, string>>): void {
  cached = parseEnv({ ...process.env, ...vars });
}

/** A secret the code cannot run without; checked at use, since builds and scripts run without secrets. */
export function requiredSecret(name: "AUTH_SECRET" | "CURSOR_SECRET" | "TOKEN_SECRET"): string {
  const value = env()[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
