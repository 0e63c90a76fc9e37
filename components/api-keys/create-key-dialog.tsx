"use client";

import { Copy, KeyRound, Plus, TriangleAlert } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";

import { FormError, SelectField, TextAreaField, TextField } from "@/components/forms/form-fields";
import { useActionForm } from "@/components/forms/use-action-form";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
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
import { createApiKeySchema } from "@/lib/api-keys/api-key-schemas";
import type { ActionState } from "@/lib/dashboard/action-state";

type CreateKeyInput = z.input<typeof createApiKeySchema>;
type CreateKey = (workspaceId: string, input: CreateKeyInput) => Promise<ActionState<{ keyId: string; key: string }>>;

/** Origins are typed one per line; the schema takes a list. */
function originsFromText(value: unknown): string[] {
  return String(value ?? "")
    .split(/[\s,]+/)
    .map((origin) => origin.trim())
    .filter(Boolean);
}

export function CreateKeyDialog({
  workspaceId,
  brands,
  action,
}: {
  workspaceId: string;
  brands: { id: string; name: string }[];
  action: CreateKey;
}) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const router = useRouter();
  const { form, submit, formError, pending } = useActionForm({
    schema: createApiKeySchema,
    action,
    workspaceId,
    defaultValues: { name: "", kind: "publishable", environment: "live", brandId: undefined, origins: [] },
    // The action does not revalidate: the table is refreshed once the dialog closes. A refresh now could
    // move this dialog in the page (the empty state gives way to the table), remount it and lose the key.
    onSuccess: ({ key }) => setCreated(key),
  });
  form.register("origins", { setValueAs: originsFromText });
  form.register("brandId", { setValueAs: (value: unknown) => (value === "" ? undefined : value) });
  const kind = form.watch("kind");
  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      if (created) router.refresh();
      setCreated(null);
      form.reset();
    }
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogTrigger asChild>
        <Button>
          <Plus />
          New API key
        </Button>
      </DialogTrigger>
      <DialogContent>
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>Copy your new key</DialogTitle>
              <DialogDescription>
                This is the only time the whole key is shown. Only a hash is kept: a lost key cannot be recovered, only
                replaced.
              </DialogDescription>
            </DialogHeader>
            <div className="flex items-center gap-2 rounded-md border bg-muted p-3">
              <KeyRound className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <code className="min-w-0 flex-1 break-all text-sm" data-testid="new-api-key">
                {created}
              </code>
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  void navigator.clipboard?.writeText(created).then(() => toast.success("Key copied."));
                }}
              >
                <Copy />
                Copy
              </Button>
            </div>
            {created.startsWith("sk_") && (
              <Alert variant="warning">
                <TriangleAlert />
                <AlertTitle>Keep it on your servers</AlertTitle>
                <AlertDescription>
                  A secret key reaches your whole audience. Never put it in a web page or an app: the API refuses it
                  from browsers.
                </AlertDescription>
              </Alert>
            )}
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>New API key</DialogTitle>
              <DialogDescription>
                Publishable keys go in your signup form and can only subscribe people; secret keys are for your servers.
              </DialogDescription>
            </DialogHeader>
            <form onSubmit={submit} className="grid gap-4" noValidate>
              <TextField
                form={form}
                name="name"
                label="Name"
                hint="Optional. Where the key is used, e.g. Website signup form."
              />
              <div className="grid grid-cols-2 gap-4">
                <SelectField
                  form={form}
                  name="kind"
                  label="Type"
                  options={[
                    { value: "publishable", label: "Publishable (pk_)" },
                    { value: "secret", label: "Secret (sk_)" },
                  ]}
                />
                <SelectField
                  form={form}
                  name="environment"
                  label="Mode"
                  options={[
                    { value: "live", label: "Live" },
                    { value: "test", label: "Test: mails nothing" },
                  ]}
                />
              </div>
              <SelectField
                form={form}
                name="brandId"
                label="Brand"
                hint="Optional. A key locked to a brand sees only that brand's topics and lists."
                options={[
                  { value: "", label: "Every brand" },
                  ...brands.map((brand) => ({ value: brand.id, label: brand.name })),
                ]}
              />
              {kind === "publishable" && (
                <TextAreaField
                  form={form}
                  name="origins"
                  label="Allowed origins"
                  hint="Optional, one per line, e.g. https://www.example.com. With a list, requests from other sites are refused."
                  rows={2}
                />
              )}
              <FormError message={formError} />
              <DialogFooter>
                <Button type="submit" disabled={pending}>
                  Create key
                </Button>
              </DialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
