import { afterEach, describe, expect, it, vi } from "vitest";

import { collectGarbageAfter } from "./collect-garbage";

const withGc = globalThis as { gc?: () => void };
const original = withGc.gc;

afterEach(() => {
  withGc.gc = original;
});

describe("a full collection after a large file's upload or dry run", () => {
  it("is asked for after a file of 16 MiB or more, and not after a smaller one", () => {
    const gc = vi.fn();
    withGc.gc = gc;
    collectGarbageAfter(16 * 1024 * 1024 - 1);
    expect(gc).not.toHaveBeenCalled();
    collectGarbageAfter(16 * 1024 * 1024);
    expect(gc).toHaveBeenCalledTimes(1);
  });

  it("does nothing where the process was started without --expose-gc", () => {
    withGc.gc = undefined;
    expect(() => collectGarbageAfter(64 * 1024 * 1024)).not.toThrow();
  });
});
