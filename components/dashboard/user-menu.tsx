"use client";

import { LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/button";
import { ThemeToggle } from "@/components/ui/theme-toggle";

/** Who is signed in, the theme and signing out: the foot of the sidebar. */
export function UserMenu({ email }: { email: string }) {
  return (
    <div className="flex flex-col gap-2 border-t pt-3">
      <p className="truncate px-2 text-sm text-muted-foreground" data-testid="signed-in-as">
        {email}
      </p>
      <div className="flex items-center gap-1">
        <Button variant="ghost" size="sm" className="flex-1 justify-start" onClick={() => signOut({ callbackUrl: "/signin" })}>
          <LogOut />
          Sign out
        </Button>
        <ThemeToggle />
      </div>
    </div>
  );
}
