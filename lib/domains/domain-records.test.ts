import { describe, expect, it } from "vitest";

import { ownRecords, spfInclude } from "./domain-records";

const domain = { hostname: "mail.acme.test", dkimSelector: "ms2026", dkimPublicKey: "AAAA" };

describe("the SPF record a domain is asked to publish", () => {
  it("the include is SPF_INCLUDE when set, else _spf. and APP_URL's host name", () => {
    expect(spfInclude({ SPF_INCLUDE: "spf.relay.example", APP_URL: "http://127.0.0.1:3000" })).toBe(
      "spf.relay.example",
    );
    expect(spfInclude({ SPF_INCLUDE: undefined, APP_URL: "https://mail.service.example" })).toBe(
      "_spf.mail.service.example",
    );
  });

  it("the include is never built from an IP address or a local name: without SPF_INCLUDE there is none", () => {
    for (const APP_URL of [
      "http://127.0.0.1:3300",
      "http://10.1.2.3",
      "http://[::1]:3000",
      "http://localhost:3000",
      "http://app.localhost",
      "http://devbox:3000",
    ]) {
      expect([APP_URL, spfInclude({ SPF_INCLUDE: undefined, APP_URL })]).toEqual([APP_URL, null]);
    }
  });

  it("without an include no SPF record is asked for: DKIM and DMARC only", () => {
    expect(ownRecords(domain, null).map((record) => record.kind)).toEqual(["dkim", "dmarc"]);
    expect(ownRecords(domain, "spf.relay.example")[0]).toMatchObject({
      kind: "spf",
      value: "v=spf1 include:spf.relay.example ~all",
    });
  });
});
