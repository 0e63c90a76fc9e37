"use client";

import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";

import { FormError, TextAreaField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "@/components/ui/dialog";
import { createBrandSchema, type CreateBrandInput } from "@/lib/brands/brand-schemas";
import type { ActionState } from "@/lib/dashboard/action-state";

type CreateBrand = (workspaceId: string, input: CreateBrandInput) => Promise<ActionState<{ brandId: string }>>;

export function CreateBrandDialog({
  workspaceId,
  action,
  label = "New brand",
}: {
  workspaceId: string;
  action: CreateBrand;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: createBrandSchema,
    action,
    workspaceId,
    defaultValues: { name: "", legalName: "", postalAddress: "", websiteUrl: "", senderEmail: "" },
    onSuccess: ({ brandId }) => {
      setOpen(false);
      form.reset();
      toast.success("Brand created. It is in review until the service approves it.");
      router.push(`/w/${workspaceId}/brands/${brandId}`);
    },
  });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus />
          {label}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New brand</DialogTitle>
          <DialogDescription>
            Who your mail is from. Recipients see the name and sender address; every campaign carries the postal
            address. Every field is required.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <TextField form={form} name="name" label="Name" hint="As recipients know you, e.g. Acme." />
          <TextField form={form} name="legalName" label="Legal name" hint="The registered name, e.g. Acme Ltd." />
          <TextAreaField
            form={form}
            name="postalAddress"
            label="Postal address"
            hint="A real address: the law requires it in every marketing mail."
            rows={2}
          />
          <TextField
            form={form}
            name="senderEmail"
            label="Sender address"
            type="email"
            placeholder="news@acme.example"
            hint="At a domain you manage (not gmail.com or outlook.com): its domain, after the @, is the one you verify under Domains."
          />
          <TextField
            form={form}
            name="websiteUrl"
            label="Website"
            type="url"
            placeholder="https://acme.example"
            hint="Required. Linked from your confirmation mail and consent pages; a signup form may thank people on a page of it."
          />
          <FormError message={formError} />
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              Create brand
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
