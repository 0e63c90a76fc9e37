import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest";

// GET, POST, PUT /api/inngest — where an Inngest server (dev, self-hosted or Cloud) calls our functions.
export const { GET, POST, PUT } = serve({ client: inngest, functions });
