"use client";

import { useEffect, useState } from "react";
import { useWatch, type UseFormReturn } from "react-hook-form";
import type { z } from "zod";

import type { campaignFormSchema } from "@/lib/campaigns/campaign-form-schema";
import type { MergeTagGaps as Gaps } from "@/lib/campaigns/count-missing-merge-tags";
import { mergeTagsIn, mergeTagsInDocument } from "@/lib/campaigns/merge-tag-names";
import type { ActionState } from "@/lib/dashboard/action-state";

type Input = z.input<typeof campaignFormSchema>;
type Question = { brandId: string; topicId: string; listId: string | null; tags: string[] };
export type CountMissingAction = (workspaceId: string, input: Question) => Promise<ActionState<Gaps>>;

/** A pause after the last change before counting again: counting reads the whole audience. */
const COUNT_PAUSE_MS = 600;
const number = (value: number) => value.toLocaleString("en");

/**
 * The merge tags the campaign uses, each with how many of its audience have
 * no value for it. There are no default values, so those are skipped when it
 * is sent; the sender sees it while writing, not in the report afterwards.
 */
export function MergeTagGaps({
  form,
  workspaceId,
  count,
}: {
  form: UseFormReturn<Input>;
  workspaceId: string;
  count: CountMissingAction;
}) {
  const [subject, previewText, html, text, document, brandId, topicId, listId] = useWatch({
    control: form.control,
    name: ["subject", "previewText", "html", "text", "document", "brandId", "topicId", "listId"],
  });
  // The body is the block document when there is one, else the HTML and text parts.
  const body = document
    ? mergeTagsInDocument(document)
    : [html, text].flatMap((part) => mergeTagsIn(String(part ?? "")));
  const tags = [
    ...new Set([...mergeTagsIn(String(subject ?? "")), ...mergeTagsIn(String(previewText ?? "")), ...body]),
  ].filter((tag) => /^(contact|brand)\.[A-Za-z0-9_]+$/.test(tag) && tag !== "contact.email");
  const question: Question = {
    brandId: String(brandId ?? ""),
    topicId: String(topicId ?? ""),
    listId: listId ? String(listId) : null,
    tags,
  };
  const key = JSON.stringify(question);
  const [answer, setAnswer] = useState<{ key: string; gaps: Gaps } | null>(null);

  useEffect(() => {
    const asked: Question = JSON.parse(key);
    if (!asked.topicId || !asked.brandId || asked.tags.length === 0) return;
    let current = true;
    const timer = setTimeout(async () => {
      const state = await count(workspaceId, asked);
      if (current && state.ok) setAnswer({ key, gaps: state.result });
    }, COUNT_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, count, workspaceId]);

  const contactTags = tags.filter((tag) => tag.startsWith("contact."));
  const gaps = answer?.key === key ? answer.gaps : null;
  const missing = (tag: string) => gaps?.tags.find((row) => row.tag === tag)?.missing;
  // A brand's values are always filled in; a brand tag is shown only when one is not.
  const shown = [...contactTags, ...tags.filter((tag) => tag.startsWith("brand.") && (missing(tag) ?? 0) > 0)];
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby="merge-tag-gaps-title" className="grid gap-2 rounded-md border bg-muted/30 p-3 text-sm">
      <h3 id="merge-tag-gaps-title" className="font-medium">
        Merge tags and who has no value for them
      </h3>
      <p className="text-muted-foreground">
        There are no default values: a subscriber without a value for a tag the campaign uses is skipped, not sent a
        blank. Fill the values on Contacts, or by importing them.
      </p>
      <ul className="grid gap-1.5" aria-label="Merge tags used" aria-busy={gaps ? undefined : true}>
        {shown.map((tag) => (
          <li key={tag} className="flex flex-wrap items-baseline gap-x-2">
            <code className="rounded bg-muted px-1 py-0.5 text-xs break-all">{`{{${tag}}}`}</code>
            <span
              className={
                gaps && (missing(tag) ?? 0) > 0 ? "text-amber-700 dark:text-amber-400" : "text-muted-foreground"
              }
            >
              {gapLine(gaps, missing(tag))}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function gapLine(gaps: Gaps | null, missing: number | undefined): string {
  if (!gaps) return "Counting…";
  if (missing === undefined) return "Not a merge tag of this workspace: saving refuses it.";
  const { audience } = gaps;
  if (audience === 0) return "No one is in this audience yet.";
  if (missing === 0)
    return audience === 1 ? "The one subscriber has a value." : `All ${number(audience)} subscribers have a value.`;
  if (missing === audience)
    return `${audience === 1 ? "The one subscriber has no value" : `None of the ${number(audience)} subscribers has a value`}: no one would get this campaign.`;
  return `${number(missing)} of ${number(audience)} subscribers ${missing === 1 ? "has" : "have"} no value and will be skipped.`;
}
