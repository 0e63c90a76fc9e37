import { oneClickUnsubscribeUrl, type UnsubscribeTarget } from "./links";

interface Brand {
  id: string;
  name: string;
  legalName: string;
  postalAddress: string;
  senderEmail: string;
}

/**
 * Every topic mail carries these: RFC 8058 one-click unsubscribe (a POST to
 * the List-Unsubscribe URI unsubscribes from the topic) and a List-Id naming
 * the topic. Without them nothing is sent.
 */
export function listHeaders(target: UnsubscribeTarget, brand: Brand): Record<string, string> {
  const domain = brand.senderEmail.split("@")[1] ?? "localhost";
  return {
    "List-Unsubscribe": `<${oneClickUnsubscribeUrl(target)}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    "List-Id": `<${target.topicId.replace(/_/g, "-")}.${domain}>`,
  };
}
