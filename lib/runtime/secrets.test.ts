import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { loadSecrets, SECRET_NAMES } from "./secrets";

describe("secrets", () => {
  it("are generated on first start into the data directory and stay the same afterwards", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "secrets-"));
    const first = loadSecrets(dir, {});
    const second = loadSecrets(dir, {});
    expect(second).toEqual(first);
    for (const name of SECRET_NAMES) expect(first[name].length).toBeGreaterThanOrEqual(40);
    expect(new Set(Object.values(first)).size).toBe(SECRET_NAMES.length);
    expect(statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
  });

  it("given by environment, a secret wins over the stored one", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "secrets-"));
    const stored = loadSecrets(dir, {});
    const fromEnv = loadSecrets(dir, { AUTH_SECRET: "from-env" });
    expect(fromEnv.AUTH_SECRET).toBe("from-env");
    expect(fromEnv.CURSOR_SECRET).toBe(stored.CURSOR_SECRET);
    expect(JSON.parse(readFileSync(path.join(dir, "secrets.json"), "utf8")).AUTH_SECRET).toBe(stored.AUTH_SECRET);
  });

  it("secrets.json is readable by its owner only after every write, even when it was broader before", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "secrets-"));
    const file = path.join(dir, "secrets.json");
    // An older file, restored from a backup with a broad mode and missing a secret added since.
    writeFileSync(file, JSON.stringify({ AUTH_SECRET: "kept" }));
    chmodSync(file, 0o644);
    const secrets = loadSecrets(dir, {});
    expect(secrets.AUTH_SECRET).toBe("kept");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
