// The dispatch benchmark's SMTP peer, in a process of its own: the tests' sink, counting what it is sent.
// REFUSE_DOMAIN: every recipient at that domain is answered 421, as a provider that throttles does.
import { startSmtpSink } from "@/lib/testing/smtp-sink";

const refused = process.env.REFUSE_DOMAIN ? `@${process.env.REFUSE_DOMAIN}` : null;
const sink = await startSmtpSink(Number(process.env.PORT), (address) =>
  refused && address.endsWith(refused) ? { code: 421, message: "4.7.500 Server busy. Please try again later" } : null,
);
process.stdout.write("ready\n");
process.on("SIGTERM", () => {
  const received = [...sink.perRecipient.values()].reduce((sum, n) => sum + n, 0);
  process.stdout.write(`received ${received}\n`);
  void sink.close().then(() => process.exit(0));
});
