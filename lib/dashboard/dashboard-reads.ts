import type { AutomationFigures } from "@/lib/automations/automation-figures";
import type { CampaignProgress } from "@/lib/campaigns/campaign-progress";
import type { BulkActionView } from "@/lib/contacts/bulk-action-view";
import {
  contactListSearchParams,
  type ContactCount,
  type ContactCountQuery,
  type ContactListQuery,
  type ContactPage,
} from "@/lib/contacts/contact-list-query";
import type { ImportCounts, ImportStatus } from "@/lib/db/schema/imports";

// The dashboard's live reads, one place for each one's query key and address: a key names
// everything its answer depends on, and every key of a workspace starts with the workspace, so a
// change can refresh all of a workspace's reads or one kind of them.

export interface OverviewCounts {
  contacts: number;
  topics: number;
  lists: number;
  brands: number;
  activeKeys: number;
}

const base = (workspaceId: string) => `/api/dashboard/w/${encodeURIComponent(workspaceId)}`;

export const dashboardKeys = {
  workspace: (workspaceId: string) => ["dashboard", workspaceId] as const,
  /**
   * Without a query: every page and total of the contacts table, for invalidation. The chosen
   * columns are not part of a page's key: every row carries its attributes, so showing one more
   * column reads nothing.
   */
  contacts: (workspaceId: string, query?: ContactListQuery) =>
    query
      ? (["dashboard", workspaceId, "contacts", { ...query, columns: undefined }] as const)
      : (["dashboard", workspaceId, "contacts"] as const),
  contactCount: (workspaceId: string, query: ContactCountQuery) =>
    ["dashboard", workspaceId, "contacts", "count", query] as const,
  overview: (workspaceId: string) => ["dashboard", workspaceId, "overview"] as const,
  segmentCount: (workspaceId: string, topicId: string, rule: string) =>
    ["dashboard", workspaceId, "segments", "count", topicId, rule] as const,
  campaignProgress: (workspaceId: string, campaignId: string) =>
    ["dashboard", workspaceId, "campaigns", campaignId, "progress"] as const,
  importStatus: (workspaceId: string, importId: string) => ["dashboard", workspaceId, "imports", importId] as const,
  automationFigures: (workspaceId: string, automationId: string) =>
    ["dashboard", workspaceId, "automations", automationId, "figures"] as const,
  bulkAction: (workspaceId: string, bulkActionId: string) =>
    ["dashboard", workspaceId, "bulk-actions", bulkActionId] as const,
};

/** A dashboard JSON answer's body, or an Error carrying the server's message (the contract's error shape). */
export async function answerOf<T>(response: Response): Promise<T> {
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message;
    throw new Error(message ?? `The server answered ${response.status}.`);
  }
  return body as T;
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  return answerOf<T>(await fetch(url, { headers: { accept: "application/json" }, signal, credentials: "same-origin" }));
}

export const dashboardReads = {
  contacts: (workspaceId: string, query: ContactListQuery, signal?: AbortSignal) => {
    const params = contactListSearchParams({ ...query, columns: undefined }).toString();
    return getJson<ContactPage>(`${base(workspaceId)}/contacts${params ? `?${params}` : ""}`, signal);
  },
  contactCount: (workspaceId: string, query: ContactCountQuery, signal?: AbortSignal) => {
    const params = contactListSearchParams(query).toString();
    return getJson<ContactCount>(`${base(workspaceId)}/contacts/count${params ? `?${params}` : ""}`, signal);
  },
  /** `rule` is the rule as JSON. */
  segmentCount: (workspaceId: string, topicId: string, rule: string, signal?: AbortSignal) =>
    getJson<ContactCount>(
      `${base(workspaceId)}/segments/count?${new URLSearchParams({ topic: topicId, rule_json: rule }).toString()}`,
      signal,
    ),
  overview: (workspaceId: string, signal?: AbortSignal) =>
    getJson<OverviewCounts>(`${base(workspaceId)}/overview`, signal),
  campaignProgress: (workspaceId: string, campaignId: string, signal?: AbortSignal) =>
    getJson<CampaignProgress>(`${base(workspaceId)}/campaigns/${encodeURIComponent(campaignId)}`, signal),
  automationFigures: (workspaceId: string, automationId: string, signal?: AbortSignal) =>
    getJson<AutomationFigures>(`${base(workspaceId)}/automations/${encodeURIComponent(automationId)}`, signal),
  importStatus: (workspaceId: string, importId: string, signal?: AbortSignal) =>
    getJson<ImportStatusView>(`${base(workspaceId)}/imports/${encodeURIComponent(importId)}`, signal),
  bulkAction: (workspaceId: string, bulkActionId: string, signal?: AbortSignal) =>
    getJson<BulkActionView>(`${base(workspaceId)}/contacts/bulk-actions/${encodeURIComponent(bulkActionId)}`, signal),
};

/** Where an import stands, as the progress bar reads it. */
export interface ImportStatusView {
  status: ImportStatus;
  progress: { done: number; total: number };
  checked: ImportCounts | null;
  applied: ImportCounts | null;
}

/** Addresses the browser follows rather than fetches: uploads and downloads. */
export const dashboardFiles = {
  importUpload: (workspaceId: string, fileName: string) =>
    `${base(workspaceId)}/imports?name=${encodeURIComponent(fileName)}`,
  refusedRows: (workspaceId: string, importId: string) =>
    `${base(workspaceId)}/imports/${encodeURIComponent(importId)}/refused`,
  notSent: (workspaceId: string, campaignId: string) =>
    `${base(workspaceId)}/campaigns/${encodeURIComponent(campaignId)}/not-sent`,
  /** Everything held about one contact, as a JSON file (the person's access request). */
  contactData: (workspaceId: string, contactId: string) =>
    `${base(workspaceId)}/contacts/${encodeURIComponent(contactId)}/data`,
  /** The filter's contacts, or only those ticked when `contactIds` names some. */
  contactsExport: (workspaceId: string, query: ContactListQuery, contactIds?: string[]) => {
    const params = contactListSearchParams({
      ...query,
      sort: undefined,
      after: undefined,
      columns: undefined,
    });
    if (contactIds?.length) params.set("ids", contactIds.join(","));
    return `${base(workspaceId)}/contacts/export${params.size ? `?${params}` : ""}`;
  },
};
