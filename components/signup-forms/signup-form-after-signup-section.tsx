"use client";

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Textarea } from "@/components/ui/input";
import type { SignupFormInput } from "@/lib/forms/signup-form-schemas";

import { SectionField, type SignupFormSectionProps } from "./signup-form-section";

/** What people see once they have signed up: the two messages, or a thank-you page of the sender's own. */
export function SignupFormAfterSignupSection({ values, errors, update }: SignupFormSectionProps) {
  const texts = (change: Partial<SignupFormInput["texts"]>) => update({ texts: { ...values.texts, ...change } });
  return (
    <Card>
      <CardHeader>
        <CardTitle>After signing up</CardTitle>
        <CardDescription>
          The script shows these in place of the form; the plain HTML form shows them on its hosted page.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">
        <SectionField id="texts.checkInbox" label="When a confirmation is needed" errors={errors}>
          {(aria) => (
            <Textarea
              {...aria}
              rows={2}
              value={values.texts.checkInbox}
              onChange={(event) => texts({ checkInbox: event.target.value })}
            />
          )}
        </SectionField>
        <SectionField id="texts.success" label="When subscribed at once" errors={errors}>
          {(aria) => (
            <Textarea
              {...aria}
              rows={2}
              value={values.texts.success}
              onChange={(event) => texts({ success: event.target.value })}
            />
          )}
        </SectionField>
        <div className="sm:col-span-2">
          <SectionField
            id="redirectUrl"
            label="Thank-you page URL"
            hint="Optional. Where the plain HTML form sends people instead of the hosted thank-you page: a page on one of the key's allowed origins or on the brand's website."
            errors={errors}
          >
            {(aria) => (
              <Input
                {...aria}
                type="url"
                placeholder="https://www.example.com/thanks"
                value={values.redirectUrl ?? ""}
                onChange={(event) => update({ redirectUrl: event.target.value || null })}
              />
            )}
          </SectionField>
        </div>
      </CardContent>
    </Card>
  );
}
