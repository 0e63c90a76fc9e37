"use client";

import { LogOut } from "lucide-react";
import { signOut } from "next-auth/react";

import { Button } from "@/components/ui/button";
import { ThemeToggle } from "@/components/ui/theme-toggle";

/**
 * Who is signed in, signing out and the theme, on one line: the foot of the sidebar fits a laptop's screen.
 * The address is small and the buttons compact so that an ordinary address shows whole.
 */
export function UserMenu({ email }: { email: string }) {
  return (
    <div className="flex items-center gap-0.5 border-t pt-2">
      <p
        className="min-w-0 flex-1 truncate px-1 text-xs text-muted-foreground"
        data-testid="signed-in-as"
        title={email}
      >
        {email}
      </p>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label="Sign out"
        title="Sign out"
        onClick={() => signOut({ callbackUrl: "/signin" })}
      >
        <LogOut />
      </Button>
      <ThemeToggle size="icon-sm" />
    </div>
  );
}
