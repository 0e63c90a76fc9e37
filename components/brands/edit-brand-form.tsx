"use client";

import { TriangleAlert } from "lucide-react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { z } from "zod";

import { FormError, TextAreaField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { BRAND_IDENTITY_FIELDS, updateBrandSchema, type UpdateBrandInput } from "@/lib/brands/brand-schemas";
import type { ActionState } from "@/lib/dashboard/action-state";

type UpdateBrand = (
  workspaceId: string,
  input: { brandId: string; changes: UpdateBrandInput },
) => Promise<ActionState<{ identityEdited: boolean }>>;

const formSchema = z.strictObject({ brandId: z.string(), changes: updateBrandSchema });

export interface EditableBrand {
  id: string;
  name: string;
  legalName: string;
  postalAddress: string;
  senderEmail: string;
  websiteUrl: string;
  logoUrl: string | null;
  primaryColor: string | null;
}

export function EditBrandForm({
  workspaceId,
  brand,
  action,
}: {
  workspaceId: string;
  brand: EditableBrand;
  action: UpdateBrand;
}) {
  const router = useRouter();
  const initial = {
    name: brand.name,
    legalName: brand.legalName,
    postalAddress: brand.postalAddress,
    senderEmail: brand.senderEmail,
    websiteUrl: brand.websiteUrl,
    logoUrl: brand.logoUrl ?? "",
    primaryColor: brand.primaryColor ?? "",
  };
  const { form, submit, formError, pending } = useActionForm({
    schema: formSchema,
    action,
    workspaceId,
    defaultValues: { brandId: brand.id, changes: initial },
    onSuccess: ({ identityEdited }) => {
      toast.success(
        identityEdited
          ? "Saved. The brand is back in review and its sending is held until the review ends."
          : "Saved. Review and sending are unaffected.",
      );
      router.refresh();
    },
  });
  const values = form.watch("changes");
  const identityEdited = BRAND_IDENTITY_FIELDS.some((field) => (values?.[field] ?? "") !== initial[field]);
  return (
    <form onSubmit={submit} className="grid max-w-2xl gap-6" noValidate>
      <fieldset className="grid gap-4">
        <legend className="mb-2 text-sm font-semibold">Identity</legend>
        <p className="-mt-2 text-sm text-muted-foreground">
          What recipients judge you by. Changing any of it returns the brand to review.
        </p>
        <TextField form={form} name="changes.name" label="Name" />
        <TextField form={form} name="changes.legalName" label="Legal name" />
        <TextAreaField form={form} name="changes.postalAddress" label="Postal address" rows={2} />
        <TextField
          form={form}
          name="changes.senderEmail"
          label="Sender address"
          type="email"
          hint="At a domain you manage (not a free mail provider): its domain, after the @, is the sending domain to verify."
        />
      </fieldset>
      <fieldset className="grid gap-4">
        <legend className="mb-2 text-sm font-semibold">Appearance</legend>
        <p className="-mt-2 text-sm text-muted-foreground">
          Shown on your consent pages. These changes do not affect review.
        </p>
        <TextField
          form={form}
          name="changes.websiteUrl"
          label="Website"
          type="url"
          hint="Required. Linked from your confirmation mail and consent pages."
        />
        <TextField
          form={form}
          name="changes.logoUrl"
          label="Logo URL"
          type="url"
          optional
          hint="Optional. An https image, shown on the hosted signup form, unsubscribe and preference pages."
        />
        <TextField
          form={form}
          name="changes.primaryColor"
          label="Colour"
          placeholder="#1a2b3c"
          optional
          hint="Optional. A hex colour like #1a2b3c."
        />
      </fieldset>
      {identityEdited ? (
        <Alert variant="warning">
          <TriangleAlert />
          <AlertTitle>Saving returns this brand to review</AlertTitle>
          <AlertDescription>
            Its campaigns stop sending before their next batch and carry on where they stopped once the service approves
            the change.
          </AlertDescription>
        </Alert>
      ) : null}
      <FormError message={formError} />
      <div>
        <Button type="submit" disabled={pending || !form.formState.isDirty}>
          {identityEdited ? "Save and return to review" : "Save changes"}
        </Button>
      </div>
    </form>
  );
}
