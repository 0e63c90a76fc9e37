/** What the editor offers to choose from: the workspace's brands, topics, publishable keys and contact attributes. */
export interface SignupFormEditorOptions {
  brands: { id: string; name: string }[];
  topics: { id: string; name: string; brandId: string; requiresConfirmation: boolean }[];
  keys: {
    id: string;
    name: string;
    environment: "live" | "test";
    brandId: string | null;
    allowedOrigins: string[];
    displayPrefix: string;
    last4: string;
  }[];
  attributes: { key: string; type: "string" | "number" | "boolean" | "date" }[];
}
