import { connectWorkflowEvents } from "@/inngest/emit";

// The code under test emits workflow events as the app's does: embedded, as runs in its own transaction.
connectWorkflowEvents();
