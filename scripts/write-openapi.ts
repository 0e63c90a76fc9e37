// npm run openapi — writes docs/openapi.json from the routes' schemas (the same document
// GET /v1/openapi.json serves). A test fails while the committed file differs from the code.
import { writeFileSync } from "node:fs";

import { v1Document } from "@/app/v1/v1-document";

export const OPENAPI_FILE = "docs/openapi.json";

writeFileSync(OPENAPI_FILE, `${JSON.stringify(v1Document(), null, 2)}\n`);
console.log(`wrote ${OPENAPI_FILE}`);
