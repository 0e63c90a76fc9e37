import { afterEach, describe, expect, it } from "vitest";
import { env, EnvError, overrideEnvForTests, parseEnv, reloadEnv, requiredSecret } from "./env";

afterEach(() => reloadEnv());

describe("environment configuration", () => {
  it("a bad variable is refused with a message naming it, the rule and the value", () => {
    expect(() => parseEnv({ DISPATCH_BATCH_SIZE: "abc" })).toThrow(EnvError);
    expect(() => parseEnv({ DISPATCH_BATCH_SIZE: "abc" })).toThrow('DISPATCH_BATCH_SIZE must be a positive integer, got "abc"');
    expect(() => parseEnv({ DISPATCH_BATCH_PAUSE_MS: "-5" })).toThrow('DISPATCH_BATCH_PAUSE_MS must be a whole number (0 or more), got "-5"');
    expect(() => parseEnv({ MAIL_TRANSPORT: "sendgrid" })).toThrow('MAIL_TRANSPORT must be local, smtp or resend, got "sendgrid"');
    expect(() => parseEnv({ BOUNCE_SMTP_PORT: "70000" })).toThrow('BOUNCE_SMTP_PORT must be a port number (1-65535), got "70000"');
    expect(() => parseEnv({ APP_URL: "example.com" })).toThrow('APP_URL must be an http:// or https:// URL, got "example.com"');
    expect(() => parseEnv({ BOUNCE_IMAP_URL: "https://mail.example" })).toThrow("BOUNCE_IMAP_URL must be a URL (imap:// or imaps://)");
    expect(() => parseEnv({ LOG_LEVEL: "verbose" })).toThrow('LOG_LEVEL must be silent, fatal, error, warn, info, debug or trace, got "verbose"');
  });

  it("every bad variable is named at once, not only the first", () => {
    let message = "";
    try {
      parseEnv({ IMPORT_CHUNK_ROWS: "0", WORKFLOW_WORKERS: "8.5", NODE_ENV: "staging" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('IMPORT_CHUNK_ROWS must be a positive integer, got "0"');
    expect(message).toContain('WORKFLOW_WORKERS must be a positive integer, got "8.5"');
    expect(message).toContain('NODE_ENV must be development, production or test, got "staging"');
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
      WORKFLOW_WORKERS: 8,
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
    const config = parseEnv({ DISPATCH_BATCH_SIZE: "2", DISPATCH_BATCH_PAUSE_MS: "0", WEBHOOK_ALLOW_PRIVATE_TARGETS: "1", DNS_SERVERS: " 1.1.1.1, ,127.0.0.1:5353 " });
    expect(config).toMatchObject({ DISPATCH_BATCH_SIZE: 2, DISPATCH_BATCH_PAUSE_MS: 0, WEBHOOK_ALLOW_PRIVATE_TARGETS: true, DNS_SERVERS: ["1.1.1.1", "127.0.0.1:5353"] });
    expect(parseEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "0" }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
  });

  it("a flag takes 1 or 0 only: `true` is refused rather than silently read as off", () => {
    expect(() => parseEnv({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })).toThrow('WEBHOOK_ALLOW_PRIVATE_TARGETS must be 1 (on) or 0 (off), got "true"');
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
    expect(() => overrideEnvForTests({ DISPATCH_BATCH_SIZE: "many" })).toThrow("DISPATCH_BATCH_SIZE must be a positive integer");
  });

  it("a secret the code needs is refused by name when missing, at use", () => {
    overrideEnvForTests({ CURSOR_SECRET: "" });
    expect(() => requiredSecret("CURSOR_SECRET")).toThrow("CURSOR_SECRET is not set");
    reloadEnv();
    expect(requiredSecret("CURSOR_SECRET")).toBe(process.env.CURSOR_SECRET);
  });
});
