"use client";

import { useTheme } from "next-themes";
import { Toaster as Sonner } from "sonner";

// The theme in use, the visitor's stored choice included (with "system" a dark choice on a light system showed light toasts).
// Toasts exist only in the browser, so the server's "light" never meets a hydrated toast.
export function Toaster() {
  const { resolvedTheme } = useTheme();
  return <Sonner theme={resolvedTheme === "dark" ? "dark" : "light"} richColors closeButton position="bottom-right" />;
}
