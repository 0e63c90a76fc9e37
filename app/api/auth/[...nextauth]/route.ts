import NextAuth from "next-auth";

import { authOptions } from "@/lib/auth/auth-options";

// GET, POST /api/auth/* — next-auth's sign-in, sign-out, session and CSRF endpoints.
const handler = NextAuth(authOptions);

export { handler as GET, handler as POST };
