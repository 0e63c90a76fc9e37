"use client";

import { Monitor, Smartphone } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";

const WIDTHS = { desktop: 720, mobile: 375 } as const;

/**
 * The mail's HTML in a sandboxed frame (no scripts, no forms, nothing
 * reaching the dashboard), at a desktop or a phone's width.
 */
export function MailPreview({ html, subject }: { html: string; subject: string }) {
  const [width, setWidth] = useState<keyof typeof WIDTHS>("desktop");
  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-3">
        <p className="truncate text-sm">
          <span className="text-muted-foreground">Subject: </span>
          <span className="font-medium" data-testid="preview-subject">
            {subject}
          </span>
        </p>
        <div role="group" aria-label="Preview width" className="inline-flex gap-1">
          {(Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]).map((name) => (
            <Button key={name} type="button" size="sm" variant={width === name ? "secondary" : "ghost"} aria-pressed={width === name} onClick={() => setWidth(name)}>
              {name === "desktop" ? <Monitor /> : <Smartphone />}
              {name === "desktop" ? "Desktop" : "Mobile"}
            </Button>
          ))}
        </div>
      </div>
      <div className="overflow-x-auto rounded-lg border bg-muted/40 p-4">
        <iframe title="Mail preview" sandbox="" srcDoc={html} className={cn("mx-auto block h-[36rem] rounded-md border bg-white")} style={{ width: WIDTHS[width] }} />
      </div>
    </div>
  );
}
