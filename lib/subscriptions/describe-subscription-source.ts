import type { SubscriptionOrigin } from "@/lib/db/schema/subscriptions";

const SOURCES: Record<string, string> = {
  double_opt_in: "Confirmed by email (double opt-in)",
  api: "API (consent asserted)",
  import: "Import (consent asserted)",
  dashboard: "Dashboard (consent asserted)",
};

/** Where a subscription came from, in words: the signup form, the API key or the import row behind it. */
export function describeOrigin(origin: SubscriptionOrigin): string {
  switch (origin.kind) {
    case "signup_form":
      return `Signup form “${origin.form_name}” (${origin.form_id})`;
    case "api_key":
      return origin.key_name ? `API key ${origin.key_name} (${origin.key_id})` : `API key ${origin.key_id}`;
    case "member":
      return `Added in the dashboard by ${origin.member ?? "a former member"}, consent asserted`;
    case "import": {
      const by = origin.asserted_by
        ? ` by ${origin.asserted_by}`
        : origin.asserted_by_user_id
          ? " by a former member"
          : "";
      const when = origin.asserted_at ? ` on ${origin.asserted_at.slice(0, 10)}` : "";
      return `Import ${origin.file_name}, row ${origin.row}, consent asserted${by}${when}`;
    }
  }
}

/**
 * The Source of a subscription on the contact's page: how it became
 * subscribed and where from. Subscriptions made before the origin was kept
 * show their source alone.
 */
export function describeSubscriptionSource(source: string | null, origin: SubscriptionOrigin | null): string {
  if (!origin) return source ? (SOURCES[source] ?? source) : "—";
  const where = describeOrigin(origin);
  if (source === "double_opt_in") return `${SOURCES.double_opt_in} via ${where}`;
  return where;
}
