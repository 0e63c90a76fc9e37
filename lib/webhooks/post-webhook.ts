import http from "node:http";
import https from "node:https";
import ipaddr from "ipaddr.js";

import {
  hostOf,
  isPublicAddress,
  PRIVATE_TARGET_MESSAGE,
  privateTargetsAllowed,
  publicOnlyLookup,
  schemeAllowed,
} from "./target-address";

export const DELIVERY_TIMEOUT_MS = 10_000;
const EXCERPT_BYTES = 1024;

export interface PostResult {
  statusCode: number | null;
  latencyMs: number;
  /** The start of the receiver's answer, for the sender to debug with. */
  responseExcerpt: string | null;
  /** Why no answer came (refused target, timeout, connection error). */
  error: string | null;
}

/** Posts in flight to one endpoint at most: its delivery run posts this many at a time. */
export const CONNECTIONS_PER_ENDPOINT = 16;
const KEPT_AGENTS = 512;
const IDLE_SOCKET_MS = 30_000;

// Connections are kept and reused per endpoint, so a slow endpoint cannot take the sockets of another on the
// same host; a new socket is checked by the lookup when it connects. The least recently used agents are dropped.
const agents = new Map<string, http.Agent>();
function agentFor(endpointId: string, protocol: string): http.Agent {
  const key = `${protocol}${endpointId}`;
  const kept = agents.get(key);
  if (kept) {
    agents.delete(key);
    agents.set(key, kept);
    return kept;
  }
  // An idle kept connection closes after IDLE_SOCKET_MS, so an agent dropped from the cache closes its own once its posts are done.
  const options = { keepAlive: true, maxSockets: CONNECTIONS_PER_ENDPOINT, timeout: IDLE_SOCKET_MS };
  const agent = protocol === "https:" ? new https.Agent(options) : new http.Agent(options);
  agents.set(key, agent);
  if (agents.size > KEPT_AGENTS) agents.delete(agents.keys().next().value!);
  return agent;
}

/**
 * POSTs one delivery. Redirects are not followed (a 3xx is a failed attempt),
 * the whole exchange must finish within 10 s, and unless private targets are
 * allowed the connection may only go to a public address.
 */
export async function postWebhook(
  endpointId: string,
  target: string,
  body: string,
  headers: Record<string, string>,
): Promise<PostResult> {
  const result = await postOnce(endpointId, target, body, headers);
  // A kept connection the receiver closed just as it was reused: the request never reached it, so send it again on a new one.
  return result.staleConnection ? await postOnce(endpointId, target, body, headers) : result;
}

function postOnce(
  endpointId: string,
  target: string,
  body: string,
  headers: Record<string, string>,
): Promise<PostResult & { staleConnection?: boolean }> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(target);
  const guarded = !privateTargetsAllowed();
  const host = hostOf(url);
  // Checked again here: an http endpoint registered while the operator allowed it stays refused once that is off.
  if (!schemeAllowed(url))
    return Promise.resolve({
      statusCode: null,
      latencyMs: 0,
      responseExcerpt: null,
      error: "refused: url must use https",
    });
  if (guarded && ipaddr.isValid(host) && !isPublicAddress(host)) {
    return Promise.resolve({
      statusCode: null,
      latencyMs: 0,
      responseExcerpt: null,
      error: `refused: ${PRIVATE_TARGET_MESSAGE}`,
    });
  }
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((settle) => {
    let settled = false;
    const resolve = (result: PostResult & { staleConnection?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle(result);
    };
    const request = transport.request(url, {
      method: "POST",
      agent: agentFor(endpointId, url.protocol),
      headers: { ...headers, "content-length": Buffer.byteLength(body) },
      ...(guarded ? { lookup: publicOnlyLookup as never } : {}),
    });
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)),
      DELIVERY_TIMEOUT_MS,
    );
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < EXCERPT_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.on("end", () => {
        // PostgreSQL text cannot hold NUL: a binary answer keeps the rest.
        const excerpt = Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8").replaceAll("\0", "");
        resolve({
          statusCode: response.statusCode ?? null,
          latencyMs: elapsed(),
          responseExcerpt: excerpt || null,
          error: null,
        });
      });
      response.on("error", (error) =>
        resolve({
          statusCode: response.statusCode ?? null,
          latencyMs: elapsed(),
          responseExcerpt: null,
          error: error.message,
        }),
      );
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      const refused = error.code === "ETARGETREFUSED";
      const staleConnection = request.reusedSocket && error.code === "ECONNRESET";
      resolve({
        statusCode: null,
        latencyMs: elapsed(),
        responseExcerpt: null,
        error: refused ? `refused: ${error.message}` : error.message,
        staleConnection,
      });
    });
    request.end(body);
  });
}
