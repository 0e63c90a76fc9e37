"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";

import { contactListSearchParams, type ContactListQuery, type ContactPage } from "@/lib/contacts/contact-list-query";
import { dashboardKeys, dashboardReads } from "@/lib/dashboard/dashboard-reads";

/**
 * The page of contacts a query shows. The page the server rendered serves
 * while the query is still the one it was rendered for; any other query reads JSON.
 */
export function useContactPage({
  workspaceId,
  query,
  initialQuery,
  initialPage,
}: {
  workspaceId: string;
  query: ContactListQuery;
  initialQuery: ContactListQuery;
  initialPage: ContactPage;
}) {
  const queryClient = useQueryClient();
  const isInitial = contactListSearchParams(query).toString() === contactListSearchParams(initialQuery).toString();
  const result = useQuery({
    queryKey: dashboardKeys.contacts(workspaceId, query),
    queryFn: ({ signal }) => dashboardReads.contacts(workspaceId, query, signal),
    initialData: isInitial ? initialPage : undefined,
    placeholderData: keepPreviousData,
    // New signups appear on the first page while it is open; later pages stay put while read.
    refetchInterval: query.after ? false : 30_000,
  });

  // A server action (adding a contact) renders the page anew: what was read before is stale.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.contacts(workspaceId) });
  }, [initialPage, queryClient, workspaceId]);

  return result;
}
