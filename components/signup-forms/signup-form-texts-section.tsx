"use client";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Textarea } from "@/components/ui/input";
import type { SignupFormInput } from "@/lib/forms/signup-form-schemas";

import { SectionField, type SignupFormSectionProps } from "./signup-form-section";

/** The words on the form itself: title, button, description, consent and the privacy policy link. */
export function SignupFormTextsSection({ values, errors, update }: SignupFormSectionProps) {
  const texts = (change: Partial<SignupFormInput["texts"]>) => update({ texts: { ...values.texts, ...change } });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Texts</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <SectionField id="texts.title" label="Title" errors={errors}>
          {(aria) => (
            <Input {...aria} value={values.texts.title} onChange={(event) => texts({ title: event.target.value })} />
          )}
        </SectionField>
        <SectionField id="texts.button" label="Button" errors={errors}>
          {(aria) => (
            <Input {...aria} value={values.texts.button} onChange={(event) => texts({ button: event.target.value })} />
          )}
        </SectionField>
        <div className="sm:col-span-2">
          <SectionField
            id="texts.description"
            label="Description"
            hint="Optional. What people get, and how often."
            errors={errors}
          >
            {(aria) => (
              <Textarea
                {...aria}
                rows={2}
                value={values.texts.description}
                onChange={(event) => texts({ description: event.target.value })}
              />
            )}
          </SectionField>
        </div>
        <SectionField id="texts.consent" label="Consent wording" errors={errors}>
          {(aria) => (
            <Textarea
              {...aria}
              rows={2}
              value={values.texts.consent}
              onChange={(event) => texts({ consent: event.target.value })}
            />
          )}
        </SectionField>
        <SectionField
          id="texts.privacyUrl"
          label="Privacy policy URL"
          hint="Linked after the consent wording."
          errors={errors}
        >
          {(aria) => (
            <Input
              {...aria}
              type="url"
              placeholder="https://www.example.com/privacy"
              value={values.texts.privacyUrl ?? ""}
              onChange={(event) => texts({ privacyUrl: event.target.value || null })}
            />
          )}
        </SectionField>
      </CardContent>
    </Card>
  );
}
