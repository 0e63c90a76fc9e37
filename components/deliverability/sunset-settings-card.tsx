"use client";

import { useRouter } from "next/navigation";
import { toast } from "sonner";

import { CheckboxField, FormError, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { ActionState } from "@/lib/dashboard/action-state";
import {
  describeSunset,
  sunsetApplies,
  sunsetSettingsSchema,
  type SunsetSettings,
  type SunsetSettingsInput,
} from "@/lib/deliverability/sunset-schemas";

/**
 * The workspace's sunset of inactive contacts: off by default; on, campaigns leave out whoever had no
 * open or click of their own in so many campaigns or days. Nobody is unsubscribed by it.
 */
export function SunsetSettingsCard({
  workspaceId,
  settings,
  action,
}: {
  workspaceId: string;
  settings: SunsetSettings;
  action: (workspaceId: string, input: SunsetSettingsInput) => Promise<ActionState<SunsetSettings>>;
}) {
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: sunsetSettingsSchema,
    action,
    workspaceId,
    defaultValues: {
      enabled: settings.enabled,
      afterCampaigns: settings.afterCampaigns ?? "",
      afterDays: settings.afterDays ?? "",
    },
    onSuccess: () => {
      toast.success("Sunset saved.");
      router.refresh();
    },
  });
  const on = sunsetApplies(settings);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          Sunset of inactive contacts
          <Badge variant={on ? "success" : "secondary"} data-testid="sunset-state">
            {on ? "On" : "Off"}
          </Badge>
        </CardTitle>
        <CardDescription>
          {on
            ? `${describeSunset(settings)}: such contacts are left out of campaigns as inactive.`
            : "Mailing people who never open hurts how mailbox providers treat all your mail. Turned on, campaigns leave them out."}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4" noValidate aria-label="Sunset of inactive contacts">
          <CheckboxField
            form={form}
            name="enabled"
            label="Leave inactive contacts out of campaigns"
            hint="Nobody is unsubscribed: they stay subscribed, a campaign can include them again, and an open or click of their own makes them active."
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              form={form}
              name="afterCampaigns"
              type="number"
              label="After this many campaigns"
              hint="Campaigns that reached them since their last open or click. Empty: not by campaigns."
            />
            <TextField
              form={form}
              name="afterDays"
              type="number"
              label="Or after this many days"
              hint="Since the first of those campaigns. Empty: not by days."
            />
          </div>
          <p className="text-sm text-muted-foreground">
            Opens by Apple Mail Privacy Protection and clicks by link scanners are recorded but do not count as opens or
            clicks of the person. Contacts no campaign has reached yet are never inactive.
          </p>
          <FormError message={formError} />
          <div>
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : "Save"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
