import "server-only";

/**
 * RFC 8058 §3.1: the one-click POST carries `List-Unsubscribe=One-Click`,
 * form-urlencoded or multipart/form-data. Works on bytes already read under a
 * cap, so a multipart body is parsed from memory, never from the request stream.
 */
export async function isOneClickBody(bytes: Uint8Array<ArrayBuffer>, contentType: string | null): Promise<boolean> {
  if (contentType && /^multipart\/form-data\s*;/i.test(contentType)) {
    try {
      const form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
      return form.has("List-Unsubscribe");
    } catch {
      return false; // malformed multipart (e.g. a wrong boundary) is no one-click request
    }
  }
  return new URLSearchParams(new TextDecoder().decode(bytes)).has("List-Unsubscribe");
}
