"use client";

import { formPreviewDocument } from "@/lib/forms/embed/preview-document";
import type { PublicSignupForm } from "@/lib/forms/public-signup-form";

/**
 * The form as every embed draws it, from the editor's unsaved values. The
 * frame runs only the preview's own inline script and, without
 * allow-same-origin, has an opaque origin: it cannot reach the dashboard.
 * Popups (the privacy policy link) open outside the sandbox.
 */
export function SignupFormPreview({ form, dark = false }: { form: PublicSignupForm; dark?: boolean }) {
  return (
    <iframe
      title="Form preview"
      sandbox="allow-scripts allow-popups allow-popups-to-escape-sandbox"
      srcDoc={formPreviewDocument(form, dark)}
      className="h-[34rem] w-full rounded-md border bg-muted"
    />
  );
}
