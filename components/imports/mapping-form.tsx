"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

import type { DefineAttribute } from "@/components/attributes/define-attribute-dialog";
import { FormError } from "@/components/forms/form-fields";
import { Button } from "@/components/ui/button";
import { Checkbox, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ActionState } from "@/lib/dashboard/action-state";
import type { ImportCounts, ImportOptions } from "@/lib/db/schema/imports";
import type { ImportField } from "@/lib/imports/import-fields";

import { MappingColumns } from "./mapping-columns";

type CheckAction = (
  workspaceId: string,
  input: {
    importId: string;
    mapping: string[];
    policy: "keep" | "overwrite";
    topicIds: string[];
    listId: string | null;
    consentAsserted: boolean;
    startAutomations: boolean;
  },
) => Promise<ActionState<ImportCounts>>;

export interface MappingFormProps {
  workspaceId: string;
  importId: string;
  header: string[];
  preview: string[][];
  fields: ImportField[];
  mapping: string[];
  options: ImportOptions;
  topics: { id: string; name: string }[];
  lists: { id: string; name: string }[];
  action: CheckAction;
  /** Defines an attribute for a column that has no field yet (the attributes screen's action). */
  defineAttribute: DefineAttribute;
}

/**
 * Which field each column fills, with the file's first rows beside it, and
 * the import's choices. Submitting runs the dry run; nothing is imported yet.
 */
export function MappingForm({
  workspaceId,
  importId,
  header,
  preview,
  fields,
  mapping: initialMapping,
  options,
  topics,
  lists,
  action,
  defineAttribute,
}: MappingFormProps) {
  const router = useRouter();
  const [mapping, setMapping] = useState(initialMapping);
  const [policy, setPolicy] = useState(options.policy);
  const [topicIds, setTopicIds] = useState(options.topicIds);
  const [listId, setListId] = useState(options.listId ?? "");
  const [startAutomations, setStartAutomations] = useState(options.startAutomations ?? false);
  // Topics are kept only by a dry run the sender vouched for, so kept topics mean the box was ticked.
  const [consent, setConsent] = useState(options.topicIds.length > 0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, startTransition] = useTransition();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    startTransition(async () => {
      const state = await action(workspaceId, {
        importId,
        mapping,
        policy,
        topicIds,
        listId: listId || null,
        consentAsserted: consent,
        startAutomations: Boolean(listId) && startAutomations,
      });
      if (state.ok) {
        setErrors({});
        setFormError(undefined);
        return router.refresh();
      }
      setErrors(state.fieldErrors);
      setFormError(state.message);
    });
  };

  return (
    <form onSubmit={submit} className="grid gap-6" noValidate>
      <section className="grid gap-2" aria-label="Columns">
        <p className="text-sm text-muted-foreground">
          Columns whose names we recognised are matched already. Leave a column on “Don’t import” to skip it, or choose
          “New attribute…” to keep it on each contact under a name of your own.
        </p>
        {errors.mapping && (
          <p role="alert" className="text-sm text-destructive">
            {errors.mapping}
          </p>
        )}
        <MappingColumns
          workspaceId={workspaceId}
          header={header}
          preview={preview}
          fields={fields}
          mapping={mapping}
          setMapping={setMapping}
          errors={errors}
          defineAttribute={defineAttribute}
        />
      </section>

      <fieldset className="grid gap-2">
        <legend className="mb-1 text-base font-semibold">Contacts already here</legend>
        <Label className="font-normal">
          <input
            type="radio"
            name="policy"
            value="keep"
            checked={policy === "keep"}
            onChange={() => setPolicy("keep")}
            className="accent-primary"
          />
          Keep their values; only fill in what is empty
        </Label>
        <Label className="font-normal">
          <input
            type="radio"
            name="policy"
            value="overwrite"
            checked={policy === "overwrite"}
            onChange={() => setPolicy("overwrite")}
            className="accent-primary"
          />
          Overwrite with the file’s values (empty cells change nothing)
        </Label>
      </fieldset>

      {topics.length > 0 && (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-base font-semibold">Subscribe everyone to</legend>
          {topics.map((topic) => (
            <Label key={topic.id} className="font-normal">
              <Checkbox
                checked={topicIds.includes(topic.id)}
                onChange={(event) =>
                  setTopicIds((ids) =>
                    event.target.checked ? [...ids, topic.id] : ids.filter((id) => id !== topic.id),
                  )
                }
              />
              {topic.name}
            </Label>
          ))}
          <p className="text-sm text-muted-foreground">
            No confirmation mail is sent. People who opted out are never resubscribed: their rows are refused.
          </p>
          {topicIds.length > 0 && (
            <Label className="mt-2 font-normal">
              <Checkbox
                checked={consent}
                onChange={(event) => (
                  setConsent(event.target.checked),
                  setErrors(({ consentAsserted: _cleared, ...rest }) => rest),
                  setFormError(undefined)
                )}
                aria-invalid={errors.consentAsserted ? true : undefined}
                aria-describedby={errors.consentAsserted ? "consent-error" : undefined}
              />
              Everyone in this file agreed to receive these topics, and I can show how
            </Label>
          )}
          {errors.consentAsserted && (
            <p id="consent-error" role="alert" className="text-sm text-destructive">
              {errors.consentAsserted}
            </p>
          )}
        </fieldset>
      )}

      {lists.length > 0 && (
        <div className="grid max-w-sm gap-2">
          <Label htmlFor="import-list" className="text-base font-semibold">
            Add everyone to a list
          </Label>
          <NativeSelect id="import-list" value={listId} onChange={(event) => setListId(event.target.value)}>
            <option value="">No list</option>
            {lists.map((list) => (
              <option key={list.id} value={list.id}>
                {list.name}
              </option>
            ))}
          </NativeSelect>
          {listId && (
            <Label className="font-normal">
              <Checkbox checked={startAutomations} onChange={(event) => setStartAutomations(event.target.checked)} />
              Start this list&rsquo;s automations for the people added
            </Label>
          )}
          {listId && (
            <p className="text-sm text-muted-foreground">
              Unticked, an import adds people quietly: automations that start when someone joins the list leave them
              out.
            </p>
          )}
        </div>
      )}

      <FormError message={formError} />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Checking the file…" : "Check the file"}
        </Button>
        <p className="mt-2 text-sm text-muted-foreground">
          A dry run: it shows what the import will do and changes nothing.
        </p>
      </div>
    </form>
  );
}
