"use client";

import { Copy, ExternalLink } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import type { EmbedCodes as Codes } from "@/lib/forms/embed-codes";

type Way = "script" | "html" | "hosted";

const WAYS: { way: Way; label: string; description: string }[] = [
  { way: "script", label: "Script", description: "Paste where the form should appear. It keeps its look whatever your site's styles, and shows answers in place." },
  { way: "html", label: "Plain HTML", description: "Works with JavaScript turned off, and in site builders that refuse scripts. Your site's styles may change its look." },
  { way: "hosted", label: "Hosted page", description: "A page of its own to link from anywhere: social profiles, emails, QR codes." },
];

/** The three ways to embed a form, each with its code, a copy button and a preview. */
export function EmbedCodes({ codes }: { codes: Codes }) {
  const [way, setWay] = useState<Way>("script");
  const code = way === "script" ? codes.script : way === "html" ? codes.html : codes.hostedUrl;
  const copy = () => void navigator.clipboard?.writeText(code).then(() => toast.success("Copied."));
  const current = WAYS.find((candidate) => candidate.way === way)!;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Put it on your site</CardTitle>
        <CardDescription>{current.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div role="tablist" aria-label="Ways to embed" className="inline-flex w-fit gap-1 rounded-lg bg-muted p-1">
          {WAYS.map((candidate) => (
            <button
              key={candidate.way}
              role="tab"
              type="button"
              aria-selected={way === candidate.way}
              onClick={() => setWay(candidate.way)}
              className={cn("rounded-md px-3 py-1 text-sm", way === candidate.way ? "bg-background font-medium shadow-sm" : "text-muted-foreground")}
            >
              {candidate.label}
            </button>
          ))}
        </div>
        <div role="tabpanel" className="grid gap-3">
          <pre className="max-h-48 overflow-auto rounded-md border bg-muted p-3 text-xs" data-testid={`embed-${way}`}>
            <code>{code}</code>
          </pre>
          <div className="flex gap-2">
            <Button type="button" variant="outline" size="sm" onClick={copy}>
              <Copy />
              Copy
            </Button>
            {way === "hosted" && (
              <Button asChild variant="outline" size="sm">
                <a href={codes.hostedUrl} target="_blank" rel="noopener">
                  <ExternalLink />
                  Open
                </a>
              </Button>
            )}
          </div>
          {way === "html" && (
            <iframe
              title="Plain HTML preview"
              sandbox=""
              srcDoc={`<!doctype html><meta charset="utf-8"><body style="margin:0;padding:16px">${codes.html}`}
              className="h-96 w-full rounded-md border bg-white"
            />
          )}
          {way === "hosted" && <iframe title="Hosted page preview" sandbox="" src={codes.hostedUrl} className="h-96 w-full rounded-md border bg-white" />}
          {way === "script" && <p className="text-sm text-muted-foreground">The preview beside the editor below is this script&apos;s rendering.</p>}
        </div>
      </CardContent>
    </Card>
  );
}
