"use client";

import { KeyRound, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, type ReactNode } from "react";
import { toast } from "sonner";

import { FormError } from "@/components/forms/form-fields";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Checkbox, Input, NativeSelect, Textarea } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { keyReachesBrand } from "@/lib/api-keys/key-brand-scope";
import type { ActionState } from "@/lib/dashboard/action-state";
import { publicSignupForm } from "@/lib/forms/public-signup-form";
import { signupFormSchema, type SignupFormInput } from "@/lib/forms/signup-form-schemas";

import { SignupFormPreview } from "./signup-form-preview";

type FieldMode = "off" | "optional" | "required";

export interface SignupFormEditorOptions {
  brands: { id: string; name: string }[];
  topics: { id: string; name: string; brandId: string; requiresConfirmation: boolean }[];
  keys: {
    id: string;
    name: string;
    environment: "live" | "test";
    brandId: string | null;
    allowedOrigins: string[];
    displayPrefix: string;
    last4: string;
  }[];
  attributes: { key: string; type: "string" | "number" | "boolean" | "date" }[];
}

type CreateAction = (workspaceId: string, input: SignupFormInput) => Promise<ActionState<{ formId: string }>>;
type UpdateAction = (
  workspaceId: string,
  input: SignupFormInput & { formId: string },
) => Promise<ActionState<{ formId: string }>>;
/** A new form is created; an existing one (with its id) is updated. */
type Save = { create: CreateAction } | { formId: string; update: UpdateAction };
type CreateKeyAction = (
  workspaceId: string,
  input: { brandId?: string; origins: string[]; environment: "live" | "test" },
) => Promise<ActionState<{ keyId: string }>>;

const MODES: { value: FieldMode; label: string }[] = [
  { value: "off", label: "Not asked" },
  { value: "optional", label: "Optional" },
  { value: "required", label: "Required" },
];

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

