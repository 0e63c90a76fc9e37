// The dispatch benchmark's SMTP peer, in a process of its own: the tests' sink, counting what it is sent.
import { startSmtpSink } from "@/lib/testing/smtp-sink";

const sink = await startSmtpSink(Number(process.env.PORT));
process.stdout.write("ready\n");
process.on("SIGTERM", () => {
  const received = [...sink.perRecipient.values()].reduce((sum, n) => sum + n, 0);
  process.stdout.write(`received ${received}\n`);
  void sink.close().then(() => process.exit(0));
});
