"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm, type DefaultValues, type FieldValues, type Path } from "react-hook-form";
import type { z } from "zod";

import type { ActionState } from "@/lib/dashboard/action-state";
import { sentenceCase } from "@/lib/dashboard/sentence-case";

type Action<V, R> = (workspaceId: string, input: V) => Promise<ActionState<R>>;

/**
 * A form checked in the browser with the same zod schema the server uses,
 * then sent to a workspace server action; the server's refusals come back
 * next to their fields (or above the form when no field caused them).
 */
export function useActionForm<V extends FieldValues, R>({
  schema,
  action,
  workspaceId,
  defaultValues,
  onSuccess,
}: {
  schema: z.ZodType<unknown, V>;
  action: Action<V, R>;
  workspaceId: string;
  defaultValues: DefaultValues<V>;
  onSuccess?: (result: R) => void;
}) {
  // raw: the server parses what was typed; the browser's parse only checks it.
  const form = useForm<V>({ resolver: zodResolver(schema as never, undefined, { raw: true }) as never, defaultValues });
  const [formError, setFormError] = useState<string>();
  const submit = form.handleSubmit(async (values) => {
    setFormError(undefined);
    const state = await action(workspaceId, values);
    if (state.ok) {
      onSuccess?.(state.result);
      return;
    }
    const fields = Object.entries(state.fieldErrors);
    for (const [field, message] of fields) form.setError(field as Path<V>, { type: "server", message });
    // A field inside an object (`attributes.plan`) shows its error beside it, as a top-level one does.
    const shown = (field: string) => field.split(".")[0]! in (form.getValues() as object);
    if (fields.length === 0 || fields.some(([field]) => !shown(field))) setFormError(state.message);
  });
  return { form, submit, formError, pending: form.formState.isSubmitting };
}

/** zod's messages start lower-case ("must not be empty"); a field's error reads as a sentence, an address in it as typed. */
export function errorText(message: unknown): string | undefined {
  if (typeof message !== "string" || message === "") return undefined;
  return sentenceCase(message);
}
