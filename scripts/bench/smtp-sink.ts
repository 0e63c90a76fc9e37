// The dispatch benchmark's SMTP peer: accepts every message and throws it away.
import { SMTPServer } from "smtp-server";

let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData(stream, _session, callback) {
    stream.on("end", () => {
      received++;
      callback();
    });
    stream.resume();
  },
});
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => {
  process.stdout.write(`received ${received}\n`);
  server.close(() => process.exit(0));
});
