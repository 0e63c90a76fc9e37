import { confirmation } from "./functions/confirmation";

/** Every workflow of the service, served at /api/inngest and run by the embedded executor. */
export const functions = [confirmation];
