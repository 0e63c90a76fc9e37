import { BookOpen, KeyRound } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";

import { CreateKeyDialog } from "@/components/api-keys/create-key-dialog";
import { RevokeKeyButton } from "@/components/api-keys/revoke-key-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { listBrands } from "@/lib/brands/list-brands";
import { getWorkspaceSession } from "@/lib/dashboard/workspace-session";

import { createApiKeyAction, revokeApiKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys" };

function day(date: Date | null): string {
  return date ? date.toISOString().slice(0, 16).replace("T", " ") : "Never";
}

export default async function ApiKeysPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  const { ctx, actor } = await getWorkspaceSession(workspaceId);
  const [keys, brands] = await Promise.all([listApiKeys(ctx, actor), listBrands(ctx, actor)]);
  const brandName = new Map(brands.map((brand) => [brand.id, brand.name]));
  const create = <CreateKeyDialog workspaceId={workspaceId} brands={brands} action={createApiKeyAction} />;
  const reference = (
    <Button asChild variant="outline">
      <Link href="/docs/api" target="_blank">
        <BookOpen />
        API reference
      </Link>
    </Button>
  );
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Overview", href: `/w/${workspaceId}` }, { label: "API keys" }]}
        title="API keys"
        description="Every request to the API carries a key. Rotate by creating a new key, deploying it, then revoking the old one."
        actions={
          <>
            {reference}
            {create}
          </>
        }
      />
      {keys.length === 0 ? (
        <EmptyState icon={<KeyRound />} title="Create your first API key">
          A publishable key lets your signup form subscribe people to a topic. A secret key lets your servers manage
          contacts, lists and suppressions and read reports.
        </EmptyState>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Key</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Brand</TableHead>
              <TableHead>Allowed origins</TableHead>
              <TableHead>Created</TableHead>
              <TableHead>Created by</TableHead>
              <TableHead>Last used</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {keys.map((key) => {
              const label = `${key.displayPrefix}…${key.last4}`;
              return (
                <TableRow key={key.id} className={key.revokedAt ? "opacity-60" : undefined}>
                  <TableCell>
                    <div className="font-mono text-sm">{label}</div>
                    {key.name && <div className="text-xs text-muted-foreground">{key.name}</div>}
                  </TableCell>
                  <TableCell>
                    <span className="inline-flex gap-1">
                      <Badge variant="outline">{key.kind}</Badge>
                      {key.environment === "test" && <Badge variant="secondary">test</Badge>}
                      {key.revokedAt && <Badge variant="destructive">revoked</Badge>}
                    </span>
                  </TableCell>
                  <TableCell>{key.brandId ? (brandName.get(key.brandId) ?? key.brandId) : "Every brand"}</TableCell>
                  <TableCell className="max-w-56 truncate">
                    {key.kind === "publishable" ? key.allowedOrigins.join(", ") || "Any" : "—"}
                  </TableCell>
                  <TableCell className="text-muted-foreground">{day(key.createdAt)}</TableCell>
                  {/* No member for keys the operator's CLI made, nor for those made before creators were recorded. */}
                  <TableCell className="text-muted-foreground">{key.createdByEmail ?? "—"}</TableCell>
                  <TableCell className="text-muted-foreground">{day(key.lastUsedAt)}</TableCell>
                  <TableCell className="text-right">
                    {!key.revokedAt && (
                      <RevokeKeyButton
                        workspaceId={workspaceId}
                        keyId={key.id}
                        label={label}
                        action={revokeApiKeyAction}
                      />
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </>
  );
}
