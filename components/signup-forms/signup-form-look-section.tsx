"use client";

import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox, Input, NativeSelect } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { SignupFormInput } from "@/lib/forms/signup-form-schemas";

import { SectionField, type SignupFormSectionProps } from "./signup-form-section";

/** How the form looks (colour, corners, theme) and whether browsers must pass an anti-spam challenge. */
export function SignupFormLookSection({ values, errors, update }: SignupFormSectionProps) {
  const style = (change: Partial<SignupFormInput["style"]>) => update({ style: { ...values.style, ...change } });
  return (
    <Card>
      <CardHeader>
        <CardTitle>Look and protection</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-3">
        <SectionField id="style.color" label="Brand colour" errors={errors}>
          {(aria) => (
            <div className="flex items-center gap-2">
              <input
                type="color"
                aria-label="Pick the brand colour"
                value={values.style.color}
                onChange={(event) => style({ color: event.target.value })}
                className="h-9 w-12 rounded border"
              />
              <Input {...aria} value={values.style.color} onChange={(event) => style({ color: event.target.value })} />
            </div>
          )}
        </SectionField>
        <SectionField id="style.corners" label="Corners" errors={errors}>
          {(aria) => (
            <NativeSelect
              {...aria}
              value={values.style.corners}
              onChange={(event) => style({ corners: event.target.value as "rounded" | "square" })}
            >
              <option value="rounded">Rounded</option>
              <option value="square">Square</option>
            </NativeSelect>
          )}
        </SectionField>
        <SectionField id="style.theme" label="Theme" errors={errors}>
          {(aria) => (
            <NativeSelect
              {...aria}
              value={values.style.theme}
              onChange={(event) => style({ theme: event.target.value as "light" | "dark" })}
            >
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </NativeSelect>
          )}
        </SectionField>
        <div className="grid gap-1.5 sm:col-span-3">
          <Label className="font-normal">
            <Checkbox checked={values.challenge} onChange={(event) => update({ challenge: event.target.checked })} />
            Ask browsers to solve an anti-spam challenge
          </Label>
          <p className="pl-6 text-sm text-muted-foreground">
            An invisible proof of work (ALTCHA) of about a second, with no third-party service and no puzzle to click.
            Every form already has a hidden honeypot field and a limit per network. The plain HTML form needs JavaScript
            when this is on.
          </p>
        </div>
      </CardContent>
    </Card>
  );
}
