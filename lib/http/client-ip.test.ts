import { describe, expect, it } from "vitest";

import { parseEnv } from "@/lib/env";

import { clientIpFromHeaders, parseTrustedProxies, PEER_IP_HEADER, PEER_IP_HEADER_SET } from "./client-ip";

const served = (trustedProxies?: string) => parseEnv({ [PEER_IP_HEADER_SET]: "1", TRUSTED_PROXIES: trustedProxies });
const request = (peer: string, forwardedFor?: string) => ({ [PEER_IP_HEADER]: peer, "x-forwarded-for": forwardedFor });

describe("client IP", () => {
  it("without TRUSTED_PROXIES a spoofed X-Forwarded-For is ignored: the peer is the client", () => {
    expect(clientIpFromHeaders(request("198.51.100.20", "203.0.113.9"), served())).toBe("198.51.100.20");
    const headers = new Headers({ [PEER_IP_HEADER]: "::ffff:198.51.100.20", "x-forwarded-for": "203.0.113.9" });
    expect(clientIpFromHeaders(headers, served())).toBe("198.51.100.20");
  });

  it("a peer that is a trusted proxy vouches for the address it forwarded", () => {
    expect(clientIpFromHeaders(request("10.0.0.5", "203.0.113.9"), served("10.0.0.0/8,127.0.0.1"))).toBe("203.0.113.9");
    expect(clientIpFromHeaders(request("::1", "2001:DB8::1"), served("::1"))).toBe("2001:db8::1");
  });

  it("a chain with a spoofed left-most entry yields the right-most untrusted one", () => {
    const headers = request("10.0.0.5", "1.2.3.4, 203.0.113.9, 10.0.0.7");
    expect(clientIpFromHeaders(headers, served("10.0.0.0/8"))).toBe("203.0.113.9");
  });

  it("when every hop is trusted the furthest one is the answer", () => {
    expect(clientIpFromHeaders(request("127.0.0.1", "10.0.0.7"), served("10.0.0.0/8,127.0.0.1"))).toBe("10.0.0.7");
    expect(clientIpFromHeaders(request("127.0.0.1"), served("127.0.0.1"))).toBe("127.0.0.1");
  });

  it("is null when unknown: no peer header, a malformed entry where the client should be, or not served by scripts/serve.ts", () => {
    expect(clientIpFromHeaders({ "x-forwarded-for": "203.0.113.9" }, served())).toBeNull();
    expect(clientIpFromHeaders(request("10.0.0.5", "203.0.113.9, not-an-ip"), served("10.0.0.0/8"))).toBeNull();
    // Plain `next start`: nothing overwrites the peer header, so a client could have written it.
    expect(clientIpFromHeaders(request("198.51.100.20"), parseEnv({ TRUSTED_PROXIES: undefined }))).toBeNull();
  });

  it("TRUSTED_PROXIES takes addresses and CIDR ranges and refuses anything else", () => {
    expect(parseTrustedProxies(" 10.0.0.0/8 , 127.0.0.1,fd00::/8 ")).toHaveLength(3);
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(() => parseTrustedProxies("10.0.0.0/33")).toThrow(/10\.0\.0\.0\/33/);
    expect(() => parseTrustedProxies("proxy.internal")).toThrow(/TRUSTED_PROXIES/);
  });
});
