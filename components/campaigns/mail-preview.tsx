"use client";

import { Monitor, Smartphone } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";

import { Button } from "@/components/ui/button";

const WIDTHS = { desktop: 720, mobile: 375 } as const;

/**
 * The mail's HTML in a sandboxed frame, at a desktop or a phone's width (or
 * the screen's, when narrower), as tall as the mail: the whole of it shows,
 * button and footer included, with no scrollbar of its own. The frame runs
 * no scripts and submits no forms; it shares the dashboard's origin only so
 * that the dashboard can measure its height.
 */
export function MailPreview({ html, subject }: { html: string; subject: string }) {
  const [width, setWidth] = useState<keyof typeof WIDTHS>("desktop");
  const frame = useRef<HTMLIFrameElement>(null);

  // Measured with the frame at no height, so that the mail's own height is read, not the frame's; set back before anything is painted.
  const fit = useCallback(() => {
    const element = frame.current;
    const root = element?.contentDocument?.documentElement;
    if (!element || !root) return;
    element.style.height = "0px";
    element.style.height = `${root.scrollHeight}px`;
  }, []);
  // Images arrive after the mail's text and make it taller.
  const loaded = useCallback(() => {
    fit();
    for (const image of Array.from(frame.current?.contentDocument?.images ?? []))
      if (!image.complete) image.addEventListener("load", fit, { once: true });
  }, [fit]);
  // Also on mounting: the frame may have loaded before the page was hydrated, its load event unheard.
  useEffect(() => {
    loaded();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, [fit, loaded, width]);

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="min-w-0 truncate text-sm">
          <span className="text-muted-foreground">Subject: </span>
          <span className="font-medium" data-testid="preview-subject">
            {subject}
          </span>
        </p>
        <div role="group" aria-label="Preview width" className="inline-flex gap-1">
          {(Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]).map((name) => (
            <Button
              key={name}
              type="button"
              size="sm"
              variant={width === name ? "secondary" : "ghost"}
              aria-pressed={width === name}
              onClick={() => setWidth(name)}
            >
              {name === "desktop" ? <Monitor /> : <Smartphone />}
              {name === "desktop" ? "Desktop" : "Mobile"}
            </Button>
          ))}
        </div>
      </div>
      <div className="rounded-lg border bg-muted/40 p-2 sm:p-4">
        <iframe
          ref={frame}
          title="Mail preview"
          sandbox="allow-same-origin"
          srcDoc={html}
          onLoad={loaded}
          scrolling="no"
          className="mx-auto block h-96 max-w-full rounded-md border bg-white"
          style={{ width: WIDTHS[width] }}
        />
      </div>
    </div>
  );
}