function keyLabel(key: SignupFormEditorOptions["keys"][number]): string {
  return `${key.name || "Publishable key"} (${key.displayPrefix}…${key.last4})${key.environment === "test" ? ", test: mails nothing" : ""}`;
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
  const [newKey, setNewKey] = useState<{ origins: string; environment: "live" | "test"; error?: string } | null>(null);

  const update = (change: Partial<SignupFormInput>) => setValues((current) => ({ ...current, ...change }));
  const texts = (change: Partial<SignupFormInput["texts"]>) => update({ texts: { ...values.texts, ...change } });
  const style = (change: Partial<SignupFormInput["style"]>) => update({ style: { ...values.style, ...change } });
  const fields = (change: Partial<SignupFormInput["fields"]>) => update({ fields: { ...values.fields, ...change } });

  const brandTopics = options.topics.filter((topic) => topic.brandId === values.brandId);
  const brandKeys = options.keys.filter((key) => keyReachesBrand(key, values.brandId));
  const chosenKey = options.keys.find((key) => key.id === values.apiKeyId);
  const chooseBrand = (brandId: string) => {
    const topic = options.topics.find((candidate) => candidate.brandId === brandId);
    const key = options.keys.find((candidate) => keyReachesBrand(candidate, brandId));
    update({ brandId, topicIds: topic ? [topic.id] : [], apiKeyId: key?.id ?? "" });
  };
  const toggleTopic = (topicId: string, on: boolean) =>
    update({ topicIds: on ? [...values.topicIds, topicId] : values.topicIds.filter((id) => id !== topicId) });
  const attributeMode = (key: string): FieldMode => {
    const asked = values.fields.attributes.find((attribute) => attribute.key === key);
    return asked ? (asked.required ? "required" : "optional") : "off";
  };
  const setAttribute = (key: string, mode: FieldMode, label?: string) => {
    const rest = values.fields.attributes.filter((attribute) => attribute.key !== key);
    const current = values.fields.attributes.find((attribute) => attribute.key === key);
    if (mode === "off") return fields({ attributes: rest });
    const next = {
      key,
      label: label ?? current?.label ?? key.replaceAll("_", " ").replace(/^./, (first) => first.toUpperCase()),
      required: mode === "required",
    };
    fields({
      attributes: current
        ? values.fields.attributes.map((attribute) => (attribute.key === key ? next : attribute))
        : [...rest, next],
    });
  };

  const preview = publicSignupForm(
    {
      id: formId ?? "fm_preview",
      fields: values.fields,
      texts: values.texts,
      style: values.style,
      challenge: values.challenge,
    },
    brandTopics.filter((topic) => values.topicIds.includes(topic.id)),
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

  const makeKey = async () => {
    if (!newKey) return;
    const origins = newKey.origins.split(/[\s,]+/).filter(Boolean);
    const state = await createKey(workspaceId, {
      brandId: values.brandId || undefined,
      origins,
      environment: newKey.environment,
    });
    if (!state.ok) return setNewKey({ ...newKey, error: Object.values(state.fieldErrors)[0] ?? state.message });
    setNewKey(null);
    update({ apiKeyId: state.result.keyId });
    toast.success("Publishable key created for this form.");
    router.refresh();
  };

  const field = (
    id: string,
    label: ReactNode,
    control: (aria: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode,
    hint?: ReactNode,
  ) => (
    <Field id={`form-${id.replaceAll(".", "-")}`} label={label} hint={hint} error={errors[id]}>
      {control}
    </Field>
  );

  return (
    <form onSubmit={submit} noValidate className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
      <div className="grid content-start gap-6">
        <Card>
          <CardHeader>
            <CardTitle>What it signs people up to</CardTitle>
            <CardDescription>
              Each topic keeps its own consent: a double opt-in topic mails a confirmation link first.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            {field(
              "name",
              "Name",
              (aria) => (
                <Input {...aria} value={values.name} onChange={(event) => update({ name: event.target.value })} />
              ),
              "Only you see it, e.g. Blog footer.",
            )}
            {field("brandId", "Brand", (aria) => (
              <NativeSelect {...aria} value={values.brandId} onChange={(event) => chooseBrand(event.target.value)}>
                {options.brands.map((brand) => (
                  <option key={brand.id} value={brand.id}>
                    {brand.name}
                  </option>
                ))}
              </NativeSelect>
            ))}
            <fieldset className="grid gap-2" aria-describedby={errors.topicIds ? "form-topicIds-error" : undefined}>
              <legend className="mb-1 text-sm font-medium">Topics</legend>
              {brandTopics.length === 0 && (
                <p className="text-sm text-muted-foreground">This brand has no topic yet: create one under Topics.</p>
              )}
              {brandTopics.map((topic) => (
                <Label key={topic.id} className="font-normal">
                  <Checkbox
                    checked={values.topicIds.includes(topic.id)}
                    onChange={(event) => toggleTopic(topic.id, event.target.checked)}
                  />
                  {topic.name}
                  <span className="text-muted-foreground">
                    {topic.requiresConfirmation ? "· double opt-in" : "· no confirmation"}
                  </span>
                </Label>
              ))}
              <p className="text-sm text-muted-foreground">With several topics the form shows a checkbox for each.</p>
              {errors.topicIds && (
                <p id="form-topicIds-error" role="alert" className="text-sm text-destructive">
                  {errors.topicIds}
                </p>
              )}
            </fieldset>
            {field(
              "apiKeyId",
              "Publishable key",
              (aria) => (
                <NativeSelect
                  {...aria}
                  value={values.apiKeyId}
                  onChange={(event) => update({ apiKeyId: event.target.value })}
                >
                  <option value="">Choose a key…</option>
                  {brandKeys.map((key) => (
                    <option key={key.id} value={key.id}>
                      {keyLabel(key)}
                    </option>
                  ))}
                </NativeSelect>
              ),
              chosenKey ? (
                chosenKey.allowedOrigins.length > 0 ? (
                  <>
                    Accepts submissions from {chosenKey.allowedOrigins.join(", ")} and from the form&apos;s hosted page.
                  </>
                ) : (
                  <>This key has no origin allowlist: the form works when copied onto any website.</>
                )
              ) : (
                "The key's allowed origins decide which websites may use the form."
              ),
            )}
            {newKey ? (
              <div className="grid gap-3 rounded-md border p-4">
                <Field
                  id="new-key-origins"
                  label="Allowed origins"
                  hint="One per line, e.g. https://www.example.com: the sites your form will be on."
                  error={newKey.error}
                >
                  {(aria) => (
                    <Textarea
                      {...aria}
                      rows={2}
                      value={newKey.origins}
                      onChange={(event) => setNewKey({ ...newKey, origins: event.target.value })}
                    />
                  )}
                </Field>
                <Field id="new-key-mode" label="Mode">
                  {(aria) => (
                    <NativeSelect
                      {...aria}
                      value={newKey.environment}
                      onChange={(event) => setNewKey({ ...newKey, environment: event.target.value as "live" | "test" })}
                    >
                      <option value="live">Live</option>
                      <option value="test">Test: stores signups, mails nothing</option>
                    </NativeSelect>
                  )}
                </Field>
                <div className="flex gap-2">
                  <Button type="button" onClick={makeKey}>
                    <KeyRound />
                    Create key
                  </Button>
                  <Button type="button" variant="ghost" onClick={() => setNewKey(null)}>
                    Cancel
                  </Button>
                </div>
              </div>
            ) : (
              <div>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => setNewKey({ origins: "", environment: "live" })}
                >
                  <Plus />
                  New publishable key
                </Button>
              </div>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Fields</CardTitle>
            <CardDescription>
              The email address is always asked. Ask only what you will use: every field costs signups.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            {field("fields.firstName", "First name", (aria) => (
              <NativeSelect
                {...aria}
                value={values.fields.firstName}
                onChange={(event) => fields({ firstName: event.target.value as FieldMode })}
              >
                {MODES.map((mode) => (
                  <option key={mode.value} value={mode.value}>
                    {mode.label}
                  </option>
                ))}
              </NativeSelect>
            ))}
            {field("fields.lastName", "Last name", (aria) => (
              <NativeSelect
                {...aria}
                value={values.fields.lastName}
                onChange={(event) => fields({ lastName: event.target.value as FieldMode })}
              >
                {MODES.map((mode) => (
                  <option key={mode.value} value={mode.value}>
                    {mode.label}
                  </option>
                ))}
              </NativeSelect>
            ))}
            {options.attributes.map((attribute) => {
              const mode = attributeMode(attribute.key);
              const label = values.fields.attributes.find((asked) => asked.key === attribute.key)?.label ?? "";
              return (
                <div key={attribute.key} className="grid gap-2 rounded-md border p-3 sm:col-span-2 sm:grid-cols-2">
                  <Field
                    id={`form-attribute-${attribute.key}`}
                    label={`Attribute ${attribute.key} (${attribute.type})`}
                  >
                    {(aria) => (
                      <NativeSelect
                        {...aria}
                        value={mode}
                        onChange={(event) => setAttribute(attribute.key, event.target.value as FieldMode)}
                      >
                        {MODES.map((option) => (
                          <option key={option.value} value={option.value}>
                            {option.label}
                          </option>
                        ))}
                      </NativeSelect>
                    )}
                  </Field>
                  {mode !== "off" && (
                    <Field id={`form-attribute-${attribute.key}-label`} label="Label on the form">
                      {(aria) => (
                        <Input
                          {...aria}
                          value={label}
                          onChange={(event) => setAttribute(attribute.key, mode, event.target.value)}
                        />
                      )}
                    </Field>
                  )}
                </div>
              );
            })}
            {errors["fields.attributes"] && (
              <p role="alert" className="text-sm text-destructive sm:col-span-2">
                {errors["fields.attributes"]}
              </p>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Texts</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            {field("texts.title", "Title", (aria) => (
              <Input {...aria} value={values.texts.title} onChange={(event) => texts({ title: event.target.value })} />
            ))}
            {field("texts.button", "Button", (aria) => (
              <Input
                {...aria}
                value={values.texts.button}
                onChange={(event) => texts({ button: event.target.value })}
              />
            ))}
            <div className="sm:col-span-2">
              {field(
                "texts.description",
                "Description",
                (aria) => (
                  <Textarea
                    {...aria}
                    rows={2}
                    value={values.texts.description}
                    onChange={(event) => texts({ description: event.target.value })}
                  />
                ),
                "Optional. What people get, and how often.",
              )}
            </div>
            {field("texts.consent", "Consent wording", (aria) => (
              <Textarea
                {...aria}
                rows={2}
                value={values.texts.consent}
                onChange={(event) => texts({ consent: event.target.value })}
              />
            ))}
            {field(
              "texts.privacyUrl",
              "Privacy policy URL",
              (aria) => (
                <Input
                  {...aria}
                  type="url"
                  placeholder="https://www.example.com/privacy"
                  value={values.texts.privacyUrl ?? ""}
                  onChange={(event) => texts({ privacyUrl: event.target.value || null })}
                />
              ),
              "Linked after the consent wording.",
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>After signing up</CardTitle>
            <CardDescription>
              The script shows these in place of the form; the plain HTML form shows them on its hosted page.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            {field("texts.checkInbox", "When a confirmation is needed", (aria) => (
              <Textarea
                {...aria}
                rows={2}
                value={values.texts.checkInbox}
                onChange={(event) => texts({ checkInbox: event.target.value })}
              />
            ))}
            {field("texts.success", "When subscribed at once", (aria) => (
              <Textarea
                {...aria}
                rows={2}
                value={values.texts.success}
                onChange={(event) => texts({ success: event.target.value })}
              />
            ))}
            <div className="sm:col-span-2">
              {field(
                "redirectUrl",
                "Thank-you page URL",
                (aria) => (
                  <Input
                    {...aria}
                    type="url"
                    placeholder="https://www.example.com/thanks"
                    value={values.redirectUrl ?? ""}
                    onChange={(event) => update({ redirectUrl: event.target.value || null })}
                  />
                ),
                "Optional. Where the plain HTML form sends people instead of the hosted thank-you page: a page on one of the key's allowed origins or on the brand's website.",
              )}
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Look and protection</CardTitle>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-3">
            {field("style.color", "Brand colour", (aria) => (
              <div className="flex items-center gap-2">
                <input
                  type="color"
                  aria-label="Pick the brand colour"
                  value={values.style.color}
                  onChange={(event) => style({ color: event.target.value })}
                  className="h-9 w-12 rounded border"
                />
                <Input
                  {...aria}
                  value={values.style.color}
                  onChange={(event) => style({ color: event.target.value })}
                />
              </div>
            ))}
            {field("style.corners", "Corners", (aria) => (
              <NativeSelect
                {...aria}
                value={values.style.corners}
                onChange={(event) => style({ corners: event.target.value as "rounded" | "square" })}
              >
                <option value="rounded">Rounded</option>
                <option value="square">Square</option>
              </NativeSelect>
            ))}
            {field("style.theme", "Theme", (aria) => (
              <NativeSelect
                {...aria}
                value={values.style.theme}
                onChange={(event) => style({ theme: event.target.value as "light" | "dark" })}
              >
                <option value="light">Light</option>
                <option value="dark">Dark</option>
              </NativeSelect>
            ))}
            <div className="grid gap-1.5 sm:col-span-3">
              <Label className="font-normal">
                <Checkbox
                  checked={values.challenge}
                  onChange={(event) => update({ challenge: event.target.checked })}
                />
                Ask browsers to solve an anti-spam challenge
              </Label>
              <p className="pl-6 text-sm text-muted-foreground">
                An invisible proof of work (ALTCHA) of about a second, with no third-party service and no puzzle to
                click. Every form already has a hidden honeypot field and a limit per network. The plain HTML form needs
                JavaScript when this is on.
              </p>
            </div>
          </CardContent>
        </Card>
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
