"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";

import { FormError } from "@/components/forms/form-fields";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { ActionState } from "@/lib/dashboard/action-state";
import { publicSignupForm } from "@/lib/forms/public-signup-form";
import { signupFormSchema, type SignupFormInput } from "@/lib/forms/signup-form-schemas";

import type { CreateKeyAction } from "./new-publishable-key";
import { SignupFormAfterSignupSection } from "./signup-form-after-signup-section";
import type { SignupFormEditorOptions } from "./signup-form-editor-options";
import { SignupFormFieldsSection } from "./signup-form-fields-section";
import { SignupFormLookSection } from "./signup-form-look-section";
import { SignupFormPreview } from "./signup-form-preview";
import { SignupFormSubscriptionSection } from "./signup-form-subscription-section";
import { SignupFormTextsSection } from "./signup-form-texts-section";

type CreateAction = (workspaceId: string, input: SignupFormInput) => Promise<ActionState<{ formId: string }>>;
type UpdateAction = (
  workspaceId: string,
  input: SignupFormInput & { formId: string },
) => Promise<ActionState<{ formId: string }>>;
/** A new form is created; an existing one (with its id) is updated. */
type Save = { create: CreateAction } | { formId: string; update: UpdateAction };

function errorsOf(input: SignupFormInput): Record<string, string> {
  const parsed = signupFormSchema.safeParse(input);
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join(".") || "form";
    errors[path] ??= issue.message.charAt(0).toUpperCase() + issue.message.slice(1);
  }
  return errors;
}

/** Writing a signup form: what it subscribes to, what it asks, what it says, how it looks; the preview follows every change. */
export function SignupFormEditor({
  workspaceId,
  options,
  initial,
  save,
  createKey,
}: {
  workspaceId: string;
  options: SignupFormEditorOptions;
  initial: SignupFormInput;
  save: Save;
  createKey: CreateKeyAction;
}) {
  const formId = "formId" in save ? save.formId : undefined;
  const router = useRouter();
  const [values, setValues] = useState<SignupFormInput>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  const update = (change: Partial<SignupFormInput>) => setValues((current) => ({ ...current, ...change }));
  const section = { values, errors, update };

  const preview = publicSignupForm(
    {
      id: formId ?? "fm_preview",
      fields: values.fields,
      texts: values.texts,
      style: values.style,
      challenge: values.challenge,
    },
    options.topics.filter((topic) => topic.brandId === values.brandId && values.topicIds.includes(topic.id)),
    Object.fromEntries(options.attributes.map((attribute) => [attribute.key, attribute.type])),
    "",
  );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const local = errorsOf(values);
    setErrors(local);
    if (Object.keys(local).length > 0) return setFormError("Check the highlighted fields.");
    setPending(true);
    const state =
      "formId" in save
        ? await save.update(workspaceId, { ...values, formId: save.formId })
        : await save.create(workspaceId, values);
    setPending(false);
    if (!state.ok) {
      setErrors(state.fieldErrors);
      return setFormError(state.message);
    }
    if (formId) {
      toast.success("Form saved. Embedded copies show the change on their next load.");
      router.refresh();
    } else {
      router.push(`/w/${workspaceId}/forms/${state.result.formId}`);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
      <div className="grid content-start gap-6">
        <SignupFormSubscriptionSection {...section} options={options} workspaceId={workspaceId} createKey={createKey} />
        <SignupFormFieldsSection {...section} attributes={options.attributes} />
        <SignupFormTextsSection {...section} />
        <SignupFormAfterSignupSection {...section} />
        <SignupFormLookSection {...section} />
        <FormError message={formError} />
        <div className="flex gap-2">
          <Button type="submit" disabled={pending}>
            {formId ? "Save form" : "Create form"}
          </Button>
        </div>
      </div>
      <div className="grid content-start gap-2 xl:sticky xl:top-4">
        <h2 className="text-sm font-medium">Preview</h2>
        {preview.topics.length === 0 ? (
          <Alert>
            <AlertDescription>Choose a topic to see the form.</AlertDescription>
          </Alert>
        ) : (
          <SignupFormPreview form={preview} dark={values.style.theme === "dark"} />
        )}
      </div>
    </form>
  );
}
