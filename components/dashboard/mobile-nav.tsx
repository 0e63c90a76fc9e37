"use client";

import { Menu, XIcon } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { useState, type MouseEvent, type ReactNode } from "react";

import { Button } from "@/components/ui/button";

/**
 * Below the md breakpoint the sidebar is a drawer behind a menu button at the top of the screen, so
 * the screen's content comes first. The drawer is a modal dialog (focus kept inside, Escape and the
 * backdrop close it, focus back on the button) and closes as soon as a link in it is followed.
 */
export function MobileNav({ title, children }: { title: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // Capture: a link inside the workspace switcher's menu (a portal) still reaches here through React's tree.
  const closeOnLink = (event: MouseEvent) => {
    if ((event.target as Element).closest("a[href]")) setOpen(false);
  };
  return (
    <div className="sticky top-0 z-40 flex h-14 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur md:hidden">
      <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
        <DialogPrimitive.Trigger asChild>
          <Button variant="ghost" size="icon" aria-label="Open the menu">
            <Menu />
          </Button>
        </DialogPrimitive.Trigger>
        <DialogPrimitive.Portal>
          <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50 data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=closed]:animate-out data-[state=closed]:fade-out-0 md:hidden" />
          <DialogPrimitive.Content
            aria-describedby={undefined}
            onClickCapture={closeOnLink}
            className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-3 overflow-y-auto border-r bg-sidebar p-3 shadow-lg data-[state=open]:animate-in data-[state=open]:slide-in-from-left data-[state=closed]:animate-out data-[state=closed]:slide-out-to-left md:hidden"
          >
            <div className="flex items-center justify-between gap-2">
              <DialogPrimitive.Title className="px-2 text-sm font-medium text-muted-foreground">
                Menu
              </DialogPrimitive.Title>
              <DialogPrimitive.Close asChild>
                <Button variant="ghost" size="icon-sm" aria-label="Close the menu">
                  <XIcon />
                </Button>
              </DialogPrimitive.Close>
            </div>
            {children}
          </DialogPrimitive.Content>
        </DialogPrimitive.Portal>
      </DialogPrimitive.Root>
      <div className="min-w-0 flex-1 truncate font-semibold tracking-tight">{title}</div>
    </div>
  );
}
