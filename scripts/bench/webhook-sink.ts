// The webhook benchmark's receiver: answers 204 at once and notes when each delivery arrived.
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";

const arrivals: [string, number][] = [];
const server = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    arrivals.push([`${request.url}|${request.headers["x-service-event-id"]}`, Date.now()]);
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("ready\n"));
process.on("SIGTERM", () => {
  writeFileSync(process.env.OUT!, JSON.stringify(arrivals));
  process.stdout.write(`received ${arrivals.length}\n`);
  process.exit(0);
});
