import { afterEach, describe, expect, it } from "vitest";

import { env, EnvError, overrideEnvForTests, parseEnv, reloadEnv, requiredSecret } from "./env";

afterEach(() => reloadEnv());

describe("environment configuration", () => {
  it("a bad variable is refused with a message naming it and the rule", () => {
    expect(() => parseEnv({ DISPATCH_BATCH_SIZE: "abc" })).toThrow(EnvError);
    expect(() => parseEnv({ DISPATCH_BATCH_SIZE: "abc" })).toThrow("DISPATCH_BATCH_SIZE must be a positive integer");
    expect(() => parseEnv({ DISPATCH_BATCH_PAUSE_MS: "-5" })).toThrow(
      "DISPATCH_BATCH_PAUSE_MS must be a whole number (0 or more)",
    );
    expect(() => parseEnv({ MAIL_TRANSPORT: "sendgrid" })).toThrow("MAIL_TRANSPORT must be local, smtp or resend");
    expect(() => parseEnv({ BOUNCE_SMTP_PORT: "70000" })).toThrow("BOUNCE_SMTP_PORT must be a port number (1-65535)");
    expect(() => parseEnv({ APP_URL: "example.com" })).toThrow("APP_URL must be an http:// or https:// URL");
    expect(() => parseEnv({ BOUNCE_IMAP_URL: "https://mail.example" })).toThrow(
      "BOUNCE_IMAP_URL must be a URL (imap:// or imaps://)",
    );
    expect(() => parseEnv({ LOG_LEVEL: "verbose" })).toThrow(
      "LOG_LEVEL must be silent, fatal, error, warn, info, debug or trace",
    );
  });

  it("a refused value is never printed: a URL's password, or a secret set in the wrong variable, stays out of the message", () => {
    let message = "";
    try {
      parseEnv({
        DATABASE_URL: "mysql://app:db-pass-1@db.example/app",
        BOUNCE_IMAP_URL: "https://bounces:imap-pass-2@mail.example/INBOX",
        SMTP_URL: "smtp//relay:smtp-pass-3@relay.example",
        STRIPE_API_URL: "stripe:sk_live_pass-4",
        DISPATCH_BATCH_SIZE: "pass-5",
        S3_ENDPOINT: "admin:pass-7@minio.local",
        MAIL_TRANSPORT: "pass-6",
      });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const name of [
      "DATABASE_URL",
      "BOUNCE_IMAP_URL",
      "SMTP_URL",
      "STRIPE_API_URL",
      "S3_ENDPOINT",
      "DISPATCH_BATCH_SIZE",
      "MAIL_TRANSPORT",
    ])
      expect(message).toContain(`  ${name} must be`);
    expect(message).not.toMatch(/pass-\d|admin/);
    expect(message).toContain("DATABASE_URL must be a URL (postgres:// or postgresql://), not a URL of another scheme");
    expect(message).toContain("SMTP_URL must be a URL (smtp:// or smtps://), not a URL at all");
  });

  it("every bad variable is named at once, not only the first", () => {
    let message = "";
    try {
      parseEnv({ IMPORT_CHUNK_ROWS: "0", WORKFLOW_WORKERS: "8.5", NODE_ENV: "staging" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("IMPORT_CHUNK_ROWS must be a positive integer");
    expect(message).toContain("WORKFLOW_WORKERS must be a positive integer");
    expect(message).toContain("NODE_ENV must be development, production or test");
  });

  it("defaults apply to unset variables, the same as before the schema", () => {
    const config = parseEnv({});
    expect(config).toMatchObject({
      APP_URL: "http://localhost:3000",
      DATABASE_POOL_SIZE: 10,
      SMTP_POOL_SIZE: 5,
      DKIM_SELECTOR: "mail",
      DISPATCH_BATCH_SIZE: 500,
      DISPATCH_BATCH_PAUSE_MS: 0,
      IMPORT_CHUNK_ROWS: 5000,
      IMPORT_HASHED_ROWS: 4_000_000,
      WORKFLOW_WORKERS: 32,
      SIGNUP_FORM_SUBMISSIONS_PER_IP: 20,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
      SERVICE_PEER_IP_HEADER_SET: false,
      DNS_SERVERS: [],
      LOG_LEVEL: "info",
    });
    expect(config.MAIL_TRANSPORT).toBeUndefined();
    expect(config.TOKEN_SECRET).toBeUndefined();
  });

  it("an empty variable counts as unset", () => {
    const config = parseEnv({ DISPATCH_BATCH_SIZE: "", MAIL_TRANSPORT: "", APP_URL: "", TRUSTED_COUNTRY_HEADER: "" });
    expect(config.DISPATCH_BATCH_SIZE).toBe(500);
    expect(config.MAIL_TRANSPORT).toBeUndefined();
    expect(config.APP_URL).toBe("http://localhost:3000");
    expect(config.TRUSTED_COUNTRY_HEADER).toBeUndefined();
  });

  it("numbers, flags and lists are read into their types", () => {
    const config = parseEnv({
      DISPATCH_BATCH_SIZE: "2",
      DISPATCH_BATCH_PAUSE_MS: "0",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
      DNS_SERVERS: " 1.1.1.1, ,127.0.0.1:5353 ",
    });
    expect(config).toMatchObject({
      DISPATCH_BATCH_SIZE: 2,
      DISPATCH_BATCH_PAUSE_MS: 0,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
      DNS_SERVERS: ["1.1.1.1", "127.0.0.1:5353"],
    });
    expect(parseEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "0" }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
  });

  it("a flag takes 1 or 0 only: `true` is refused rather than silently read as off", () => {
    expect(() => parseEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })).toThrow(
      "WEBHOOK_ALLOW_PRIVATE_TARGETS must be 1 (on) or 0 (off)",
    );
  });

  it("APP_URL is kept without its trailing slashes", () => {
    expect(parseEnv({ APP_URL: "https://mail.example.com//" }).APP_URL).toBe("https://mail.example.com");
  });

  it("env() parses process.env once; reloadEnv() reads it again; an override lays values over it until then", () => {
    const before = env();
    expect(env()).toBe(before);
    overrideEnvForTests({ DISPATCH_BATCH_SIZE: "7" });
    expect(env().DISPATCH_BATCH_SIZE).toBe(7);
    expect(env().TOKEN_SECRET).toBe(before.TOKEN_SECRET);
    reloadEnv();
    expect(env().DISPATCH_BATCH_SIZE).toBe(before.DISPATCH_BATCH_SIZE);
    expect(() => overrideEnvForTests({ DISPATCH_BATCH_SIZE: "many" })).toThrow(
      "DISPATCH_BATCH_SIZE must be a positive integer",
    );
  });

  it("a secret the code needs is refused by name when missing, at use", () => {
    overrideEnvForTests({ CURSOR_SECRET: "" });
    expect(() => requiredSecret("CURSOR_SECRET")).toThrow("CURSOR_SECRET is not set");
    reloadEnv();
    expect(requiredSecret("CURSOR_SECRET")).toBe(process.env.CURSOR_SECRET);
  });
});
