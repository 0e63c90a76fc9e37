"use client";

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox, Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { keyReachesBrand } from "@/lib/api-keys/key-brand-scope";

import { NewPublishableKey, type CreateKeyAction } from "./new-publishable-key";
import type { SignupFormEditorOptions } from "./signup-form-editor-options";
import { SectionField, type SignupFormSectionProps } from "./signup-form-section";

function keyLabel(key: SignupFormEditorOptions["keys"][number]): string {
  return `${key.name || "Publishable key"} (${key.displayPrefix}…${key.last4})${key.environment === "test" ? ", test: mails nothing" : ""}`;
}

/** What the form signs people up to: its brand, that brand's topics, and the publishable key that accepts submissions. */
export function SignupFormSubscriptionSection({
  values,
  errors,
  update,
  options,
  workspaceId,
  createKey,
}: SignupFormSectionProps & {
  options: SignupFormEditorOptions;
  workspaceId: string;
  createKey: CreateKeyAction;
}) {
  const brandTopics = options.topics.filter((topic) => topic.brandId === values.brandId);
  const brandKeys = options.keys.filter((key) => keyReachesBrand(key, values.brandId));
  const chosenKey = options.keys.find((key) => key.id === values.apiKeyId);
  // A topic and a key of another brand would be refused on save, so changing the brand picks new ones.
  const chooseBrand = (brandId: string) => {
    const topic = options.topics.find((candidate) => candidate.brandId === brandId);
    const key = options.keys.find((candidate) => keyReachesBrand(candidate, brandId));
    update({ brandId, topicIds: topic ? [topic.id] : [], apiKeyId: key?.id ?? "" });
  };
  const toggleTopic = (topicId: string, on: boolean) =>
    update({ topicIds: on ? [...values.topicIds, topicId] : values.topicIds.filter((id) => id !== topicId) });

  return (
    <Card>
      <CardHeader>
        <CardTitle>What it signs people up to</CardTitle>
        <CardDescription>
          Each topic keeps its own consent: a double opt-in topic mails a confirmation link first.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <SectionField id="name" label="Name" hint="Only you see it, e.g. Blog footer." errors={errors}>
          {(aria) => <Input {...aria} value={values.name} onChange={(event) => update({ name: event.target.value })} />}
        </SectionField>
        <SectionField id="brandId" label="Brand" errors={errors}>
          {(aria) => (
            <NativeSelect {...aria} value={values.brandId} onChange={(event) => chooseBrand(event.target.value)}>
              {options.brands.map((brand) => (
                <option key={brand.id} value={brand.id}>
                  {brand.name}
                </option>
              ))}
            </NativeSelect>
          )}
        </SectionField>
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
        <SectionField
          id="apiKeyId"
          label="Publishable key"
          errors={errors}
          hint={
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
            )
          }
        >
          {(aria) => (
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
          )}
        </SectionField>
        <NewPublishableKey
          workspaceId={workspaceId}
          brandId={values.brandId}
          createKey={createKey}
          onCreated={(keyId) => update({ apiKeyId: keyId })}
        />
      </CardContent>
    </Card>
  );
}
