"use client";

import { useQuery } from "@tanstack/react-query";

import type { ContactCount, ContactCountQuery } from "@/lib/contacts/contact-list-query";
import { dashboardKeys, dashboardReads } from "@/lib/dashboard/dashboard-reads";

const people = (n: number) => `${n.toLocaleString("en")} ${n === 1 ? "contact" : "contacts"}`;

/** "1,234 contacts", "More than 100,000 contacts", or that it is still counting. */
export function ContactsTotalText({ count }: { count: ContactCount | undefined }) {
  return (
    <p aria-live="polite" className="text-sm text-muted-foreground" data-testid="contacts-total">
      {!count ? (
        "Counting…"
      ) : (
        <span className="font-medium text-foreground">
          {count.more ? `More than ${people(count.count)}` : people(count.count)}
        </span>
      )}
    </p>
  );
}

/** The total for a search or filter chosen after the page loaded, read apart from the rows so they never wait for it. */
export function ContactsTotalRead({ workspaceId, query }: { workspaceId: string; query: ContactCountQuery }) {
  const result = useQuery({
    queryKey: dashboardKeys.contactCount(workspaceId, query),
    queryFn: ({ signal }) => dashboardReads.contactCount(workspaceId, query, signal),
    staleTime: 30_000,
  });
  return <ContactsTotalText count={result.data} />;
}
