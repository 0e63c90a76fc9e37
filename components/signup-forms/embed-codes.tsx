"use client";

import { Copy, ExternalLink } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";

import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import type { EmbedCodes as Codes } from "@/lib/forms/embed-codes";

type Way = "script" | "html" | "hosted";

const WAYS: { way: Way; label: string }[] = [
  { way: "script", label: "Script" },
  { way: "html", label: "Plain HTML" },
  { way: "hosted", label: "Hosted page" },
];

/** What each way is for; the plain HTML form works without JavaScript only while the form asks for no challenge. */
function describe(way: Way, codes: Codes): string {
  if (way === "script")
    return "Paste where the form should appear. It keeps its look whatever your site's styles, and shows answers in place.";
  if (way === "hosted")
    return "A page of its own, under your brand's name and logo, to link from anywhere: social profiles, emails, QR codes.";
  if (codes.htmlNeedsJavaScript) {
    return "Needs JavaScript while the anti-spam challenge is on: the code brings the script that solves it, and signups without it are refused, from site builders that strip scripts too. Turn the challenge off under Look and protection for a form that works with JavaScript turned off.";
  }
  return "Works with JavaScript turned off, and in site builders that refuse scripts. Your site's styles may change its look.";
}

/** The three ways to embed a form, each with its code and a copy button; the editor's preview shows how it looks. */
export function EmbedCodes({ codes }: { codes: Codes }) {
  const [way, setWay] = useState<Way>("script");
  const code = way === "script" ? codes.script : way === "html" ? codes.html : codes.hostedUrl;
  const copy = () => void navigator.clipboard?.writeText(code).then(() => toast.success("Copied."));
  return (
    <Card>
      <CardHeader>
        <CardTitle>Put it on your site</CardTitle>
        <CardDescription>{describe(way, codes)}</CardDescription>
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
              className={cn(
                "rounded-md px-3 py-1 text-sm",
                way === candidate.way ? "bg-background font-medium shadow-sm" : "text-muted-foreground",
              )}
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
          <p className="text-sm text-muted-foreground">
            {way === "hosted"
              ? "Open it to see the page as visitors do."
              : "The preview by the editor below shows how it looks."}
          </p>
        </div>
      </CardContent>
    </Card>
  );
}
