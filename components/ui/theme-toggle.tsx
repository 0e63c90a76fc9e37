"use client";

import { Moon, Sun } from "lucide-react";
import { useTheme } from "next-themes";
import { useSyncExternalStore, type ComponentProps } from "react";

import { Button } from "./button";

const subscribe = () => () => {};

/**
 * The server cannot know the visitor's theme (it lives in their browser), so what it renders must not
 * depend on it: the icon follows the `dark` class next-themes sets before hydration, and the label
 * names the choice only once hydrated. Rendering by `resolvedTheme` made a dark visitor's first
 * render differ from the server's (React's hydration error #418 on every page).
 */
export function ThemeToggle({ size = "icon" }: { size?: ComponentProps<typeof Button>["size"] }) {
  const { resolvedTheme, setTheme } = useTheme();
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const dark = hydrated && resolvedTheme === "dark";
  return (
    <Button
      variant="ghost"
      size={size}
      aria-label={
        hydrated ? (dark ? "Use the light theme" : "Use the dark theme") : "Switch between the light and the dark theme"
      }
      title={hydrated ? (dark ? "Use the light theme" : "Use the dark theme") : undefined}
      onClick={() => setTheme(resolvedTheme === "dark" ? "light" : "dark")}
    >
      <Sun className="hidden dark:block" aria-hidden />
      <Moon className="dark:hidden" aria-hidden />
    </Button>
  );
}
