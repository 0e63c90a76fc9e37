import { createSocket } from "node:dgram";
import type { AddressInfo } from "node:net";
import * as packet from "dns-packet";

/** One record the test publishes: TXT values as their strings (several make a multi-string record). */
export type ZoneRecord =
  | { type: "TXT"; data: string[] }
  | { type: "MX"; exchange: string; priority: number }
  | { type: "CNAME"; target: string };

/**
 * A real DNS server on loopback (UDP) answering from a zone the test edits
 * as it goes: publish, change or remove records between lookups. Unknown
 * names answer NXDOMAIN. Wire format by dns-packet.
 */
export async function startDnsServer(port = 0) {
  const zone = new Map<string, ZoneRecord[]>();
  const socket = createSocket("udp4");
  socket.on("message", (message, remote) => {
    const query = packet.decode(message);
    const question = query.questions?.[0];
    const records = question ? (zone.get(question.name.toLowerCase()) ?? []) : [];
    const answers = records
      .filter((record) => record.type === question!.type)
      .map((record) => {
        const base = { name: question!.name, ttl: 60, class: "IN" as const };
        // A TXT string holds at most 255 bytes: a longer value goes out as several, as DNS hosts do.
        if (record.type === "TXT")
          return {
            ...base,
            type: "TXT" as const,
            data: record.data.flatMap((text) => text.match(/[\s\S]{1,255}/g) ?? [""]),
          };
        if (record.type === "MX")
          return { ...base, type: "MX" as const, data: { preference: record.priority, exchange: record.exchange } };
        return { ...base, type: "CNAME" as const, data: record.target };
      });
    const response = packet.encode({
      type: "response",
      id: query.id,
      flags: packet.AUTHORITATIVE_ANSWER | (question && !zone.has(question.name.toLowerCase()) ? 3 : 0), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(port, "127.0.0.1", resolve));
  const address = socket.address() as AddressInfo;
  return {
    server: `127.0.0.1:${address.port}`,
    port: address.port,
    set(name: string, records: ZoneRecord[]) {
      zone.set(name.toLowerCase(), records);
    },
    remove(name: string) {
      zone.delete(name.toLowerCase());
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
